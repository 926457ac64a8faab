/**
 * Spark's PushPredicateThroughNonJoin for Union and Aggregate. The deterministic conjuncts of a
 * filter above a union go into every input (its columns renamed to that input's, by position), so
 * each scan can take them: `df.union(df).filter(k = 'a')` reads only the `a` rows twice, and only
 * they are numInputRows. Above an aggregate, a conjunct that reads grouping columns only (aliases
 * of grouping expressions substituted) filters the rows before they are grouped: the other groups
 * never reach the state store of a streaming aggregation, as in Spark. Non-deterministic
 * conjuncts stay above both (which rows and in which order they see would change).
 */

import { outputOf } from "../analyzer/types.js";
import { isAggregateCall } from "../functions/typing.js";
import { anyExpr, collectAttributes, conjunction, conjuncts, type Expr, transformUp } from "../plan/expressions.js";
import { type Aggregate, type LogicalPlan, Plans, type Union, withPlanChildren } from "../plan/logical.js";
import { isNonDeterministic as isVolatile } from "./volatile.js";

type Push = (p: LogicalPlan) => LogicalPlan;

function rewrite(e: Expr, map: ReadonlyMap<number, Expr>): Expr {
  return transformUp(e, (x) => (x.kind === "attribute" && map.has(x.exprId) ? map.get(x.exprId)! : x));
}

function above(stay: readonly Expr[], plan: LogicalPlan): LogicalPlan {
  return stay.length ? Plans.filter(conjunction(stay), plan) : plan;
}

export function pushThroughUnion(condition: Expr, union: Union, push: Push): LogicalPlan {
  const below = conjuncts(condition).filter((c) => !isVolatile(c));
  const stay = conjuncts(condition).filter((c) => isVolatile(c));
  if (!below.length) return Plans.filter(condition, union);
  const out = outputOf(union);
  const inputs = union.children.map((input) => {
    const own = outputOf(input);
    const byPosition = new Map(out.map((a, i) => [a.exprId, own[i]! as Expr]));
    return push(Plans.filter(rewrite(conjunction(below), byPosition), input));
  });
  return above(stay, withPlanChildren(union, inputs));
}

export function pushThroughAggregate(condition: Expr, agg: Aggregate, push: Push): LogicalPlan {
  // Spark's guards: no grouping (a global aggregate) or a non-deterministic output pushes nothing.
  if (!agg.groupingExprs.length || agg.aggregateExprs.some(isVolatile)) return Plans.filter(condition, agg);
  const aliases = new Map<number, Expr>();
  for (const e of agg.aggregateExprs) if (e.kind === "alias" && !anyExpr(e.child, isAggregateCall)) aliases.set(e.exprId, e.child);
  const inputIds = new Set(outputOf(agg.child).map((a) => a.exprId));
  const pushable = (c: Expr) => {
    // Also a conjunct on a session_window column: Spark filters each row's own session (start =
    // its time) before the sessions merge, as PySpark 4.3's plan shows, and arus does the same.
    return collectAttributes(c).length > 0 && !isVolatile(c) && collectAttributes(rewrite(c, aliases)).every((a) => inputIds.has(a.exprId));
  };
  const below = conjuncts(condition).filter(pushable);
  if (!below.length) return Plans.filter(condition, agg);
  const stay = conjuncts(condition).filter((c) => !below.includes(c));
  const filtered = push(Plans.filter(rewrite(conjunction(below), aliases), agg.child));
  return above(stay, withPlanChildren(agg, [filtered]));
}
