/**
 * percentile_approx / approx_percentile(col, percentage[, accuracy = 10000]): Spark's answer,
 * from Spark's own Greenwald-Khanna summary (quantile-summaries.ts) with relative error
 * 1 / accuracy, the group's values inserted in the order they arrived (as doubles, the result
 * converted back to the column's type as Spark converts it). A single-partition input gets
 * Spark's value (for groups under accuracy / 2 values that is the value of rank ceil(p × n));
 * values merged from partial buffers or across micro-batches are inserted in merge order, where
 * Spark merges summaries, so there both answers are within the error bound but may differ. The
 * buffer is the group's values, so partial buffers merge by appending.
 */
import { type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, type DataType, isNumeric } from "../types/datatypes.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { asDouble, fromDoubleAs } from "./double-values.js";
import { QuantileSummaries } from "./quantile-summaries.js";
import { type AggregateFunction, checkArity, register, typeMismatch } from "./registry.js";

class ApproxPercentileAcc extends CollectListAcc {
  constructor(
    private readonly valueType: DataType,
    private readonly percentages: number | readonly number[],
    private readonly accuracy: number,
  ) {
    super(ArrayOf(valueType));
  }
  override evaluate(n: number): Vector {
    const p = this.percentages;
    const asked = typeof p === "number" ? [p] : p;
    const out = this.lists.slice(0, n).map((list) => {
      if (list.length === 0) return null;
      const summary = new QuantileSummaries(1 / this.accuracy);
      for (const v of list) summary.insert(asDouble(v, this.valueType));
      const values = summary.query(asked)!.map((x) => fromDoubleAs(x, this.valueType));
      return typeof p === "number" ? values[0] : values;
    });
    return vectorFromValues(typeof p === "number" ? this.valueType : ArrayOf(this.valueType, false), out);
  }
  override buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(this.valueType), this.lists.slice(0, n))];
  }
}

/** A literal percentage, array(...) of them, or a cast of one. */
function constant(e: Expr | undefined): unknown {
  if (e === undefined) return undefined;
  if (e.kind === "literal") {
    const t = e.type;
    if (Array.isArray(e.value)) return e.value.map((v) => asDouble(v, t.kind === "array" ? t.elementType : t));
    return e.value === null ? null : asDouble(e.value, t);
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
      const p = Array.isArray(raw) ? raw.map((v) => asDouble(v, pt.kind === "array" ? pt.elementType : pt)) : asDouble(raw, pt);
      const accuracy = literals[2] === undefined ? 10000 : asDouble(literals[2], types[2]!);
      return new ApproxPercentileAcc(types[0]!, resultType.kind === "array" && !Array.isArray(p) ? [p] : p, accuracy);
    },
  };
}

register(approxPercentile("percentile_approx"), approxPercentile("approx_percentile"));
