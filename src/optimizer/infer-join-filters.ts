/**
 * InferFiltersFromConstraints for joins: a row with a NULL in a column that a null-intolerant
 * conjunct of the condition reads (`k = rk`, `rt >= lt`, `rt <= lt + INTERVAL 5 SECONDS`) can
 * match nothing, so `isnotnull(column)` filters the side(s) that must match before the join
 * (both for inner / semi, the other side for an outer join) — Spark does this, pushes the filter
 * into json/csv readers (which changes what `numInputRows` counts), and so never stores such a
 * row in a stream-stream join's state.
 */

import { outputOf } from "../analyzer/types.js";
import { type Attribute, call, conjunction, conjuncts } from "../plan/expressions.js";
import { type LogicalPlan, Plans, transformPlanUp } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { isVolatile } from "../plan/volatile.js";
import { notNullColumnsOf } from "./null-intolerant.js";
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
      const leftCols: Attribute[] = [];
      const rightCols: Attribute[] = [];
      const leftIds = new Set(outputIds(p.left));
      const rightIds = new Set(outputIds(p.right));
      for (const c of conjuncts(p.condition)) {
        if (isVolatile(c)) continue;
        for (const a of notNullColumnsOf(c)) {
          if (leftIds.has(a.exprId)) leftCols.push(a);
          else if (rightIds.has(a.exprId)) rightCols.push(a);
        }
      }
      if (!leftCols.length && !rightCols.length) return p;
      const filterLeft = jt === "inner" || jt === "cross" || jt === "left_semi" || jt === "right_outer";
      const filterRight = jt === "inner" || jt === "cross" || jt === "left_semi" || jt === "left_outer" || jt === "existence";
      const left = filterLeft ? withNotNull(p.left, leftCols) : p.left;
      const right = filterRight ? withNotNull(p.right, rightCols) : p.right;
      return left === p.left && right === p.right ? p : Plans.rejoin(p, left, right, p.condition);
    }),
};

function outputIds(p: LogicalPlan): number[] {
  return outputOf(p).map((a) => a.exprId);
}
