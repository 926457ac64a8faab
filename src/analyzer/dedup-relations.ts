/**
 * Spark's DeduplicateRelations: the two sides of a join, or a subquery and its outer query, must
 * not share an attribute. They do when one plan is read twice — a view or a DataFrame joined
 * with itself (`t1 a JOIN t1 b`, `df.alias("a").join(df.alias("b"), ...)`), a subquery over the
 * outer query's table — since a view's or a DataFrame's plan keeps its attributes' ids. Left
 * alone, `a.k = b.k` would compare a column with itself (true on every row with a value).
 * The second reading gets fresh ids: a projection re-aliasing each shared attribute, keeping
 * its name, qualifier (`b.k` still names it) and metadata (an event time's watermark).
 */

import { toAttribute } from "../functions/typing.js";
import { type Attribute, call, type Expr, reAlias, transformUp } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { outputOf } from "./types.js";

export interface Deduplicated {
  readonly plan: LogicalPlan;
  /** The shared attributes' new selves, by their old ids (empty: nothing was shared). */
  readonly renamed: ReadonlyMap<number, Attribute>;
}

/** `plan`, or `plan` under a projection giving fresh ids to the attributes it shares with `taken`. */
export function withoutSharedAttributes(plan: LogicalPlan, taken: readonly Attribute[]): Deduplicated {
  const ids = new Set(taken.map((a) => a.exprId));
  const out = outputOf(plan);
  if (!out.some((a) => ids.has(a.exprId))) return { plan, renamed: new Map() };
  const renamed = new Map<number, Attribute>();
  const items: Expr[] = out.map((a) => {
    if (!ids.has(a.exprId)) return a;
    const fresh = reAlias(a);
    renamed.set(a.exprId, toAttribute(fresh));
    return fresh;
  });
  return { plan: Plans.project(items, plan), renamed };
}

/**
 * A join condition bound before the deduplication (`df.col("k")` of the same DataFrame on both
 * sides): `k = k` of one attribute is read as left = right, as Spark's Dataset.join resolves a
 * trivially true self-join equality.
 */
export function selfJoinEqualities(condition: Expr, renamed: ReadonlyMap<number, Attribute>): Expr {
  if (renamed.size === 0) return condition;
  return transformUp(condition, (e) => {
    if (e.kind !== "call" || (e.name !== "=" && e.name !== "<=>") || e.args.length !== 2) return e;
    const [a, b] = e.args as [Expr, Expr];
    if (a.kind !== "attribute" || b.kind !== "attribute" || a.exprId !== b.exprId) return e;
    const right = renamed.get(b.exprId);
    return right ? call(e.name, [a, right]) : e;
  });
}
