/**
 * histogram_numeric(x, nb): Spark's NumericHistogram (Ben-Haim & Tom-Tov's streaming histogram,
 * via Hive): each value joins the bin at its x or becomes a bin of its own, and while there are
 * more than nb bins the two closest (ties broken by a java.util.Random seeded 31183, as Spark's)
 * merge into their weighted mean. The result is an ARRAY<STRUCT<x, y: DOUBLE>> sorted by x, x in
 * the input's type (spark.sql.legacy.histogramNumericPropagateInputType's default); NULL for a
 * group of no value. Row for row in a group, so a single-partition input gets Spark's bins.
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, type DataType, DoubleType, field, IntegerType, StructOf } from "../types/datatypes.js";
import { asDouble, fromDoubleAs } from "./double-values.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register } from "./registry.js";

const MASK48 = (1n << 48n) - 1n;

/** java.util.Random's nextDouble over its 48-bit linear congruential generator. */
class JavaRandom {
  private seed: bigint;
  constructor(seed: number) {
    this.seed = (BigInt(seed) ^ 0x5deece66dn) & MASK48;
  }
  private next(bits: number): number {
    this.seed = (this.seed * 0x5deece66dn + 0xbn) & MASK48;
    return Number(this.seed >> BigInt(48 - bits));
  }
  nextDouble(): number {
    return (this.next(26) * 2 ** 27 + this.next(27)) * 2 ** -53;
  }
}

class Histogram {
  xs: number[] = [];
  ys: number[] = [];
  private readonly random = new JavaRandom(31183);
  constructor(private readonly nb: number) {}

  add(v: number): void {
    const xs = this.xs;
    // binary search for v's bin, as NumericHistogram.add
    let bin = 0;
    for (let l = 0, r = xs.length; l < r; ) {
      bin = (l + r) >> 1;
      if (xs[bin]! > v) r = bin;
      else if (xs[bin]! < v) l = ++bin;
      else break;
    }
    if (bin < xs.length && xs[bin] === v) {
      this.ys[bin]!++;
      return;
    }
    xs.splice(bin, 0, v);
    this.ys.splice(bin, 0, 1);
    if (xs.length > this.nb) this.trim();
  }

  /** Another histogram's bins added (an empty one takes them as they are), then trimmed. */
  merge(xs: readonly number[], ys: readonly number[]): void {
    if (xs.length === 0) return;
    if (this.xs.length === 0) {
      this.xs = [...xs];
      this.ys = [...ys];
      return;
    }
    const bins = [...this.xs.map((x, i) => [x, this.ys[i]!] as const), ...xs.map((x, i) => [x, ys[i]!] as const)];
    bins.sort((a, b) => a[0] - b[0]);
    this.xs = bins.map((b) => b[0]);
    this.ys = bins.map((b) => b[1]);
    this.trim();
  }

  private trim(): void {
    const xs = this.xs;
    const ys = this.ys;
    while (xs.length > this.nb) {
      let smallest = xs[1]! - xs[0]!;
      let at = 0;
      let ties = 1;
      for (let i = 1; i < xs.length - 1; i++) {
        const diff = xs[i + 1]! - xs[i]!;
        if (diff < smallest) {
          smallest = diff;
          at = i;
          ties = 1;
        } else if (diff === smallest && this.random.nextDouble() <= 1 / ++ties) at = i;
      }
      const d = ys[at]! + ys[at + 1]!;
      xs[at] = xs[at]! * (ys[at]! / d) + (xs[at + 1]! / d) * ys[at + 1]!;
      ys[at] = d;
      xs.splice(at + 1, 1);
      ys.splice(at + 1, 1);
    }
  }
}

class HistogramAcc implements Accumulator {
  private groups: (Histogram | null)[] = [];
  constructor(
    private readonly type: DataType,
    private readonly nb: number,
  ) {}
  resize(n: number): void {
    while (this.groups.length < n) this.groups.push(null);
  }
  private histogram(g: number): Histogram {
    let h = this.groups[g];
    if (!h) this.groups[g] = h = new Histogram(this.nb);
    return h;
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const v = getValue(input[0]!, i);
      if (v !== null) this.histogram(g[i]!).add(asDouble(v, this.type));
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const bins = getValue(buffers[0]!, i) as { x: number; y: number }[] | null;
      if (bins !== null)
        this.histogram(g[i]!).merge(
          bins.map((b) => b.x),
          bins.map((b) => b.y),
        );
    }
  }
  buffers(n: number): Vector[] {
    const bins = this.groups.slice(0, n).map((h) => (h === null ? null : h.xs.map((x, i) => ({ x, y: h.ys[i]! }))));
    return [vectorFromValues(ArrayOf(StructOf([field("x", DoubleType), field("y", DoubleType)])), bins)];
  }
  evaluate(n: number): Vector {
    const out = this.groups
      .slice(0, n)
      .map((h) => (h === null ? null : h.xs.map((x, i) => ({ x: fromDoubleAs(x, this.type), y: h.ys[i]! }))));
    return vectorFromValues(resultType(this.type), out);
  }
}

function resultType(t: DataType): DataType {
  return ArrayOf(StructOf([field("x", t), field("y", DoubleType)]));
}

const NUMERIC_LIKE = new Set(["tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "date", "timestamp"]);

const histogramNumeric: AggregateFunction = {
  kind: "aggregate",
  name: "histogram_numeric",
  resolve(args, types, call) {
    checkArity("histogram_numeric", args, 2);
    const t = NUMERIC_LIKE.has(types[0]!.kind) ? types[0]! : DoubleType;
    const nb = args[1]!;
    const value = nb.kind === "literal" ? Number(nb.value) : Number.NaN;
    if (nb.kind === "literal" && typeof nb.value === "number" && !(value >= 2)) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
        `[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The nb must be between [2, 2147483647] (current value = ${value}).`,
      );
    }
    return { args: [castTo(args[0]!, types[0]!, t), castTo(nb, types[1]!, IntegerType)], type: resultType(t) };
  },
  bufferTypes: () => [ArrayOf(StructOf([field("x", DoubleType), field("y", DoubleType)]))],
  create: (types, _r, _d, literals) => new HistogramAcc(types[0]!, Number(literals[1])),
};

register(histogramNumeric);
