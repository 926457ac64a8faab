/**
 * EliminateSubqueryAliases: aliases only matter for name resolution, which is over once the
 * plan is analyzed; removing them lets other rules (and scans) see through `FROM t AS x`.
 */
import { transformPlanUp } from "../plan/logical.js";
import type { Rule } from "./rule.js";

export const eliminateSubqueryAliases: Rule = {
  name: "EliminateSubqueryAliases",
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === "subqueryAlias" ? p.child : p)),
};
