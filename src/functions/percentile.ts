/**
 * Exact percentiles: percentile(col, p [, frequency]) with p a literal in [0, 1] or an array of
 * them, and median(col) = percentile(col, 0.5) (Spark's Percentile). The values are ranked and
 * the result interpolated linearly between the two neighbours of position p × (n − 1), each value
 * counted `frequency` times (an INTEGRAL column or literal; 0 or NULL skips the row, a negative
 * one is an error, as Spark's). The buffer is the group's values as an ARRAY<DOUBLE> (and with a
 * frequency their counts as a second one), so partial buffers (streaming state) merge by adding
 * them. (DISTINCT: execution/aggregation.ts hands each distinct argument tuple once.)
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { keyDirections, withinGroupMissing } from "../plan/within-group.js";
import { ArrayOf, type DataType, DoubleType, isIntegral, isNumeric } from "../types/datatypes.js";
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

/**
 * The value of rank ceil(n × p) (1-based; the first for p = 0) of the sorted values: Spark's
 * percentile_disc, the smallest value whose cumulative distribution reaches p.
 */
export function discretePercentileOf(sorted: readonly number[], p: number): number {
  return sorted[Math.max(Math.ceil(sorted.length * p) - 1, 0)]!;
}

/** Java's Double ordering as Spark sorts: NaN above every number, -0 equal to 0. */
const byDouble = (a: number, b: number) => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a - b);

interface PercentileShape {
  /** The argument holding the values (percentile_cont's and percentile_disc's ordering key is their second). */
  readonly at: number;
  /** percentile_disc: a value of the group, not an interpolation. */
  readonly discrete: boolean;
  /** WITHIN GROUP (ORDER BY x DESC): ranks counted from the largest value. */
  readonly descending: boolean;
}

class PercentileAcc implements Accumulator {
  lists: number[][] = [];
  /** With a frequency: each value's count (parallel to `lists`). */
  counts: number[][] | null;
  constructor(
    private readonly percentages: number | readonly number[],
    private readonly shape: PercentileShape = { at: 0, discrete: false, descending: false },
    weighted = false,
  ) {
    this.counts = weighted ? [] : null;
  }
  resize(n: number): void {
    while (this.lists.length < n) {
      this.lists.push([]);
      this.counts?.push([]);
    }
  }
  /** Counts value x `count` times in group gid. */
  private add(gid: number, x: number, count: number): void {
    this.lists[gid]!.push(x);
    if (this.counts !== null) this.counts[gid]!.push(count);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[this.shape.at]!;
    const x = v.values as Float64Array;
    const f = this.counts === null ? null : input[2]!;
    for (let i = 0; i < n; i++) {
      if (v.validity !== null && v.validity[i] === 0) continue;
      if (f === null) {
        this.add(g[i]!, x[i]!, 1);
        continue;
      }
      if (f.validity !== null && f.validity[i] === 0) continue;
      const count = Number(f.values[i]);
      if (count < 0) {
        throw new ArusError(
          "NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION",
          `[NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION] Found the negative value in "frequency": ${count}L, but expected a positive integral value.`,
        );
      }
      if (count > 0) this.add(g[i]!, x[i]!, count);
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const xs = (getValue(buffers[0]!, i) as number[] | null) ?? [];
      const cs = this.counts === null ? null : ((getValue(buffers[1]!, i) as number[] | null) ?? []);
      for (let j = 0; j < xs.length; j++) this.add(g[i]!, xs[j]!, cs === null ? 1 : cs[j]!);
    }
  }
  buffers(n: number): Vector[] {
    const values = vectorFromValues(ArrayOf(DoubleType), this.lists.slice(0, n));
    return this.counts === null ? [values] : [values, vectorFromValues(ArrayOf(DoubleType), this.counts.slice(0, n))];
  }
  evaluate(n: number): Vector {
    const p = this.percentages;
    const { discrete, descending } = this.shape;
    const at = discrete ? discretePercentileOf : percentileOf;
    const out = this.lists.slice(0, n).map((list, gid) => {
      if (this.counts !== null) return weightedPercentiles(list, this.counts[gid]!, p);
      if (list.length === 0) return null;
      const sorted = [...list].sort(byDouble);
      if (descending) sorted.reverse();
      return typeof p === "number" ? at(sorted, p) : p.map((q) => at(sorted, q));
    });
    return vectorFromValues(typeof p === "number" ? DoubleType : ArrayOf(DoubleType, false), out);
  }
}

/**
 * percentile with a frequency: the values ranked with each counted its number of times (without
 * writing them out: a count may be in the billions), interpolated as `percentileOf` does; NULL
 * when nothing was counted.
 */
