/**
 * Correlated subqueries — a subquery whose WHERE names the outer query's columns — decorrelated
 * into joins, as Spark's optimizer does (RewritePredicateSubquery, RewriteCorrelatedScalarSubquery):
 * - `[NOT] EXISTS (SELECT ... FROM r WHERE conds)`: a semi / anti join of the outer rows with r
 *   on the conjuncts naming the outer query; r's own conjuncts filter r;
 * - `x [NOT] IN (SELECT y FROM r WHERE conds)`: the same join on `x = y` and those conjuncts (NOT
 *   IN null-aware: `x = y OR (x = y) IS NULL`); an aggregated select list (`SELECT max(w)`) is one
 *   row per outer row, so the IN is `x = (that scalar subquery)`;
 * - a scalar `(SELECT agg(...) FROM r WHERE r.k = t.k ...)`: r aggregated per correlation key
 *   (`r.k`), left-outer-joined on `t.k = r.k`; where the aggregate of no rows is not NULL (count
 *   is 0) an outer row with no match gets that value (Spark's count-bug rule). A select list
 *   that does not aggregate must give at most one row per outer row (SCALAR_SUBQUERY_TOO_MANY_ROWS).
 *   A correlation other than equalities (`r.k > t.k`) goes through the outer values' domain.
 * A name in the subquery is looked up in its FROM first, then in the outer query (SQL's scoping).
 */
import { AnalysisException } from "../common/errors.js";
import { SINGLE_VALUE } from "../functions/single-value.js";
import {
  type Attribute,
  alias,
  anyExpr,
  type Call,
  call,
  caseWhen,
  collectAttributes,
  conjunction,
  conjuncts,
  type Expr,
  isLambda,
  literal,
  transformUp,
  unaliased,
} from "../plan/expressions.js";
import { type Aggregate, isStreamingPlan, type LogicalPlan, Plans, type Project } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { BooleanType } from "../types/datatypes.js";
import { withoutSharedAttributes } from "./dedup-relations.js";
import { resolveColumn } from "./resolve-names.js";
import { outputOf } from "./types.js";
import { hasAggregateOutsideWindow } from "./window-rules.js";

export interface SubquerySteps {
  /** Analyzes a subquery's plan on its own. */
  readonly analyze: (p: LogicalPlan) => LogicalPlan;
  readonly resolveExpr: (e: Expr, input: readonly Attribute[]) => Expr;
}

const isSubqueryCall = (e: Expr): boolean => e.kind === "call" && e.subquery !== undefined;

/** A correlated subquery taken apart. */
interface Split {
  /** Its FROM filtered by its own conjuncts (analyzed; no attribute shared with the outer query). */
  readonly right: LogicalPlan;
  /** The conjuncts naming the outer query, resolved against the outer query and `right`. */
  readonly pulled: readonly Expr[];
  /** The node above its WHERE: the select list, or the grouping and select list. */
  readonly top: Project | Aggregate;
}

/**
 * `SELECT ... FROM r WHERE conds` (possibly DISTINCT, possibly grouped) split into r's own
 * conjuncts and those naming the outer query; null when it is not that shape or names nothing
 * of the outer query (the uncorrelated path then plans or reports it).
 */
function splitCorrelated(outer: readonly Attribute[], sub: LogicalPlan, steps: SubquerySteps): Split | null {
  const top = sub.kind === "distinct" ? sub.child : sub;
  if ((top.kind !== "project" || top.qualify) && top.kind !== "aggregate") return null;
  if (top.kind === "aggregate" && top.groupingSets) return null;
  const where = top.child;
  if (where.kind !== "filter") return null;
  const source = withoutSharedAttributes(steps.analyze(where.child), outer).plan;
  const kept: Expr[] = [];
  const named: Expr[] = [];
  for (const c of conjuncts(where.condition)) {
    if (anyExpr(c, isSubqueryCall)) return null;
    const s = scoped(c, outputOf(source), outer);
    if (s === null) return null;
    (s.namesOuter ? named : kept).push(c);
  }
  if (named.length === 0) return null;
  const filtered = kept.length === 0 ? source : steps.analyze(Plans.filter(conjunction(kept), where.child));
  const right = withoutSharedAttributes(filtered, outer).plan;
  const inner = outputOf(right);
  const pulled = named.map((c) => steps.resolveExpr(scoped(c, inner, outer)!.expr, [...outer, ...inner]));
  return { right, pulled, top };
}

