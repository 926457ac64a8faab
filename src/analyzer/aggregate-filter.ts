/**
 * The checks Spark's FunctionResolution makes of `agg(args) FILTER (WHERE cond)` (the parser
 * masks the arguments by cond: plan/expressions.ts filteredAggregate): the function must be an
 * aggregate, and cond a deterministic BOOLEAN without aggregates. first / last / any_value
 * count a NULL argument unless told IGNORE NULLS, so a masked row would count for them: arus
 * refuses those rather than answer differently from Spark.
 */
import { AnalysisException } from "../common/errors.js";
import { isAggregateCall, typeOf } from "../functions/typing.js";
import { anyExpr, type Call, type CaseWhen, type Expr, exprChildren } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";

const NON_DETERMINISTIC = new Set([
  "rand",
  "randn",
  "random",
  "uniform",
  "uuid",
  "shuffle",
  "monotonically_increasing_id",
  "__poisson_sample",
]);
const RESPECTS_NULLS = new Set(["first", "first_value", "last", "last_value", "any_value"]);

const invalid = (what: string, cond: Expr, detail: string) =>
  new AnalysisException(
    `INVALID_AGGREGATE_FILTER.${what}`,
    `[INVALID_AGGREGATE_FILTER.${what}] The FILTER expression "${exprToSql(cond)}" in an aggregate function is invalid. ${detail}`,
  );

/** The condition of a masked argument (resolved), checked as Spark checks a FILTER expression. */
export function checkFilterCondition(mask: CaseWhen): void {
  const cond = mask.branches[0]![0];
  const t = typeOf(cond);
  // a NULL literal (VOID) too, as in Spark
  if (t.kind !== "boolean") throw invalid("NOT_BOOLEAN", cond, "Expected a FILTER expression of the BOOLEAN type.");
  const agg = firstAggregate(cond);
  if (agg) throw invalid("CONTAINS_AGGREGATE", cond, `Expected a FILTER expression without an aggregation, but found "${exprToSql(agg)}".`);
  if (anyExpr(cond, (x) => x.kind === "call" && NON_DETERMINISTIC.has(x.name))) {
    throw invalid("NON_DETERMINISTIC", cond, "Expected a deterministic FILTER expression.");
  }
}

function firstAggregate(e: Expr): Expr | null {
  if (isAggregateCall(e)) return e;
  for (const c of exprChildren(e)) {
    const found = firstAggregate(c);
    if (found) return found;
  }
  return null;
}

/** A call with a FILTER clause: an aggregate that ignores NULL arguments. */
export function checkFilteredCall(e: Call, isAggregate: boolean): void {
  if (!isAggregate) {
    throw new AnalysisException(
      "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
      `[INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX] Invalid SQL syntax: The function \`${e.name}\` does not support FILTER CLAUSE.`,
    );
  }
  const ignoreNulls = e.args[1]?.kind === "literal" && e.args[1].value === true;
  if (RESPECTS_NULLS.has(e.name) && !ignoreNulls) {
    throw new AnalysisException(
      "UNSUPPORTED_FEATURE",
      `[UNSUPPORTED_FEATURE] ${e.name}(...) FILTER (WHERE ...) is supported with IGNORE NULLS only in arus (${e.name}(x) FILTER (WHERE ...) IGNORE NULLS), or filter the rows before the aggregation.`,
    );
  }
}
