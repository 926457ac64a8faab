/**
 * Spark's SimplifyConditionals, the case that changes what a scan can take: a CASE (or IF) whose
 * every branch gives the same value as its ELSE, under deterministic conditions, is that value
 * (`CASE WHEN k = 'b' THEN v ELSE v END = 1` is `v = 1`, which the scan filters, and which infers
 * isnotnull(v)).
 */
import { type Expr, transformUp } from "../plan/expressions.js";
import { semanticKey } from "../plan/semantic.js";
import { isVolatile } from "../plan/volatile.js";
import { transformPlanExpressions } from "./plan-expressions.js";
import type { Rule } from "./rule.js";

function simplify(e: Expr): Expr {
  if (e.kind !== "caseWhen" || e.filterMask || e.otherwise === null) return e;
  const value = semanticKey(e.otherwise);
  const same = e.branches.every(([cond, then]) => !isVolatile(cond) && semanticKey(then) === value);
  return same ? e.otherwise : e;
}

export const simplifyConditionals: Rule = {
  name: "SimplifyConditionals",
  apply: (plan) => transformPlanExpressions(plan, (e) => transformUp(e, simplify)),
};
