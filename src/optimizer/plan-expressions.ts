/** Apply an expression rewrite to every expression held by every node of a plan. */
import type { Expr } from "../plan/expressions.js";
import { type LogicalPlan, transformPlanUp } from "../plan/logical.js";

export function transformPlanExpressions(plan: LogicalPlan, fn: (e: Expr) => Expr): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    switch (p.kind) {
      case "project":
        return { ...p, projectList: p.projectList.map(fn) };
      case "filter":
        return { ...p, condition: fn(p.condition) };
      case "aggregate":
        return { ...p, groupingExprs: p.groupingExprs.map(fn), aggregateExprs: p.aggregateExprs.map(fn) };
      case "join":
        return p.condition ? { ...p, condition: fn(p.condition) } : p;
      case "sort":
        return { ...p, orders: p.orders.map((o) => fn(o) as typeof o) };
      case "generate":
        return { ...p, generator: fn(p.generator) as typeof p.generator };
      case "expand":
        return { ...p, projections: p.projections.map((ps) => ps.map(fn)) };
      case "collectMetrics":
        return { ...p, metrics: p.metrics.map(fn) };
      default:
        return p;
    }
  });
}
