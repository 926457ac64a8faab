/**
 * Spark's hidden output (a plan's metadataOutput of `__qualified_access_only` columns) and its
 * AddMetadataColumns rule, for the DataFrame API's USING join: `a.join(b, "k")` shows one `k`,
 * yet `b.col("k")` above it is b's own key (NULL where a right or full join's row has no b).
 * The join's projection keeps the keys it merged away in `Project.hidden`; they stay reachable
 * through the plans above that keep their input's rows and columns (filters, sorts, limits,
 * projections, joins, ...), not through an aggregation, a union or an alias. An operator naming
 * one gets it added to the projections beneath, and its own output is kept as it was.
 * Also Spark's CheckAnalysis of a column bound to another DataFrame that is not in the input
 * (`a.select(b.col("k"))`): MISSING_ATTRIBUTES, and its DetectAmbiguousSelfJoin for a column
 * a self-join beneath makes ambiguous (dedup-relations.ts). Both look at the node a DataFrame
 * method just built only: the analyzed nodes beneath hold no DataFrame-bound columns.
 */
import { AnalysisException } from "../common/errors.js";
import { type Attribute, collectAttributes, type Expr, isDataFrameColumn, withAccessMark } from "../plan/expressions.js";
import { type LogicalPlan, Plans, planChildren, withPlanChildren } from "../plan/logical.js";
import { refuseAmbiguousColumns } from "./dedup-relations.js";
import { outputOf } from "./types.js";

/** The hidden columns `p` can add to its output on demand. */
export function hiddenOf(p: LogicalPlan): Attribute[] {
  switch (p.kind) {
    case "project": {
      const shown = new Set(outputOf(p).map((a) => a.exprId));
      return [...(p.hidden ?? []), ...hiddenOf(p.child)].filter((a) => !shown.has(a.exprId));
    }
    case "filter":
    case "sort":
    case "limit":
    case "deduplicate":
    case "distinct":
    case "watermark":
    case "collectMetrics":
    case "window":
    case "generate":
      return hiddenOf(p.child);
    case "join": {
      const left = hiddenOf(p.left);
      if (p.joinType === "left_semi" || p.joinType === "left_anti" || p.joinType === "existence") return left;
      // a plan joined with itself: its right copy's hidden keys are the left's (Spark renews the copy's)
      const ids = new Set(left.map((a) => a.exprId));
      return [...left, ...hiddenOf(p.right).filter((a) => !ids.has(a.exprId))];
    }
    default:
      return [];
  }
}

/**
 * `p` with the columns of `ids` it can reach added to its output (Spark's addMetadataCol): a
 * projection adds the hidden ones it keeps or its child now shows, and with `anyColumn` (under a
 * filter or a sort, Spark's ResolveMissingReferences) also a column its child has that it drops;
 * beneath a join, a deduplication or a DISTINCT only hidden columns are reached.
 */
function expose(p: LogicalPlan, ids: ReadonlySet<number>, anyColumn: boolean): LogicalPlan {
  const before = new Set(outputOf(p).map((a) => a.exprId));
  const wanted = new Set([...ids].filter((id) => !before.has(id)));
  if (wanted.size === 0) return p;
  switch (p.kind) {
    case "project": {
      const child = expose(p.child, wanted, anyColumn);
      const had = new Set(outputOf(p.child).map((a) => a.exprId));
      const pool = [...(p.hidden ?? []), ...outputOf(child).filter((a) => anyColumn || !had.has(a.exprId))];
      const added = [...new Map(pool.filter((a) => wanted.has(a.exprId)).map((a) => [a.exprId, withAccessMark(a)])).values()];
      return added.length === 0 && child === p.child ? p : Plans.reproject(p, [...p.projectList, ...added], child);
    }
    case "filter":
    case "sort":
    case "limit":
    case "watermark":
    case "collectMetrics":
    case "window":
    case "generate":
      return withPlanChildren(p, [expose(p.child, wanted, anyColumn)]);
    case "deduplicate":
    case "distinct":
      return withPlanChildren(p, [expose(p.child, wanted, false)]);
    case "join": {
      const left = expose(p.left, wanted, false);
      if (p.joinType === "left_semi" || p.joinType === "left_anti" || p.joinType === "existence")
        return withPlanChildren(p, [left, p.right]);
      // a plan joined with itself: the left side's hidden key, not its right copy's (Spark renews the copy's)
      const got = new Set(outputOf(left).map((a) => a.exprId));
      const right = expose(p.right, new Set([...wanted].filter((id) => !got.has(id))), false);
      return withPlanChildren(p, [left, right]);
    }
    default:
      return p;
  }
}

