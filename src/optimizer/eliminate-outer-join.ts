/**
 * Spark's EliminateOuterJoin: a filter right above an outer join that no row padded with NULLs
 * on one side can pass (`lt IS NOT NULL`, `v > 2` over that side's columns; window(lt) adds the
 * first) makes that side's padding pointless, so the join becomes the narrower one: a full outer
 * join a left / right outer or an inner join, a left / right outer join an inner one. Later
 * rules then filter the side that must now match (isnotnull of its keys), so, as in Spark, a
 * stream-stream join neither stores nor waits on rows that could only have come out padded.
 */
import { outputOf } from "../analyzer/types.js";
import { collectAttributes, conjuncts, type Expr } from "../plan/expressions.js";
import { type JoinType, type LogicalPlan, Plans, transformPlanUp } from "../plan/logical.js";
import { isVolatile } from "../plan/volatile.js";
import { notNullColumnsOf } from "./null-intolerant.js";
import type { Rule } from "./rule.js";

/** Does `c`, over the columns `ids` only, reject a row whose columns there are all NULL (Spark's canFilterOutNull)? */
function rejectsNullRow(c: Expr, ids: ReadonlySet<number>): boolean {
  const refs = collectAttributes(c);
  return !isVolatile(c) && refs.length > 0 && refs.every((a) => ids.has(a.exprId)) && notNullColumnsOf(c).length > 0;
}

function narrowed(joinType: JoinType, leftRejects: boolean, rightRejects: boolean): JoinType {
  if (joinType === "right_outer" && leftRejects) return "inner";
  if (joinType === "left_outer" && rightRejects) return "inner";
  if (joinType === "full_outer") {
    if (leftRejects && rightRejects) return "inner";
    if (leftRejects) return "left_outer";
    if (rightRejects) return "right_outer";
  }
  return joinType;
}

const ids = (p: LogicalPlan) => new Set(outputOf(p).map((a) => a.exprId));

export const eliminateOuterJoin: Rule = {
  name: "EliminateOuterJoin",
  apply: (plan) =>
    transformPlanUp(plan, (p) => {
      if (p.kind !== "filter" || p.child.kind !== "join") return p;
      const j = p.child;
      if (j.usingColumns || (j.joinType !== "left_outer" && j.joinType !== "right_outer" && j.joinType !== "full_outer")) return p;
      const cs = conjuncts(p.condition);
      const leftIds = ids(j.left);
      const rightIds = ids(j.right);
      const joinType = narrowed(
        j.joinType,
        cs.some((c) => rejectsNullRow(c, leftIds)),
        cs.some((c) => rejectsNullRow(c, rightIds)),
      );
      if (joinType === j.joinType) return p;
      return Plans.filter(
        p.condition,
        Plans.join(j.left, j.right, joinType, j.condition, null, j.natural === true, j.hiddenUsingKeys === true),
      );
    }),
};