/**
 * `e`'s column names bound to the subquery's FROM (`inner`) first, then to the outer query;
 * null when it has a lambda (its variables are not columns: the uncorrelated path resolves it).
 */
function scoped(e: Expr, inner: readonly Attribute[], outer: readonly Attribute[]): { expr: Expr; namesOuter: boolean } | null {
  if (anyExpr(e, isLambda)) return null;
  let namesOuter = false;
  const expr = transformUp(e, (x) => {
    if (x.kind !== "column") return x;
    const own = resolveColumn(x.nameParts, inner);
    if (own) return own;
    const theirs = resolveColumn(x.nameParts, outer);
    if (!theirs) return x;
    namesOuter = true;
    return theirs;
  });
  return { expr, namesOuter };
}

/** An IN subquery whose select list is not one column (`n` columns). */
export function inSubqueryLengthMismatch(n: number): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH",
    `[DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH] The number of columns in the left hand side of an IN subquery does not match the number of columns in the output of subquery. Left hand side columns(length: 1), right hand side columns(length: ${n}).`,
  );
}

/** What a subquery condition joins the outer rows with, and on what. */
export interface JoinParts {
  readonly right: LogicalPlan;
  readonly condition: Expr;
  /** The outer query's columns the correlation names (for the subquery's SQL text). */
  readonly outerNames?: readonly string[];
}

/** `EXISTS (...)` naming the outer query: its FROM (own conjuncts applied), joined on the conjuncts that name the outer query. */
export function correlatedExists(left: LogicalPlan, sub: LogicalPlan, steps: SubquerySteps): JoinParts | null {
  const split = splitCorrelated(outputOf(left), sub, steps);
  if (!split) return null;
  return { right: split.right, condition: conjunction(split.pulled), outerNames: outerNamesOf(split.pulled, outputOf(left)) };
}

/**
 * `x IN (SELECT y FROM r WHERE ...)` naming the outer query: r joined on `x = y` (`nullAware`, for
 * NOT IN: `x = y OR (x = y) IS NULL`) and the correlated conjuncts; `{ scalar }` when the select
 * list aggregates (then the IN is an equality with that scalar subquery, planned by the caller);
 * null when not correlated.
 */
export function correlatedIn(left: LogicalPlan, e: Call, nullAware: boolean, steps: SubquerySteps): JoinParts | { scalar: Expr } | null {
  const outer = outputOf(left);
  const split = splitCorrelated(outer, e.subquery!, steps);
  if (!split) return null;
  const { top, right } = split;
  const items = top.kind === "project" ? top.projectList : top.aggregateExprs;
  if (items.length !== 1 || items[0]!.kind === "star") {
    throw inSubqueryLengthMismatch(items.length);
  }
  const inner = outputOf(right);
  const y = unaliased(steps.resolveExpr(items[0]!, inner));
  if (top.kind === "aggregate" || hasAggregateOutsideWindow(y)) {
    if (top.kind === "aggregate" || e.subquery!.kind === "distinct") return null;
    const scalar = Object.freeze({ ...call("scalar_subquery", []), subquery: e.subquery! });
    return { scalar: call("=", [e.args[0]!, scalar]) };
  }
  const equal = call("=", [steps.resolveExpr(e.args[0]!, outer), y]);
  const match = nullAware ? call("or", [equal, call("isnull", [equal])]) : equal;
  return {
    right,
    condition: steps.resolveExpr(conjunction([match, ...split.pulled]), [...outer, ...inner]),
    outerNames: outerNamesOf(split.pulled, outer),
  };
}

function outerNamesOf(pulled: readonly Expr[], outer: readonly Attribute[]): string[] {
  return uniqueNames(pulled.flatMap((c) => collectAttributes(c).filter((a) => isIn(a, outer))));
}

