/**
 * PushDownPredicates: moves filters towards the scans — through projections (substituting
 * aliases), into the matching side of inner joins and the preserved side of outer joins — and
 * merges adjacent filters; a join's single-side ON conjuncts go into that side too; into every
 * input of a union, and below an aggregate when they read grouping columns only
 * (push-through-union-aggregate.ts). Non-deterministic conditions stay where they are.
 */

import { outputOf } from "../analyzer/types.js";
import { call, collectAttributes, conjunction, conjuncts, type Expr, transformUp } from "../plan/expressions.js";
import { type Join, type LogicalPlan, Plans, transformPlanUp, withPlanChildren } from "../plan/logical.js";
import { eventTimeColumns } from "./event-time-column.js";
import { pushThroughAggregate, pushThroughUnion } from "./push-through-union-aggregate.js";
import type { Rule } from "./rule.js";
import { isNonDeterministic as isVolatile } from "./volatile.js";

function refersOnlyTo(e: Expr, plan: LogicalPlan): boolean {
  const ids = new Set(outputOf(plan).map((a) => a.exprId));
  return collectAttributes(e).every((a) => ids.has(a.exprId));
}

function push(p: LogicalPlan): LogicalPlan {
  if (p.kind !== "filter") return p;
  const child = p.child;
  // A union or an aggregate takes the deterministic conjuncts and leaves the others above it.
  if (child.kind === "union") return pushThroughUnion(p.condition, child, push);
  if (child.kind === "aggregate") return pushThroughAggregate(p.condition, child, push);
  if (isVolatile(p.condition)) return p;
  switch (child.kind) {
    case "filter":
      return push(Plans.filter(call("and", [child.condition, p.condition]), child.child));
    case "watermark": {
      // Through a watermark the conjuncts that do not read the event-time column (Spark's rule):
      // filtering event times before the watermark node would change the watermark.
      const eventTime = new Set(eventTimeColumns(child).map((a) => a.exprId));
      const usesTime = (c: Expr) => collectAttributes(c).some((a) => eventTime.has(a.exprId));
      const below = conjuncts(p.condition).filter((c) => !usesTime(c));
      if (!below.length) return p;
      const stay = conjuncts(p.condition).filter((c) => usesTime(c));
      const wm = Plans.watermark(child.eventTime, child.delayMs, push(Plans.filter(conjunction(below), child.child)));
      return stay.length ? Plans.filter(conjunction(stay), wm) : wm;
    }
    case "project": {
      if (child.projectList.some(isVolatile)) return p;
      const aliases = new Map<number, Expr>();
      for (const e of child.projectList) if (e.kind === "alias") aliases.set(e.exprId, e.child);
      const cond = transformUp(p.condition, (x) => (x.kind === "attribute" && aliases.has(x.exprId) ? aliases.get(x.exprId)! : x));
      return Plans.project(child.projectList, push(Plans.filter(cond, child.child)));
    }
    case "generate": {
      // Conjuncts over the child's columns only run before the generator (Spark's rule).
      const below = conjuncts(p.condition).filter((c) => refersOnlyTo(c, child.child));
      if (!below.length) return p;
      const stay = conjuncts(p.condition).filter((c) => !below.includes(c));
      const gen = withPlanChildren(child, [push(Plans.filter(conjunction(below), child.child))]);
      return stay.length ? Plans.filter(conjunction(stay), gen) : gen;
    }
    case "join": {
      const jt = child.joinType;
      const toLeft: Expr[] = [];
      const toRight: Expr[] = [];
      const stay: Expr[] = [];
      for (const c of conjuncts(p.condition)) {
        if (
          (jt === "inner" || jt === "cross" || jt === "left_outer" || jt === "left_semi" || jt === "left_anti" || jt === "existence") &&
          refersOnlyTo(c, child.left)
        )
          toLeft.push(c);
        else if ((jt === "inner" || jt === "cross" || jt === "right_outer") && refersOnlyTo(c, child.right)) toRight.push(c);
        else stay.push(c);
      }
      if (!toLeft.length && !toRight.length) return p;
      const left = toLeft.length ? push(Plans.filter(conjunction(toLeft), child.left)) : child.left;
      const right = toRight.length ? push(Plans.filter(conjunction(toRight), child.right)) : child.right;
      const join = Plans.rejoin(child, left, right, child.condition);
      return stay.length ? Plans.filter(conjunction(stay), join) : join;
    }
    default:
      return p;
  }
}

/**
 * The join's own condition (Spark's PushPredicateThroughJoin): a deterministic ON conjunct that
 * reads one side only filters that side before the join, where it can reach the side's scan
 * (`k = sk AND v IN (1, 2)` reads only the rows with v 1 or 2, and only they are numInputRows),
 * unless that side is preserved by an outer join: there it decides matching, not which rows exist.
 */
function pushJoinCondition(j: Join): LogicalPlan {
  if (!j.condition || j.usingColumns) return j;
  const jt = j.joinType;
  const both = jt === "inner" || jt === "cross" || jt === "left_semi";
  const intoLeft = both || jt === "right_outer";
  const intoRight = both || jt === "left_outer" || jt === "left_anti" || jt === "existence";
  const toLeft: Expr[] = [];
  const toRight: Expr[] = [];
  const stay: Expr[] = [];
  for (const c of conjuncts(j.condition)) {
    if (isVolatile(c)) stay.push(c);
    else if (intoLeft && refersOnlyTo(c, j.left)) toLeft.push(c);
    else if (intoRight && refersOnlyTo(c, j.right)) toRight.push(c);
    else stay.push(c);
  }
  if (!toLeft.length && !toRight.length) return j;
  const left = toLeft.length ? push(Plans.filter(conjunction(toLeft), j.left)) : j.left;
  const right = toRight.length ? push(Plans.filter(conjunction(toRight), j.right)) : j.right;
  return Plans.rejoin(j, left, right, stay.length ? conjunction(stay) : null);
}

export const pushDownPredicates: Rule = {
  name: "PushDownPredicates",
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === "join" ? pushJoinCondition(p) : push(p))),
};
