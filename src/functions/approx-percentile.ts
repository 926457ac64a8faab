/**
 * percentile_approx / approx_percentile(col, percentage[, accuracy = 10000]): the value of rank
 * ceil(p × n) among the group's sorted non-NULL values (the smallest for p ≤ 1 / accuracy, the
 * largest for p ≥ 1 − 1 / accuracy), in the column's own type. That is exactly what Spark's
 * GK sketch answers while it holds every value, i.e. for groups of fewer than accuracy / 2
 * values; for larger groups Spark's answer is approximate (within its error bound) and may pick
 * a neighbouring value. The buffer is the group's values, so partial buffers merge by appending.
 */
import { type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, type DataType, isNumeric } from "../types/datatypes.js";
import { Decimal } from "../types/decimal-value.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { compareValues } from "./predicates.js";
import { type AggregateFunction, checkArity, register, typeMismatch } from "./registry.js";

class ApproxPercentileAcc extends CollectListAcc {
  constructor(
    private readonly valueType: DataType,
    private readonly percentages: number | readonly number[],
    private readonly accuracy: number,
  ) {
    super(ArrayOf(valueType));
  }
  private pick(sorted: readonly unknown[], q: number): unknown {
    const eps = 1 / this.accuracy;
    if (q <= eps) return sorted[0];
    if (q >= 1 - eps) return sorted[sorted.length - 1];
    const rank = Math.ceil(q * sorted.length);
    return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
  }
  override evaluate(n: number): Vector {
    const p = this.percentages;
    const out = this.lists.slice(0, n).map((list) => {
      if (list.length === 0) return null;
      const sorted = [...list].sort(compareValues);
      return typeof p === "number" ? this.pick(sorted, p) : p.map((q) => this.pick(sorted, q));
    });
    return vectorFromValues(typeof p === "number" ? this.valueType : ArrayOf(this.valueType, false), out);
  }
  override buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(this.valueType), this.lists.slice(0, n))];
  }
}

function numberOf(v: unknown, t: DataType): number {
  if (v instanceof Decimal) return v.toNumber();
  if (t.kind === "decimal") return Number(v) / 10 ** t.scale;
  return Number(v);
}

/** A literal percentage, array(...) of them, or a cast of one. */
function constant(e: Expr | undefined): unknown {
  if (e === undefined) return undefined;
  if (e.kind === "literal") {
    const t = e.type;
    if (Array.isArray(e.value)) return e.value.map((v) => numberOf(v, t.kind === "array" ? t.elementType : t));
    return e.value === null ? null : numberOf(e.value, t);
  }
  if (e.kind === "cast") return constant(e.child);
  if (e.kind === "call" && e.name === "array") {
    const items = e.args.map(constant);
    return items.some((x) => x === undefined) ? undefined : items;
  }
  return undefined;
}

function mismatch(call: Expr, cls: string, detail: string): AnalysisException {
  return new AnalysisException(
    `DATATYPE_MISMATCH.${cls}`,
    `[DATATYPE_MISMATCH.${cls}] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ${detail}`,
  );
}

function approxPercentile(name: string): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2, 3);
      const t = types[0]!;
      if (!isNumeric(t) && t.kind !== "date" && t.kind !== "timestamp" && t.kind !== "interval") {
        throw typeMismatch(call, 0, '("NUMERIC" or "DATE" or "TIMESTAMP" or "INTERVAL")', args[0]!, t);
      }
      const p = constant(args[1]);
      if (p === undefined || p === null) throw mismatch(call, "NON_FOLDABLE_INPUT", "the percentage must be a literal.");
      for (const q of Array.isArray(p) ? p : [p]) {
        if (!(q >= 0 && q <= 1)) {
          throw mismatch(call, "VALUE_OUT_OF_RANGE", `The percentage must be between [0.0, 1.0] (current value = ${q}D).`);
        }
      }
      const accuracy = args[2] === undefined ? 10000 : Number(constant(args[2]));
      if (!(accuracy > 0 && accuracy <= 2147483647)) {
        throw mismatch(call, "VALUE_OUT_OF_RANGE", `The accuracy must be between (0, 2147483647] (current value = ${accuracy}).`);
      }
      return { args: [...args], type: Array.isArray(p) ? ArrayOf(t, false) : t };
    },
    bufferTypes: (types) => [ArrayOf(types[0]!)],
    create: (types, resultType, _d, literals) => {
      const raw = literals[1];
      const pt = types[1]!;
      const p = Array.isArray(raw) ? raw.map((v) => numberOf(v, pt.kind === "array" ? pt.elementType : pt)) : numberOf(raw, pt);
      const accuracy = literals[2] === undefined ? 10000 : numberOf(literals[2], types[2]!);
      return new ApproxPercentileAcc(types[0]!, resultType.kind === "array" && !Array.isArray(p) ? [p] : p, accuracy);
    },
  };
}

register(approxPercentile("percentile_approx"), approxPercentile("approx_percentile"));
