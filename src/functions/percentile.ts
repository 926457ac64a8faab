/**
 * Exact percentiles: percentile(col, p) with p a literal in [0, 1] or an array of them, and
 * median(col) = percentile(col, 0.5) (Spark's Percentile). The values are ranked and the result
 * interpolated linearly between the two neighbours of position p × (n − 1). The buffer is the
 * group's values as an ARRAY<DOUBLE>, so partial buffers (streaming state) merge by adding them.
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, type DataType, DoubleType, isNumeric } from "../types/datatypes.js";
import { Decimal } from "../types/decimal-value.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, typeMismatch } from "./registry.js";

/** The value at fraction p of the sorted values, interpolated as Spark's Percentile does. */
export function percentileOf(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const lower = Math.floor(position);
  const higher = Math.ceil(position);
  const lo = sorted[lower]!;
  const hi = sorted[higher]!;
  // Spark 4's form of the interpolation (the weighted sum differs in the last bit).
  return higher === lower ? lo : lo + (position - lower) * (hi - lo);
}

class PercentileAcc implements Accumulator {
  lists: number[][] = [];
  constructor(private readonly percentages: number | readonly number[]) {}
  resize(n: number): void {
    while (this.lists.length < n) this.lists.push([]);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    const x = v.values as Float64Array;
    for (let i = 0; i < n; i++) if (v.validity === null || v.validity[i] === 1) this.lists[g[i]!]!.push(x[i]!);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) for (const x of (getValue(buffers[0]!, i) as number[] | null) ?? []) this.lists[g[i]!]!.push(x);
  }
  buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(DoubleType), this.lists.slice(0, n))];
  }
  evaluate(n: number): Vector {
    const p = this.percentages;
    const out = this.lists.slice(0, n).map((list) => {
      if (list.length === 0) return null;
      // Java's Double ordering: NaN above every number.
      const sorted = [...list].sort((a, b) => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a - b));
      return typeof p === "number" ? percentileOf(sorted, p) : p.map((q) => percentileOf(sorted, q));
    });
    return vectorFromValues(typeof p === "number" ? DoubleType : ArrayOf(DoubleType, false), out);
  }
}

function badPercentage(call: Expr, detail: string): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
    `[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`percentage\` must be between [0.0, 1.0], but got ${detail}.`,
  );
}

/** A number from an internal value: a DECIMAL holds its unscaled integer (a number, or a Decimal when wide). */
function toNumber(v: unknown, t: DataType): number {
  if (v instanceof Decimal) return v.toNumber();
  if (t.kind === "decimal") return Number(v) / 10 ** t.scale;
  return Number(v);
}

/** The value of a constant percentage expression (a literal, a cast of one, or array(...) of those), else undefined. */
function constantValue(e: Expr | undefined): unknown {
  if (e === undefined) return undefined;
  if (e.kind === "literal") {
    const t = e.type;
    if (Array.isArray(e.value)) return e.value.map((v) => toNumber(v, t.kind === "array" ? t.elementType : t));
    return e.value === null ? null : toNumber(e.value, t);
  }
  if (e.kind === "cast") return constantValue(e.child);
  if (e.kind === "call" && e.name === "array") {
    const items = e.args.map(constantValue);
    return items.some((x) => x === undefined) ? undefined : items;
  }
  return undefined;
}

/** The literal percentage(s) of argument 1, checked to lie in [0, 1]. */
function percentages(call: Expr, arg: Expr | undefined): number | number[] {
  const value = constantValue(arg);
  if (value === undefined || value === null) {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
      `[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "${exprToSql(call)}": the percentage must be a literal.`,
    );
  }
  const list = value as number | number[];
  for (const p of Array.isArray(list) ? list : [list]) if (!(p >= 0 && p <= 1)) throw badPercentage(call, String(p));
  return list;
}

function valueArg(args: readonly Expr[], types: readonly DataType[], call: Expr): Expr {
  const t = types[0]!;
  if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, 0, '"NUMERIC"', args[0]!, t);
  return castTo(args[0]!, t, DoubleType);
}

const percentile: AggregateFunction = {
  kind: "aggregate",
  name: "percentile",
  resolve(args, types, call) {
    checkArity("percentile", args, 2);
    const p = percentages(call, args[1]);
    return { args: [valueArg(args, types, call), args[1]!], type: typeof p === "number" ? DoubleType : ArrayOf(DoubleType, false) };
  },
  bufferTypes: () => [ArrayOf(DoubleType)],
  create: (types, resultType, _d, literals) => {
    // Constant folding has made the percentage a literal by now.
    const raw = literals[1];
    const t = types[1]!;
    const p = Array.isArray(raw) ? raw.map((v) => toNumber(v, t.kind === "array" ? t.elementType : t)) : toNumber(raw, t);
    return new PercentileAcc(resultType.kind === "array" && !Array.isArray(p) ? [p] : p);
  },
};

const median: AggregateFunction = {
  kind: "aggregate",
  name: "median",
  resolve(args, types, call) {
    checkArity("median", args, 1);
    return { args: [valueArg(args, types, call)], type: DoubleType };
  },
  bufferTypes: () => [ArrayOf(DoubleType)],
  create: () => new PercentileAcc(0.5),
};

register(percentile, median);
