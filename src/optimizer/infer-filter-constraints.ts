/**
 * InferFiltersFromConstraints for filters (Spark's rule; join conditions are in infer-join-filters.ts):
 * a condition built only of null-intolerant expressions over a column (`length(k) > 1`,
 * `k <> 'a'`, `v + 1 = 3`) is false or NULL whenever that column is NULL, so Spark adds
 * `isnotnull(column)` in front of it; `isnotnull(length(k))` gives `isnotnull(k)` likewise
 * (which expressions count: null-intolerant.ts). The added test is what file scans can take: Spark pushes
 * it into the json/csv readers (explain shows `IsNotNull(k)` among the PushedFilters), which
 * changes what `numInputRows` counts. Non-deterministic conjuncts infer nothing.
 */

import { type Attribute, call, conjunction, conjuncts, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, Plans, transformPlanUp } from "../plan/logical.js";
import { isVolatile } from "../plan/volatile.js";
import { notNullColumnsOf } from "./null-intolerant.js";
import type { Rule } from "./rule.js";

/** Ids of the attributes a plan's constraints already hold non-NULL (filters below it, through unary nodes). */
function knownNotNull(p: LogicalPlan, out = new Set<number>()): Set<number> {
  switch (p.kind) {
    case "filter":
      for (const c of conjuncts(p.condition)) {
        if (isVolatile(c)) continue;
        for (const a of notNullColumnsOf(c)) out.add(a.exprId);
      }
      return knownNotNull(p.child, out);
    case "watermark":
    case "subqueryAlias":
    case "project":
    case "limit":
    case "sort":
      return knownNotNull(p.child, out);
    default:
      return out;
  }
}

export const inferFilterConstraints: Rule = {
  name: "InferFiltersFromConstraints.filter",
  apply: (plan) =>
    transformPlanUp(plan, (p) => {
      if (p.kind !== "filter") return p;
      const below = knownNotNull(p.child);
      const own = new Set<number>();
      for (const c of conjuncts(p.condition)) {
        if (c.kind === "call" && c.name === "isnotnull" && c.args[0]!.kind === "attribute") own.add(c.args[0]!.exprId);
      }
      const added: Attribute[] = [];
      for (const c of conjuncts(p.condition)) {
        if (isVolatile(c)) continue;
        for (const a of notNullColumnsOf(c)) {
          if (!a.nullable || below.has(a.exprId) || own.has(a.exprId) || added.some((b) => b.exprId === a.exprId)) continue;
          added.push(a);
        }
      }
      if (!added.length) return p;
      const tests = added.map((a) => call("isnotnull", [a]) as Expr);
      return Plans.filter(conjunction([...tests, p.condition]), p.child);
    }),
};