function weightedPercentiles(
  values: readonly number[],
  counts: readonly number[],
  p: number | readonly number[],
): number | number[] | null {
  const order = values.map((_, i) => i).sort((a, b) => byDouble(values[a]!, values[b]!));
  const cumulative: number[] = [];
  let total = 0;
  for (const i of order) {
    total += counts[i]!;
    cumulative.push(total);
  }
  if (total === 0) return null;
  /** The value of rank r (0-based) among the counted values. */
  const ranked = (r: number): number => {
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > r) hi = mid;
      else lo = mid + 1;
    }
    return values[order[lo]!]!;
  };
  const at = (q: number): number => {
    const position = (total - 1) * q;
    const lower = Math.floor(position);
    const higher = Math.ceil(position);
    const lo = ranked(lower);
    const hi = ranked(higher);
    return higher === lower ? lo : lo + (position - lower) * (hi - lo);
  };
  return typeof p === "number" ? at(p) : p.map(at);
}

/** `percentile(v, 1.5, 1)`, `percentile_cont(v, 1.5)`: how Spark names the call in its percentage errors. */
type CallText = () => string;

function mismatch(name: CallText, sub: string, detail: string): AnalysisException {
  return new AnalysisException(
    `DATATYPE_MISMATCH.${sub}`,
    `[DATATYPE_MISMATCH.${sub}] Cannot resolve "${name()}" due to data type mismatch: ${detail}`,
  );
}

/** A double as Scala's SQL text writes it in these messages: `1.5D`, `0.0D`. */
const doubleText = (x: number) => `${Number.isInteger(x) ? x.toFixed(1) : String(x)}D`;

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

/** The literal percentage(s) of `arg`, checked to lie in [0, 1]. */
function percentages(name: CallText, arg: Expr | undefined): number | number[] {
  const value = constantValue(arg);
  if (value === undefined) {
    throw mismatch(
      name,
      "NON_FOLDABLE_INPUT",
      `the input \`percentage\` should be a foldable "DOUBLE" expression; however, got "${arg ? exprToSql(arg) : ""}".`,
    );
  }
  if (value === null) throw mismatch(name, "UNEXPECTED_NULL", "The percentage must not be null.");
  const list = value as number | number[];
  const all = Array.isArray(list) ? list : [list];
  if (all.some((p) => !(p >= 0 && p <= 1))) {
    throw mismatch(
      name,
      "VALUE_OUT_OF_RANGE",
      `The percentage must be between [0.0, 1.0] (current value = ${all.map(doubleText).join(",")}).`,
    );
  }
  return list;
}

/** The percentage literal's value(s) as numbers (constant folding has made it a literal by now); a list when the result is an array. */
function literalPercentages(raw: unknown, t: DataType, resultType: DataType): number | number[] {
  const p = Array.isArray(raw) ? raw.map((v) => toNumber(v, t.kind === "array" ? t.elementType : t)) : toNumber(raw, t);
  return resultType.kind === "array" && !Array.isArray(p) ? [p] : p;
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
    if (args.length !== 3) checkArity("percentile", args, 2);
    const p = percentages(
      () => `percentile(${exprToSql(args[0]!)}, ${exprToSql(args[1]!)}, ${args[2] ? exprToSql(args[2]) : "1"})`,
      args[1],
    );
    const type = typeof p === "number" ? DoubleType : ArrayOf(DoubleType, false);
    const value = valueArg(args, types, call);
    if (args.length === 2) return { args: [value, args[1]!], type };
    const f = types[2]!;
    if (!isIntegral(f) && f.kind !== "null") throw typeMismatch(call, 2, '"INTEGRAL"', args[2]!, f);
    return { args: [value, args[1]!, args[2]!], type };
  },
  bufferTypes: (types) => (types.length === 3 ? [ArrayOf(DoubleType), ArrayOf(DoubleType)] : [ArrayOf(DoubleType)]),
  create: (types, resultType, _d, literals) =>
    new PercentileAcc(literalPercentages(literals[1], types[1]!, resultType), undefined, types.length === 3),
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

/**
 * percentile_cont(p) / percentile_disc(p) WITHIN GROUP (ORDER BY x [DESC]): the parser gives the
 * call as (p, x, directions) (plan/within-group.ts). percentile_cont is percentile(x, p) counted
 * from the chosen end; percentile_disc takes the value of rank ceil(n × p) instead of
 * interpolating (spark.sql.legacy.percentileDiscCalculation = false, Spark 4's default).
 */
function inverseDistribution(name: "percentile_cont" | "percentile_disc"): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      if (call.kind !== "call" || call.withinGroup !== 1 || args.length !== 3) throw withinGroupMissing(name);
      const p = percentages(() => `${name}(${exprToSql(args[1]!)}, ${exprToSql(args[0]!)})`, args[0]);
      const value = valueArg([args[1]!], [types[1]!], call);
      return { args: [args[0]!, value, args[2]!], type: typeof p === "number" ? DoubleType : ArrayOf(DoubleType, false) };
    },
    bufferTypes: () => [ArrayOf(DoubleType)],
    create: (types, resultType, _d, literals) => {
      const descending = keyDirections(literals[2])[0]?.ascending === false;
      const shape = { at: 1, discrete: name === "percentile_disc", descending };
      return new PercentileAcc(literalPercentages(literals[0], types[0]!, resultType), shape);
    },
  };
}

register(percentile, median, inverseDistribution("percentile_cont"), inverseDistribution("percentile_disc"));
