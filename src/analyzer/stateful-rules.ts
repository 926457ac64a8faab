/**
 * Resolving groupBy(...).transformWithState / flatMapGroupsWithState / mapGroupsWithState: the
 * grouping columns (and those of an initial state, which must have the same types), and the
 * output column named by `eventTimeColumnName`, which carries the input's watermark on to a
 * chained stateful operator (Spark's UpdateEventTimeWatermarkColumn).
 */
import { AnalysisException } from "../common/errors.js";
import type { Attribute, Expr } from "../plan/expressions.js";
import { Plans, type TransformWithState } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { sqlTypeName, typesEqual } from "../types/datatypes.js";
import { outputOf, typeOf } from "./types.js";

const DELAY_KEY = "spark.watermarkDelayMs";

function groupingAttrs(exprs: readonly Expr[], input: readonly Attribute[], resolve: ResolveExpr, what: string): Attribute[] {
  return exprs.map((e) => {
    const r = resolve(e, input);
    if (r.kind !== "attribute") {
      throw new AnalysisException(
        "UNSUPPORTED_GROUPING_EXPRESSION",
        `${what} groups by columns; \`${exprToSql(r)}\` is an expression. Add it as a column first (withColumn) and group by that column.`,
      );
    }
    return r;
  });
}

type ResolveExpr = (e: Expr, input: readonly Attribute[]) => Expr;

export function resolveTransformWithState(p: TransformWithState, resolve: ResolveExpr): TransformWithState {
  const what = p.fn.kind;
  const input = outputOf(p.child);
  const groups = groupingAttrs(p.groupingExprs, input, resolve, what);
  let initialGrouping: Attribute[] = [];
  if (p.initialState) {
    initialGrouping = groupingAttrs(p.initialGrouping, outputOf(p.initialState), resolve, `${what}'s initial state`);
    const types = (as: readonly Attribute[]) => as.map((a) => sqlTypeName(typeOf(a))).join(", ");
    if (initialGrouping.length !== groups.length || initialGrouping.some((a, i) => !typesEqual(typeOf(a), typeOf(groups[i]!)))) {
      throw new AnalysisException(
        "INITIAL_STATE_GROUPING_MISMATCH",
        `${what}: the initial state is grouped by (${types(initialGrouping)}) but the input by (${types(groups)}); group both by the same key types.`,
      );
    }
  }
  let output = p.output;
  if (p.eventTimeColumnName !== null) {
    const name = p.eventTimeColumnName;
    const i = output.findIndex((a) => a.name === name);
    if (i < 0) {
      throw new AnalysisException(
        "UNRESOLVED_COLUMN",
        `${what}: eventTimeColumnName "${name}" is not a column of the output schema (${output.map((a) => a.name).join(", ")}).`,
      );
    }
    if (typeOf(output[i]!).kind !== "timestamp") {
      throw new AnalysisException(
        "EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
        `[EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE] The event time \`${name}\` has the invalid type "${sqlTypeName(typeOf(output[i]!))}", but expected "TIMESTAMP".`,
      );
    }
    const upstream = input.find((a) => a.metadata[DELAY_KEY] !== undefined);
    if (!upstream) {
      throw new AnalysisException(
        "EVENT_TIME_WITHOUT_WATERMARK",
        `${what}: eventTimeColumnName "${name}" needs a watermark on the input; call withWatermark(...) before groupBy(...).`,
      );
    }
    const delay = upstream.metadata[DELAY_KEY];
    output = output.map((a, k) => (k === i ? Object.freeze({ ...a, metadata: Object.freeze({ ...a.metadata, [DELAY_KEY]: delay }) }) : a));
  }
  return Plans.transformWithState({ ...p, groupingExprs: groups, initialGrouping, output });
}