/** Aggregates whose value over no rows is NULL: a scalar subquery of one needs no count-bug rule. */
const NULL_WHEN_EMPTY = new Set([
  "max",
  "min",
  "sum",
  "avg",
  "mean",
  "first",
  "last",
  "any_value",
  "first_value",
  "last_value",
  SINGLE_VALUE,
]);

/**
 * A correlated scalar subquery: the plan it is joined into and the expression reading its value;
 * null when it names nothing of the outer query.
 */
export function correlatedScalar(left: LogicalPlan, sub: LogicalPlan, steps: SubquerySteps): { plan: LogicalPlan; value: Expr } | null {
  const outer = outputOf(left);
  const split = splitCorrelated(outer, sub, steps);
  if (!split) return null;
  const { top, right } = split;
  const inner = outputOf(right);
  const items = top.kind === "project" ? top.projectList : top.aggregateExprs;
  if (items.length !== 1 || items[0]!.kind === "star") {
    throw new AnalysisException(
      "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN",
      `[INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN] Invalid subquery: Scalar subquery must return only one column, but got ${items.length}.`,
    );
  }
  const own = scoped(items[0]!, inner, outer);
  if (own?.namesOuter) {
    throw new AnalysisException(
      "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_REFERENCE",
      `[UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_REFERENCE] Unsupported subquery expression: Expressions referencing the outer query are not supported outside of WHERE/HAVING clauses: "${exprToSql(steps.resolveExpr(own.expr, [...outer, ...inner]))}".`,
    );
  }
  const item = unaliased(steps.resolveExpr(items[0]!, inner));
  // A GROUP BY makes one row per group: one per outer row only when the groups are the correlation's;
  // a DISTINCT select list is grouped by its value (several distinct values: too many rows).
  const aggregated = top.kind === "aggregate" || hasAggregateOutsideWindow(item);
  const distinctValue = sub.kind === "distinct" && !aggregated;
  const grouped = (top.kind === "aggregate" && top.groupingExprs.length > 0) || distinctValue;
  const value = aggregated || distinctValue ? item : call(SINGLE_VALUE, [item]);
  const correlation = keyedByCorrelation(left, right, split.pulled, steps);
  const { keyed, keys } = correlation;
  const name = `scalarsubquery(${outerNamesOf(split.pulled, outer).join(", ")})`;
  const needsEmptyValue = !grouped && !(value.kind === "call" && NULL_WHEN_EMPTY.has(value.name));
  const present = alias(literal(true, BooleanType), "__present");
  const perKey = grouped
    ? perCorrelationOfGroups(
        keyed,
        keys,
        distinctValue ? [item] : (top as Aggregate).groupingExprs.map((g) => steps.resolveExpr(g, inner)),
        value,
        name,
        steps,
      )
    : steps.analyze(Plans.aggregate(keys, [alias(value, name), ...keys, ...(needsEmptyValue ? [present] : [])], keyed));
  const [result, ...rest] = outputOf(perKey);
  const on = conjunction(correlation.outerKeys.map((o, n) => call(correlation.equality, [o, rest[n]!])));
  let plan: LogicalPlan = Plans.join(left, perKey, "left_outer", steps.resolveExpr(on, [...outer, ...outputOf(perKey)]));
  if (!needsEmptyValue) return { plan, value: result! };
  // the value of no rows (count: 0), from an aggregate over an empty relation of r's columns
  const empty = steps.analyze(Plans.aggregate([], [alias(value, name)], Plans.localRelation(inner, [])));
  plan = Plans.join(plan, empty, "inner", null);
  const found = rest[rest.length - 1]!;
  return { plan, value: caseWhen([[call("isnull", [found]), outputOf(empty)[0]!]], result!) };
}

const isIn = (a: Attribute, attrs: readonly Attribute[]): boolean => attrs.some((b) => b.exprId === a.exprId);

/**
 * The subquery's rows keyed by what each outer row correlates with, and how an outer row finds
 * its key. Equalities (`r.k = t.k`): r keyed by their inner sides, found by `=` on their outer
 * sides. Anything else (`r.k > t.k`): Spark's domain join — the outer query's distinct values
 * of the columns named, joined with r on the conditions, keyed by those values, found by `<=>`
 * (a NULL value is a key too).
 */
