/**
 * InferFiltersFromConstraints through equalities (Spark's inferAdditionalConstraints): from
 * `a = b` and another constraint on `a`, the same constraint holds for `b` (and the other way),
 * so `a = b AND a = 1` also gives `b = 1`, and a join `ON ad = cad AND ad < 10` filters the other
 * side with `cad < 10` too. The new conjunct is what PushDownPredicates can take to that side's
 * scan: Spark's json/csv readers then skip those rows, and they are not `numInputRows`, nor kept
 * in a stream-stream join's state. One substitution step, as Spark does (no closure).
 *
 * The constraints of a plan are taken from filters below it through the unary nodes that keep
 * their rows' columns (a subset of Spark's QueryPlanConstraints: no aliases, nothing through
 * aggregates, joins or unions); equalities only between columns of one type (Spark also
 * substitutes through a cast).
 */

import { outputOf } from "../analyzer/types.js";
import { type Attribute, collectAttributes, conjunction, conjuncts, type Expr, transformUp } from "../plan/expressions.js";
import { type Join, type LogicalPlan, Plans, transformPlanUp } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { isVolatile } from "../plan/volatile.js";
import { typesEqual } from "../types/datatypes.js";
import type { Rule } from "./rule.js";

const usable = (c: Expr) => !isVolatile(c) && !(c.kind === "call" && c.name === "isnotnull");

/** Deterministic conjuncts of the filters below `p` whose columns all reach `p`'s output. */
function constraintsOf(p: LogicalPlan): Expr[] {
  switch (p.kind) {
    case "filter":
      return [...conjuncts(p.condition).filter(usable), ...constraintsOf(p.child)];
    case "watermark":
    case "subqueryAlias":
    case "limit":
    case "sort":
      return constraintsOf(p.child);
    case "project": {
      const out = new Set(outputOf(p).map((a) => a.exprId));
      return constraintsOf(p.child).filter((c) => collectAttributes(c).every((a) => out.has(a.exprId)));
    }
    default:
      return [];
  }
}

function replace(e: Expr, from: Attribute, to: Attribute): Expr {
  return transformUp(e, (x) => (x.kind === "attribute" && x.exprId === from.exprId ? to : x));
}

/** `l = r` or `r = l` (Spark's ExpressionSet holds them as one). */
function sameEquality(c: Expr, l: Attribute, r: Attribute): boolean {
  if (c.kind !== "call" || c.name !== "=") return false;
  const ids = c.args.map((a) => (a.kind === "attribute" ? a.exprId : -1));
  return (ids[0] === l.exprId && ids[1] === r.exprId) || (ids[0] === r.exprId && ids[1] === l.exprId);
}

/** What the equalities among `constraints` add to them (not already among them). */
function inferred(constraints: readonly Expr[]): Expr[] {
  const known = new Set(constraints.map(semanticKey));
  const out = new Map<string, Expr>();
  for (const eq of constraints) {
    if (eq.kind !== "call" || eq.name !== "=") continue;
    const [l, r] = eq.args as [Expr, Expr];
    if (l.kind !== "attribute" || r.kind !== "attribute" || l.exprId === r.exprId || !typesEqual(l.type, r.type)) continue;
    for (const c of constraints) {
      if (c === eq || sameEquality(c, l, r)) continue;
      for (const n of [replace(c, l, r), replace(c, r, l)]) {
        const key = semanticKey(n);
        if (!known.has(key) && !out.has(key)) out.set(key, n);
      }
    }
  }
  return [...out.values()];
}

function refersOnlyTo(e: Expr, plan: LogicalPlan): boolean {
  const ids = new Set(outputOf(plan).map((a) => a.exprId));
  const attrs = collectAttributes(e);
  return attrs.length > 0 && attrs.every((a) => ids.has(a.exprId));
}

function inferForFilter(p: LogicalPlan & { kind: "filter" }): LogicalPlan {
  const extra = inferred([...conjuncts(p.condition).filter(usable), ...constraintsOf(p.child)]).filter((c) => refersOnlyTo(c, p));
  return extra.length ? Plans.filter(conjunction([...conjuncts(p.condition), ...extra]), p.child) : p;
}

/** Spark's inferNewFilter per join type: only a side whose rows the join may drop is filtered. */
function inferForJoin(j: Join): LogicalPlan {
  if (!j.condition || j.usingColumns) return j;
  const jt = j.joinType;
  const intoLeft = jt === "inner" || jt === "cross" || jt === "left_semi" || jt === "right_outer";
  const intoRight = jt === "inner" || jt === "cross" || jt === "left_semi" || jt === "left_outer" || jt === "left_anti";
  if (!intoLeft && !intoRight) return j;
  const extra = inferred([...constraintsOf(j.left), ...constraintsOf(j.right), ...conjuncts(j.condition).filter(usable)]);
  const side = (plan: LogicalPlan, into: boolean) => {
    const preds = into ? extra.filter((c) => refersOnlyTo(c, plan)) : [];
    return preds.length ? Plans.filter(conjunction(preds), plan) : plan;
  };
  const left = side(j.left, intoLeft);
  const right = side(j.right, intoRight);
  return left === j.left && right === j.right ? j : Plans.rejoin(j, left, right, j.condition);
}

export const inferEqualConstraints: Rule = {
  name: "InferFiltersFromConstraints.equalities",
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === "filter" ? inferForFilter(p) : p.kind === "join" ? inferForJoin(p) : p)),
};
