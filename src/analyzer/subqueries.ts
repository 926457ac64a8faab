/**
 * Subqueries, as Spark's RewritePredicateSubquery and its scalar-subquery planning shape them:
 * - in a WHERE, each top-level conjunct `x IN (SELECT y ...)` becomes a left semi join on
 *   `x = y`; `x NOT IN (...)` a null-aware left anti join (a row goes when some y equals x or
 *   the comparison is NULL: SQL's NOT IN, so one NULL among the y removes every row, and a NULL
 *   x goes unless the subquery is empty); `EXISTS (...)` / `NOT EXISTS (...)` a semi / anti join
 *   on nothing. The other conjuncts filter above the joins;
 * - an IN / EXISTS inside a larger expression (OR, CASE, a SELECT list) is an existence join's
 *   flag (`joinExistenceSubqueries`);
 * - an uncorrelated scalar subquery `(SELECT ...)` in a SELECT list, a WHERE or a HAVING is a
 *   one-row aggregate joined to the rows (to the groups, above the aggregate, for a HAVING);
 * - correlated ones (naming the outer query's columns) are decorrelated into joins
 *   (correlated-subqueries.ts).
 * Anything else (a subquery in GROUP BY, ORDER BY or ON, an IN / EXISTS in a HAVING's larger
 * expression) is refused by name.
 */
import { AnalysisException } from "../common/errors.js";
import { SINGLE_VALUE } from "../functions/single-value.js";
import {
  type Attribute,
  alias,
  anyExpr,
  attribute,
  type Call,
  call,
  conjunction,
  conjuncts,
  type Expr,
  literal,
  transformDown,
  transformUp,
} from "../plan/expressions.js";
import { type LogicalPlan, Plans, transformPlanUp } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { BooleanType } from "../types/datatypes.js";
import {
  correlatedExists,
  correlatedIn,
  correlatedScalar,
  inSubqueryLengthMismatch,
  type JoinParts,
  type SubquerySteps,
} from "./correlated-subqueries.js";
import { withoutSharedAttributes } from "./dedup-relations.js";
import { outputOf } from "./types.js";
import { hasAggregateOutsideWindow } from "./window-rules.js";

export const isSubqueryCall = (e: Expr): boolean => e.kind === "call" && e.subquery !== undefined;
const isScalarSubquery = (e: Expr): boolean => isSubqueryCall(e) && (e as Call).name === "scalar_subquery";
/** `x IN (SELECT ...)` or `EXISTS (SELECT ...)`: a subquery that is a condition. */
const isPredicateSubquery = (e: Expr): boolean => isSubqueryCall(e) && !isScalarSubquery(e);

/** Does `e` hold a scalar subquery `(SELECT ...)`? */
export function hasScalarSubquery(e: Expr): boolean {
  return anyExpr(e, isScalarSubquery);
}

/** A subquery where arus does not plan one (`e`: the subquery's call, when known). */
export function subqueryOutsideWhere(e?: Expr): AnalysisException {
  if (e !== undefined && isScalarSubquery(e)) {
    return new AnalysisException(
      "UNSUPPORTED_FEATURE",
      "[UNSUPPORTED_FEATURE] Scalar subqueries are supported in a SELECT list, in a WHERE condition and in a HAVING condition (not in GROUP BY, ORDER BY or a join's ON).",
    );
  }
  return new AnalysisException(
    "UNSUPPORTED_FEATURE",
    "[UNSUPPORTED_FEATURE] IN and EXISTS subqueries are supported in a WHERE condition, in a SELECT list without GROUP BY and as HAVING conjuncts (not inside a larger HAVING expression, nor in GROUP BY, ORDER BY or a join's ON).",
  );
}

type Steps = SubquerySteps;

