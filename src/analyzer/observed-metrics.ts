/**
 * df.observe(name, ...metrics) (Spark's CollectMetrics and its CheckAnalysis rules): every
 * metric is a literal or an expression whose columns appear only inside aggregate functions;
 * no nested aggregates, no window functions; a name names one set of metrics per query.
 */
import { AnalysisException } from "../common/errors.js";
import { isAggregateCall } from "../functions/typing.js";
import { type Attribute, alias, anyExpr, type Expr, exprChildren } from "../plan/expressions.js";
import { type CollectMetrics, type LogicalPlan, Plans, planChildren } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { exprToSql } from "../plan/sql-text.js";
import { outputOf } from "./types.js";
import { hasWindow } from "./window-rules.js";

const invalid = (what: string, detail: string) =>
  new AnalysisException(`INVALID_OBSERVED_METRICS.${what}`, `[INVALID_OBSERVED_METRICS.${what}] Invalid observed metrics. ${detail}`);

export function resolveCollectMetrics(p: CollectMetrics, resolveExpr: (e: Expr, input: readonly Attribute[]) => Expr): LogicalPlan {
  if (p.name === "")
    throw invalid("MISSING_NAME", `The observed metrics should be named: observe(${p.metrics.map(exprToSql).join(", ")}).`);
  // PySpark's own check before Spark sees the call.
  if (p.metrics.length === 0) throw new AnalysisException("CANNOT_BE_EMPTY", "[CANNOT_BE_EMPTY] At least one column must be specified.");
  const input = outputOf(p.child);
  const metrics = p.metrics.map((m) => {
    const e = resolveExpr(m, input);
    check(e.kind === "alias" ? e.child : e);
    return e.kind === "alias" ? e : alias(e, exprToSql(e));
  });
  return Plans.collectMetrics(p.name, metrics, p.sink, p.child);
}

function check(e: Expr): void {
  if (hasWindow(e))
    throw invalid(
      "WINDOW_EXPRESSIONS_UNSUPPORTED",
      `Window expressions are not allowed in observed metrics, but found: "${exprToSql(e)}".`,
    );
  const visit = (x: Expr): void => {
    if (isAggregateCall(x)) {
      if (exprChildren(x).some((c) => anyExpr(c, isAggregateCall))) {
        throw invalid(
          "NESTED_AGGREGATES_UNSUPPORTED",
          `Nested aggregates are not allowed in observed metrics, but found: "${exprToSql(x)}".`,
        );
      }
      return;
    }
    if (x.kind === "attribute") {
      throw invalid(
        "NON_AGGREGATE_FUNC_ARG_IS_ATTRIBUTE",
        `Attribute "${x.name}" can only be used as an argument to an aggregate function.`,
      );
    }
    for (const c of exprChildren(x)) visit(c);
  };
  visit(e);
}

/** Spark's DUPLICATED_METRICS_NAME: two observations of one name in a plan must compute the same thing. */
export function checkMetricNames(plan: LogicalPlan, seen = new Map<string, string>()): void {
  if (plan.kind === "collectMetrics") {
    const key = plan.metrics.map(semanticKey).join("\u0000");
    const before = seen.get(plan.name);
    if (before !== undefined && before !== key) {
      throw new AnalysisException(
        "DUPLICATED_METRICS_NAME",
        `[DUPLICATED_METRICS_NAME] The metric name is not unique: ${plan.name}. The same name cannot be used for metrics with different results.\nHowever multiple instances of metrics with with same result and name are allowed (e.g. self-joins).`,
      );
    }
    seen.set(plan.name, key);
  }
  for (const c of planChildren(plan)) checkMetricNames(c, seen);
}