function keyedByCorrelation(
  left: LogicalPlan,
  right: LogicalPlan,
  pulled: readonly Expr[],
  steps: SubquerySteps,
): { keyed: LogicalPlan; keys: readonly Attribute[]; outerKeys: readonly Expr[]; equality: "=" | "<=>" } {
  const outer = outputOf(left);
  const inner = outputOf(right);
  const pairs = pulled.map((c) => equalityPair(c, inner, outer));
  if (pairs.every((p) => p !== null)) {
    const keyed = steps.analyze(Plans.project([...inner, ...pairs.map(([i], n) => alias(i, `__corr${n}`))], right));
    return { keyed, keys: outputOf(keyed).slice(inner.length), outerKeys: pairs.map(([, o]) => o), equality: "=" };
  }
  if (isStreamingPlan(left)) {
    // the domain would be a streaming distinct joined back to its stream: refused by name instead
    throw new AnalysisException(
      "UNSUPPORTED_FEATURE",
      `[UNSUPPORTED_FEATURE] A correlated scalar subquery in a streaming query is supported when each condition naming the outer query is an equality with its columns (${pulled.map(exprToSql).join(" AND ")}).`,
    );
  }
  const named: Attribute[] = [];
  for (const c of pulled) for (const a of collectAttributes(c)) if (isIn(a, outer) && !isIn(a, named)) named.push(a);
  // under names of their own: the outer query's names keep meaning its columns above the join
  const domain = Plans.distinct(
    Plans.project(
      named.map((a, n) => alias(a, `__corr${n}`)),
      left,
    ),
  );
  const keys = outputOf(domain);
  const onDomain = pulled.map((c) =>
    transformUp(c, (x) => (x.kind === "attribute" && isIn(x, named) ? keys[named.findIndex((a) => a.exprId === x.exprId)]! : x)),
  );
  const keyed = Plans.join(domain, right, "inner", conjunction(onDomain));
  return { keyed, keys, outerKeys: named, equality: "<=>" };
}

/**
 * A grouped subquery's value per correlation key: its groups within each key, then at most one
 * of them per key (a GROUP BY of the correlation's own columns has one; another GROUP BY may give
 * several, SCALAR_SUBQUERY_TOO_MANY_ROWS as in Spark). No row for a key: NULL, as a GROUP BY of no rows.
 */
function perCorrelationOfGroups(
  keyed: LogicalPlan,
  keys: readonly Attribute[],
  groups: readonly Expr[],
  value: Expr,
  name: string,
  steps: SubquerySteps,
): LogicalPlan {
  const perGroup = steps.analyze(Plans.aggregate([...keys, ...groups], [alias(value, "__value"), ...keys], keyed));
  const [v, ...ks] = outputOf(perGroup);
  return steps.analyze(Plans.aggregate(ks, [alias(call(SINGLE_VALUE, [v!]), name), ...ks], perGroup));
}

/** A correlated conjunct as (inner side, outer side) of an equality, or null when it is not one. */
function equalityPair(c: Expr, inner: readonly Attribute[], outer: readonly Attribute[]): [Expr, Expr] | null {
  const side = (e: Expr): "inner" | "outer" | "mixed" => {
    const attrs = collectAttributes(e);
    const i = attrs.some((a) => isIn(a, inner));
    const o = attrs.some((a) => isIn(a, outer));
    return i && !o ? "inner" : o && !i ? "outer" : "mixed";
  };
  if (c.kind !== "call" || c.name !== "=" || c.args.length !== 2) return null;
  const [a, b] = c.args as [Expr, Expr];
  const sa = side(a);
  const sb = side(b);
  if (sa === "inner" && sb === "outer") return [a, b];
  if (sa === "outer" && sb === "inner") return [b, a];
  return null;
}

function uniqueNames(attrs: readonly Attribute[]): string[] {
  const seen = new Set<number>();
  const names: string[] = [];
  for (const a of attrs) {
    if (seen.has(a.exprId)) continue;
    seen.add(a.exprId);
    names.push(a.name);
  }
  return names;
}