/** `child` joined with each subquery conjunct of `condition`, and the conjuncts left (null: none); null when there is no subquery. */
export function joinSubqueries(condition: Expr, child: LogicalPlan, steps: Steps): { plan: LogicalPlan; rest: Expr | null } | null {
  if (!anyExpr(condition, isPredicateSubquery)) return null;
  let plan = child;
  const rest: Expr[] = [];
  for (const c of conjuncts(condition)) {
    const negated = c.kind === "call" && c.name === "not" && c.args.length === 1 && isSubqueryCall(c.args[0]!);
    const sub = negated ? (c as Call).args[0]! : c;
    if (!isPredicateSubquery(sub)) {
      // a HAVING's aggregate must stay right below it: no existence join in between
      if (child.kind === "aggregate" && anyExpr(c, isPredicateSubquery)) throw subqueryOutsideWhere();
      // inside a larger expression (OR, CASE, ...): an existence join's flag stands for it
      const nested = joinExistenceSubqueries([c], plan, steps);
      if (nested) plan = nested.child;
      rest.push(nested ? nested.exprs[0]! : c);
      continue;
    }
    if (isExistsOfOneRow(sub)) {
      // an aggregate without GROUP BY always has its one row: EXISTS is true, NOT EXISTS false
      if (negated) rest.push(literal(false, BooleanType));
      continue;
    }
    const parts = joinParts(plan, sub as Call, negated && sub.kind === "call" && sub.name === "in_subquery", steps);
    if ("scalar" in parts) rest.push(negated ? call("not", [parts.scalar]) : parts.scalar);
    else plan = Plans.join(plan, parts.right, negated ? "left_anti" : "left_semi", parts.condition);
  }
  return { plan, rest: rest.length === 0 ? null : conjunction(rest) };
}

/**
 * IN / EXISTS subqueries inside expressions (`a OR x IN (...)`, `CASE WHEN EXISTS (...)`, a
 * SELECT list's `x IN (...)`), as Spark's RewritePredicateSubquery plans them: each an existence
 * join of the rows with the subquery, read as its `exists` flag — two-valued, as Spark's: `x IN
 * (...)` is whether some y equals x, `NOT x IN (...)` whether none equals x or compares as NULL
 * (null-aware, as a top-level NOT IN). Null when there is none.
 */
export function joinExistenceSubqueries(
  exprs: readonly Expr[],
  child: LogicalPlan,
  steps: Steps,
  keepNames = false,
): { exprs: Expr[]; child: LogicalPlan } | null {
  if (!exprs.some((e) => anyExpr(e, isPredicateSubquery))) return null;
  let plan = child;
  const out = exprs.map((e) => {
    const named = new Map<Expr, Expr>();
    const rewritten = transformDown(e, (x) => {
      const notIn = x.kind === "call" && x.name === "not" && x.args.length === 1 && isInSubquery(x.args[0]!);
      const sub = notIn ? (x as Call).args[0]! : x;
      if (!isPredicateSubquery(sub)) return x;
      if (isExistsOfOneRow(sub)) return literal(true, BooleanType);
      const parts = joinParts(plan, sub as Call, notIn, steps);
      if ("scalar" in parts) {
        // one row per outer row: the IN is that equality, false rather than NULL (an existence is two-valued)
        return call("coalesce", [notIn ? call("not", [parts.scalar]) : parts.scalar, literal(false, BooleanType)]);
      }
      named.set(sub, Object.freeze({ ...(sub as Call), outerNames: parts.outerNames ?? [] }));
      const exists = attribute("exists", BooleanType, false);
      plan = Plans.existenceJoin(plan, parts.right, parts.condition, exists);
      return notIn ? call("not", [exists]) : exists;
    });
    if (!keepNames || e.kind === "alias" || rewritten === e) return rewritten;
    // a SELECT item is named after the subquery as Spark shows it: `(v IN (listquery()))`, `exists(k)`
    return alias(rewritten, exprToSql(transformDown(e, (x) => named.get(x) ?? x)));
  });
  return { exprs: out, child: plan };
}

/** `EXISTS (SELECT count(*) ...)`: a subquery that aggregates without GROUP BY (or HAVING) has one row whatever its WHERE. */
function isExistsOfOneRow(e: Expr): boolean {
  if (!isSubqueryCall(e) || (e as Call).name !== "exists_subquery") return false;
  let q = (e as Call).subquery!;
  if (q.kind === "distinct") q = q.child;
  if (q.kind === "aggregate") return q.groupingExprs.length === 0 && q.groupingSets === null;
  return q.kind === "project" && !q.qualify && q.projectList.some(hasAggregateOutsideWindow);
}

const isInSubquery = (e: Expr): boolean => isSubqueryCall(e) && (e as Call).name === "in_subquery";

/** The subquery analyzed on its own; one naming the outer query's columns (not decorrelated) is refused by name. */
function analyzeUncorrelated(sub: LogicalPlan, steps: Steps): LogicalPlan {
  try {
    return steps.analyze(sub);
  } catch (err) {
    if (err instanceof AnalysisException && err.errorClass.startsWith("UNRESOLVED_COLUMN")) {
      throw new AnalysisException(
        "UNSUPPORTED_FEATURE",
        `[UNSUPPORTED_FEATURE] A correlated subquery is supported when the outer query's columns are named in its WHERE, with a select list of one column (grouped only for a scalar subquery); this one failed: ${err.message}`,
      );
    }
    throw err;
  }
}

