/**
 * ColumnPruning: file scans read only the columns the query uses (projection push-down).
 * Walks the plan top-down carrying the set of attribute ids still needed.
 */

import { outputOf } from "../analyzer/types.js";
import { collectAttributes, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, Plans, planChildren, withPlanChildren } from "../plan/logical.js";
import type { Rule } from "./rule.js";

function idsOf(exprs: readonly Expr[]): Set<number> {
  const s = new Set<number>();
  for (const e of exprs) for (const a of collectAttributes(e)) s.add(a.exprId);
  return s;
}

function prune(p: LogicalPlan, needed: Set<number> | null): LogicalPlan {
  switch (p.kind) {
    case "fileRelation": {
      if (!needed || p.format === "text") return p;
      const keep = p.output.filter((a) => needed.has(a.exprId));
      if (keep.length === p.output.length || keep.length === 0) return p;
      return Plans.fileRelation(p.format, p.paths, { ...p.options }, keep);
    }
    case "project":
      return Plans.project(p.projectList, prune(p.child, idsOf(p.projectList)));
    case "filter": {
      if (!needed) return withPlanChildren(p, [prune(p.child, null)]);
      const n = new Set([...needed, ...idsOf([p.condition])]);
      return Plans.filter(p.condition, prune(p.child, n));
    }
    case "aggregate":
      return Plans.aggregate(p.groupingExprs, p.aggregateExprs, prune(p.child, idsOf([...p.groupingExprs, ...p.aggregateExprs])));
    default:
      // Other nodes keep all their children's columns.
      return withPlanChildren(
        p,
        planChildren(p).map((c) => prune(c, null)),
      );
  }
}

export const pruneColumns: Rule = {
  name: "ColumnPruning",
  apply: (plan) => prune(plan, new Set(outputOf(plan).map((a) => a.exprId))),
};
