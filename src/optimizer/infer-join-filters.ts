/**
 * InferFiltersFromConstraints (join keys only): an equi-join drops rows whose key is NULL, so
 * `isnotnull(key)` can filter the side(s) that must match before the join — Spark does this,
 * and pushes the filter into json/csv readers, which changes what `numInputRows` counts.
 */

import { outputOf } from "../analyzer/types.js";
import { type Attribute, anyExpr, call, conjunction, conjuncts, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, Plans, transformPlanUp } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import type { Rule } from "./rule.js";

function withNotNull(side: LogicalPlan, attrs: Attribute[]): LogicalPlan {
  const needed = attrs.filter((a, i) => a.nullable && attrs.findIndex((b) => b.exprId === a.exprId) === i);
  if (!needed.length) return side;
  const existing = side.kind === "filter" ? new Set(conjuncts(side.condition).map(semanticKey)) : new Set<string>();
  const preds = needed.map((a) => call("isnotnull", [a])).filter((p) => !existing.has(semanticKey(p)));
  if (!preds.length) return side;
  return Plans.filter(conjunction(preds), side);
}

export const inferJoinFilters: Rule = {
  name: "InferFiltersFromConstraints",
  apply: (plan) =>
    transformPlanUp(plan, (p) => {
      if (p.kind !== "join" || !p.condition || p.usingColumns) return p;
      const jt = p.joinType;
      const leftKeys: Attribute[] = [];
      const rightKeys: Attribute[] = [];
      const leftIds = new Set(outputIds(p.left));
      for (const c of conjuncts(p.condition)) {
        if (c.kind !== "call" || c.name !== "=" || anyExpr(c, (x) => x.kind === "call" && x.name !== "=")) continue;
        const [a, b] = c.args as [Expr, Expr];
        if (a.kind !== "attribute" || b.kind !== "attribute") continue;
        const [l, r] = leftIds.has(a.exprId) ? [a, b] : [b, a];
        if (!leftIds.has(l.exprId) || leftIds.has(r.exprId)) continue;
        leftKeys.push(l);
        rightKeys.push(r);
      }
      if (!leftKeys.length) return p;
      const filterLeft = jt === "inner" || jt === "cross" || jt === "left_semi" || jt === "right_outer";
      const filterRight = jt === "inner" || jt === "cross" || jt === "left_semi" || jt === "left_outer" || jt === "existence";
      const left = filterLeft ? withNotNull(p.left, leftKeys) : p.left;
      const right = filterRight ? withNotNull(p.right, rightKeys) : p.right;
      return left === p.left && right === p.right ? p : Plans.rejoin(p, left, right, p.condition);
    }),
};

function outputIds(p: LogicalPlan): number[] {
  return outputOf(p).map((a) => a.exprId);
}