/**
 * Uncorrelated scalar subqueries `(SELECT ...)` among `exprs`: each a global aggregate of its one
 * column (`__single_value`: NULL for no row, SCALAR_SUBQUERY_TOO_MANY_ROWS for more), joined to
 * `child` (one row, so every row of the child once) and read as that aggregate's column, named
 * `scalarsubquery()` as Spark names it. Null when there is none.
 */
export function joinScalarSubqueries(
  exprs: readonly Expr[],
  child: LogicalPlan,
  steps: Steps,
): { exprs: Expr[]; child: LogicalPlan } | null {
  if (!exprs.some(hasScalarSubquery)) return null;
  let plan = child;
  const out = exprs.map((e) =>
    transformUp(e, (x) => {
      if (!isScalarSubquery(x)) return x;
      const correlated = correlatedScalar(plan, (x as Call).subquery!, steps);
      if (correlated) {
        plan = correlated.plan;
        return correlated.value;
      }
      const one = oneRowOf((x as Call).subquery!, steps);
      plan = Plans.join(plan, one, "inner", null);
      return outputOf(one)[0]!;
    }),
  );
  return { exprs: out, child: plan };
}

/** An uncorrelated scalar subquery as a global aggregate of its one column (`__single_value`), named as Spark names it. */
function oneRowOf(subquery: LogicalPlan, steps: Steps): LogicalPlan {
  const sub = analyzeUncorrelated(subquery, steps);
  const cols = outputOf(sub);
  if (cols.length !== 1) {
    throw new AnalysisException(
      "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN",
      `[INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN] Invalid subquery: Scalar subquery must return only one column, but got ${cols.length}.`,
    );
  }
  return steps.analyze(Plans.aggregate([], [alias(call(SINGLE_VALUE, [cols[0]!]), "scalarsubquery()")], sub));
}

/**
 * Scalar subqueries in a HAVING condition over `agg`, joined above the aggregate: an
 * uncorrelated one as a one-row aggregate (each group once), a correlated one (naming the
 * aggregate's columns) decorrelated as in a WHERE (correlated-subqueries.ts). The condition reads
 * their columns (`beside`); `joinTo` makes the joins above the aggregate the HAVING's hidden
 * aggregates widened. Joined above, not below: a global aggregate of no rows keeps its row.
 */
export function havingScalarSubqueries(
  condition: Expr,
  agg: LogicalPlan,
  steps: Steps,
): { condition: Expr; beside: Attribute[]; joinTo: (widened: LogicalPlan) => LogicalPlan } {
  // the joins a WHERE's subqueries get, above the aggregate
  const joined = joinScalarSubqueries([condition], agg, steps);
  const plan = joined?.child ?? agg;
  const own = new Set(outputOf(agg).map((a) => a.exprId));
  return {
    condition: joined?.exprs[0] ?? condition,
    beside: outputOf(plan).filter((a) => !own.has(a.exprId)),
    joinTo: (widened) => transformPlanUp(plan, (n) => (n === agg ? widened : n)),
  };
}

/**
 * What an IN / EXISTS subquery joins the rows with, and on what (`nullAware`: NOT IN's `x = y OR
 * (x = y) IS NULL`); `{ scalar }` for a correlated IN whose select list aggregates (an equality
 * with that scalar subquery).
 */
function joinParts(left: LogicalPlan, e: Call, nullAware: boolean, steps: Steps): JoinParts | { scalar: Expr } {
  const correlated = e.name === "exists_subquery" ? correlatedExists(left, e.subquery!, steps) : correlatedIn(left, e, nullAware, steps);
  if (correlated) return correlated;
  const l = outputOf(left);
  // a subquery over the outer query's own table reads it under fresh ids (dedup-relations.ts)
  const right = withoutSharedAttributes(analyzeUncorrelated(e.subquery!, steps), l).plan;
  const r = outputOf(right);
  if (e.name === "exists_subquery") return { right, condition: literal(true, BooleanType) };
  if (r.length !== 1) {
    throw inSubqueryLengthMismatch(r.length);
  }
  // the value is the outer query's (resolved there first: a subquery column of the same name is not it)
  const equal = call("=", [steps.resolveExpr(e.args[0]!, l), r[0]!]);
  const cond = nullAware ? call("or", [equal, call("isnull", [equal])]) : equal;
  return { right, condition: steps.resolveExpr(cond, [...l, ...r]) };
}
