/**
 * Spark's DeduplicateRelations: the two sides of a join, or a subquery and its outer query, must
 * not share an attribute. They do when one plan is read twice — a view or a DataFrame joined
 * with itself (`t1 a JOIN t1 b`, `df.alias("a").join(df.alias("b"), ...)`), a subquery over the
 * outer query's table — since a view's or a DataFrame's plan keeps its attributes' ids. Left
 * alone, `a.k = b.k` would compare a column with itself (true on every row with a value).
 * The second reading gets fresh ids: a projection re-aliasing each shared attribute, keeping
 * its name, qualifier (`b.k` still names it) and metadata (an event time's watermark).
 */

import { AnalysisException } from "../common/errors.js";
import { toAttribute } from "../functions/typing.js";
import { type Attribute, call, collectAttributes, type Expr, literal, reAlias, transformUp } from "../plan/expressions.js";
import { type LogicalPlan, Plans, planChildren } from "../plan/logical.js";
import { BooleanType } from "../types/datatypes.js";
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
  return { plan: Plans.selfJoinCopy(items, plan), renamed };
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

/**
 * A condition bound before the deduplication that still names a shared column (`df.v < f.v`
 * where `f` was made from `df`): it cannot say which side it means, so it is refused, as Spark's
 * failAmbiguousSelfJoin check does (alias the DataFrames and name the columns `a.v`, `b.v`).
 */
export function refuseAmbiguousSelfJoin(condition: Expr, renamed: ReadonlyMap<number, Attribute>): void {
  // the equalities selfJoinEqualities read as left = right are not ambiguous
  const rest = transformUp(condition, (e) =>
    e.kind === "call" &&
    (e.name === "=" || e.name === "<=>") &&
    e.args[0]?.kind === "attribute" &&
    renamed.get(e.args[0].exprId)?.exprId === (e.args[1] as Attribute | undefined)?.exprId
      ? literal(true, BooleanType)
      : e,
  );
  const shared = collectAttributes(rest).filter((a) => renamed.has(a.exprId));
  if (shared.length > 0) throw ambiguousSelfJoin(shared);
}

/**
 * Spark's DetectAmbiguousSelfJoin for an operator above joins: a DataFrame-bound column
 * (`df.col("k")` after `df.join(df.groupBy("k").count(), ...)`) is ambiguous when a join
 * beneath has the column's source on both sides and the right side's copy of it (re-aliased by
 * the deduplication, or passed up as it is) reaches the operator's input: Spark cannot tell
 * which side's `k` the DataFrame's column means. A column only the left side's copy gives the
 * operator (`df.col("v")` when the right side drops `v`, the key of an inner USING join) is not.
 */
export function refuseAmbiguousColumns(children: readonly LogicalPlan[], bound: readonly Attribute[]): void {
  if (bound.length === 0) return;
  const input = new Set(children.flatMap((c) => outputOf(c)).map((a) => a.exprId));
  const ambiguous: Attribute[] = [];
  const visit = (p: LogicalPlan): void => {
    if (p.kind === "join") {
      const left = producedIds(p.left);
      const right = producedIds(p.right);
      for (const b of bound) {
        if (!left.has(b.exprId) || !right.has(b.exprId)) continue;
        const copy = rightCopy(p.right, b.exprId);
        if (copy !== null && input.has(copy) && !ambiguous.includes(b)) ambiguous.push(b);
      }
    }
    for (const c of planChildren(p)) visit(c);
  };
  for (const c of children) visit(c);
  if (ambiguous.length > 0) throw ambiguousSelfJoin(ambiguous);
}
/** Every attribute id a plan's nodes output (the columns of the plans it reads). */
function producedIds(p: LogicalPlan, out = new Set<number>()): Set<number> {
  for (const a of outputOf(p)) out.add(a.exprId);
  for (const c of planChildren(p)) producedIds(c, out);
  return out;
}
/** The id a join's right side gives column `id` of a plan both sides read (null: it does not output it). */
function rightCopy(right: LogicalPlan, id: number): number | null {
  if (right.kind === "project" && right.selfJoinCopy) {
    for (const e of right.projectList) if (e.kind === "alias" && e.child.kind === "attribute" && e.child.exprId === id) return e.exprId;
  }
  return outputOf(right).some((a) => a.exprId === id) ? id : null;
}

function ambiguousSelfJoin(columns: readonly Attribute[]): AnalysisException {
  return new AnalysisException(
    "_LEGACY_ERROR_TEMP_1182",
    `Column ${columns.map((a) => `${a.name}#${a.exprId}`).join(", ")} are ambiguous. It's probably because you joined several Datasets together, and some of these Datasets are the same. This column points to one of the Datasets but Spark is unable to figure out which one. Please alias the Datasets with different names via \`Dataset.as\` before joining them, and specify the column using qualified name, e.g. \`df.as("a").join(df.as("b"), $"a.id" > $"b.id")\`.`,
  );
}