/** The columns of a DataFrame that `p`'s own expressions name (`b.col("k")`, the columns of `b.col("*")`). */
function boundColumns(p: LogicalPlan): Attribute[] {
  const exprs: readonly Expr[] =
    p.kind === "project"
      ? p.projectList
      : p.kind === "filter"
        ? [p.condition]
        : p.kind === "sort"
          ? p.orders
          : p.kind === "aggregate"
            ? [...p.groupingExprs, ...p.aggregateExprs]
            : p.kind === "join" && p.condition !== null && p.usingColumns === null
              ? [p.condition]
              : [];
  const out: Attribute[] = [];
  for (const e of exprs) {
    collectStarAttributes(e, out);
    out.push(...collectAttributes(e).filter(isDataFrameColumn));
  }
  return out;
}
function collectStarAttributes(e: Expr, out: Attribute[]): void {
  if (e.kind === "star") out.push(...(e.attributes ?? []));
  else if (e.kind === "call") for (const a of e.args) collectStarAttributes(a, out);
  else if (e.kind === "alias") collectStarAttributes(e.child, out);
}

/**
 * `p` (its children analyzed, itself not yet) with the hidden columns its expressions name
 * added beneath it; `restore` gives the analyzed node its own output back. A bound column that is
 * in neither the input nor its hidden columns is refused as Spark refuses it.
 */
export function withHiddenColumns(p: LogicalPlan): { plan: LogicalPlan; restore: (analyzed: LogicalPlan) => LogicalPlan } {
  const same = { plan: p, restore: (q: LogicalPlan) => q };
  const bound = boundColumns(p);
  if (bound.length === 0) return same;
  const children = planChildren(p);
  // a join's own condition is checked as the join is deduplicated (join-rules.ts); `df.col("*")` is not a column reference
  if (p.kind !== "join") refuseAmbiguousColumns(children, bound.filter(isDataFrameColumn));
  const input = children.flatMap((c) => outputOf(c));
  const have = new Set(input.map((a) => a.exprId));
  const missing = new Set(bound.filter((a) => !have.has(a.exprId)).map((a) => a.exprId));
  if (missing.size === 0) return same;
  const next = children.map((c) => expose(c, missing, p.kind === "filter" || p.kind === "sort"));
  const exposed = new Set(
    next
      .flatMap((c) => outputOf(c))
      .filter((a) => missing.has(a.exprId))
      .map((a) => a.exprId),
  );
  const absent = bound.filter((a) => !exposed.has(a.exprId) && missing.has(a.exprId));
  if (absent.length > 0 && p.kind !== "join") throw missingAttributes(absent, input, p);
  if (exposed.size === 0) return same;
  // a projection or an aggregation lists its output; any other node passes its input on
  const lists = p.kind === "project" || p.kind === "aggregate";
  return {
    plan: withPlanChildren(p, next),
    // what was added stays hidden above, for the next column naming it
    restore: (q) => {
      if (lists) return q;
      const out = outputOf(q);
      const hidden = new Set(children.flatMap(hiddenOf).map((a) => a.exprId));
      const kept = out.filter((a) => !exposed.has(a.exprId));
      return Plans.projectHiding(kept, q, out.filter((a) => hidden.has(a.exprId)).map(withAccessMark));
    },
  };
}

function missingAttributes(absent: readonly Attribute[], input: readonly Attribute[], p: LogicalPlan): AnalysisException {
  const names = [...new Set(absent.map((a) => a.name))];
  const list = (xs: readonly string[]) => xs.map((n) => `"${n}"`).join(", ");
  const op = `${p.kind[0]!.toUpperCase()}${p.kind.slice(1)}`;
  const same = names.filter((n) => input.some((a) => a.name.toLowerCase() === n.toLowerCase()));
  if (same.length > 0) {
    return new AnalysisException(
      "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
      `[MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION] Resolved attribute(s) ${list(names)} missing from ${list(input.map((a) => a.name))} in operator !${op}. Attribute(s) with the same name appear in the operation: ${list(same)}. Please check if the right attribute(s) are used.`,
    );
  }
  return new AnalysisException(
    "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT",
    `[MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT] Resolved attribute(s) ${list(names)} missing from ${list(input.map((a) => a.name))} in operator !${op}.`,
  );
}
