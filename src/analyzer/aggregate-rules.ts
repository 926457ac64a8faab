/**
 * Aggregation rules: which calls are aggregates, Spark's MISSING_GROUP_BY / MISSING_AGGREGATION checks, and
 * HAVING / ORDER BY clauses that mention aggregates the SELECT list does not have (they are
 * added to the Aggregate as hidden columns and projected away afterwards).
 */
import { AnalysisException } from "../common/errors.js";
import { isAggregateCall, outputOf, toAttribute } from "../functions/typing.js";
import { type Attribute, alias, type Expr, exprChildren, transformDown } from "../plan/expressions.js";
import { type Aggregate, type LogicalPlan, Plans } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { exprToSql } from "../plan/sql-text.js";
import { expandedGroupingColumns } from "./grouping-sets.js";

export { isAggregateCall } from "../functions/typing.js";

/** Every column in the SELECT list must be grouped or inside an aggregate function. */
export function checkAggregate(agg: Aggregate): void {
  const groupKeys = new Set(agg.groupingExprs.map(semanticKey));
  const visit = (e: Expr, top: Expr): void => {
    if (groupKeys.has(semanticKey(e))) return;
    if (isAggregateCall(e)) {
      for (const a of exprChildren(e)) {
        if (anyAggregate(a)) {
          throw new AnalysisException(
            "NESTED_AGGREGATE_FUNCTION",
            `[NESTED_AGGREGATE_FUNCTION] It is not allowed to use an aggregate function in the argument of another aggregate function. Please use the inner aggregate function in a sub-query.`,
          );
        }
      }
      return;
    }
    if (e.kind === "attribute") {
      if (agg.groupingExprs.length === 0 && !agg.groupingSets) {
        throw new AnalysisException(
          "MISSING_GROUP_BY",
          "[MISSING_GROUP_BY] The query does not include a GROUP BY clause. Add GROUP BY or turn it into the window functions using OVER clauses.",
        );
      }
      throw new AnalysisException(
        "MISSING_AGGREGATION",
        `[MISSING_AGGREGATION] The non-aggregating expression "${e.name}" is based on columns which are not participating in the GROUP BY clause.\n` +
          `Add the columns or the expression to the GROUP BY, aggregate the expression, or use "any_value(${e.name})" if you do not care which of the values within a group is returned. (in "${exprToSql(top)}")`,
      );
    }
    for (const c of exprChildren(e)) visit(c, top);
  };
  for (const e of agg.aggregateExprs) visit(e.kind === "alias" ? e.child : e, e);
}

function anyAggregate(e: Expr): boolean {
  return isAggregateCall(e) || exprChildren(e).some(anyAggregate);
}

/**
 * Resolve `exprs` (a HAVING condition or ORDER BY keys) above `agg`: names bind to the
 * aggregate's output first, then to its input; aggregate calls and grouping expressions not
 * in the output become hidden output columns.
 */
export function resolveHiddenAggregates<T extends Expr>(
  agg: Aggregate,
  exprs: readonly T[],
  build: (agg: LogicalPlan, resolved: Expr[]) => LogicalPlan,
  resolveExpr: (e: Expr, input: readonly Attribute[]) => Expr,
  /** Columns `build` joins beside the aggregate (a HAVING's scalar subqueries): read as they are. */
  beside: readonly Attribute[] = [],
): LogicalPlan {
  const visible = [...outputOf(agg), ...beside];
  const below = outputOf(agg.child);
  const byKey = new Map<string, Attribute>();
  agg.aggregateExprs.forEach((e, i) => {
    byKey.set(semanticKey(e), visible[i]!);
  });
  const groupKeys = new Set(agg.groupingExprs.map(semanticKey));
  const expanded = expandedGroupingColumns(agg);
  const hidden: Expr[] = [];
  const resolved = exprs.map((e) => {
    let r: Expr;
    try {
      r = resolveExpr(e, visible);
    } catch {
      r = resolveExpr(e, [...visible, ...below]);
    }
    return transformDown(r, (e) => {
      if (e.kind === "attribute" && visible.some((v) => v.exprId === e.exprId)) return e;
      // ROLLUP(upper(g)): `upper(g)` above it is the column the grouping sets null
      const x = (e.kind === "attribute" ? undefined : expanded.get(semanticKey(e))) ?? e;
      const key = semanticKey(x);
      // A grouping expression (`ORDER BY upper(g)` over `GROUP BY upper(g)`) reads its output column.
      if (!isAggregateCall(x) && x.kind !== "attribute" && !groupKeys.has(key)) return x;
      let attr = byKey.get(key);
      if (!attr) {
        const a = alias(x, exprToSql(x));
        hidden.push(a);
        attr = toAttribute(a);
        byKey.set(key, attr);
      }
      return attr;
    });
  });
  const widened = Plans.aggregate(agg.groupingExprs, [...agg.aggregateExprs, ...hidden], agg.child);
  checkAggregate(widened);
  const top = build(widened, resolved);
  return hidden.length ? Plans.project(outputOf(agg), top) : top;
}
