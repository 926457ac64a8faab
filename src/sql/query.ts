/**
 * SELECT statements → unresolved logical plans, shaped the way Spark's AstBuilder shapes them:
 * FROM (joins) → Filter (WHERE) → Aggregate | Project → Filter (HAVING) → Distinct, and for the
 * whole query (including UNIONs) → Sort (ORDER BY) → Limit.
 */

import { inlineTable } from "../analyzer/inline-table.js";
import { hasAggregateOutsideWindow } from "../analyzer/window-rules.js";
import {
  columnRef,
  type Expr,
  literal,
  type SortOrder,
  sortOrder,
  star,
  transformDown,
  type WindowExpr,
  windowExpr,
} from "../plan/expressions.js";
import { combineGroupingSets, cubeSets, type ExprSets, rollupSets } from "../plan/grouping-sets.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { NullType, sqlTypeName } from "../types/datatypes.js";
import type { Cursor } from "./cursor.js";
import { EXPRESSION_READERS, NON_EXPR_KEYWORDS, readExpression, readNamedExpression } from "./expression.js";
import type { Token } from "./lexer.js";
import { type CteScope, readColumnNames, readLateralViews, readRelation, readValuesRows } from "./relation.js";
import { setSubqueryReader } from "./subquery-syntax.js";
import { NAMED_WINDOW, readSortDirection, readWindowSpecBody } from "./window-spec.js";

interface QueryPart {
  readonly plan: LogicalPlan;
  /** Select list of the (first) SELECT, for ORDER BY ordinals; null for parenthesized queries. */
  readonly items: readonly Expr[] | null;
}

/** `[WITH ...] body [ORDER BY ...] [LIMIT n]`. */
export function readQuery(cur: Cursor, outer: CteScope = new Map()): LogicalPlan {
  const ctes = cur.isKeyword("WITH") ? readWith(cur, outer) : outer;
  const body = readSetExpression(cur, ctes);
  let plan = body.plan;
  if (cur.acceptKeyword("ORDER", "BY")) {
    const orders: SortOrder[] = [];
    if (cur.isKeyword("ALL")) orders.push(...orderByAll(cur, body.items));
    else {
      do orders.push(readSortItem(cur, body.items));
      while (cur.acceptOp(","));
    }
    plan = Plans.sort(orders, plan);
  }
  plan = readPartitioning(cur, body.items, plan, plan !== body.plan);
  const n = cur.acceptKeyword("LIMIT") ? readLimit(cur, "limit") : null;
  const offset = cur.acceptKeyword("OFFSET") ? (readLimit(cur, "offset") ?? 0) : 0;
  if (n !== null || offset > 0) plan = Plans.limit(n ?? Number.POSITIVE_INFINITY, plan, offset);
  return plan;
}

/** `WITH a AS (query), b AS (query)`: later CTEs and the body see earlier ones. */
function readWith(cur: Cursor, outer: CteScope): CteScope {
  cur.expectKeyword("WITH");
  if (cur.isKeyword("RECURSIVE")) throw cur.fail("[UNSUPPORTED_FEATURE] Recursive CTEs are not supported.");
  const scope = new Map(outer);
  do {
    const name = cur.identifier(NON_EXPR_KEYWORDS);
    // `WITH a(x, y) AS (...)`: the query's columns renamed, as `(SELECT ...) AS a(x, y)`
    const columns = cur.isOp("(") ? readColumnNames(cur) : undefined;
    cur.expectKeyword("AS");
    cur.expectOp("(");
    const plan = readQuery(cur, scope);
    cur.expectOp(")");
    scope.set(name.toLowerCase(), columns ? Plans.subqueryAlias(name, plan, columns) : plan);
  } while (cur.acceptOp(","));
  return scope;
}

/**
 * `CLUSTER BY k`, `DISTRIBUTE BY k`, `SORT BY k`: Spark's repartitioning by the keys and sorting
 * within each partition. arus's batch result is one partition, so DISTRIBUTE BY changes nothing
 * and SORT BY (CLUSTER BY: its keys ascending) sorts the result, one order Spark allows.
 */
function readPartitioning(cur: Cursor, items: readonly Expr[] | null, plan: LogicalPlan, ordered: boolean): LogicalPlan {
  const clause = ["CLUSTER", "DISTRIBUTE", "SORT"].find((k) => cur.isKeyword(k) && cur.isKeyword("BY", 1));
  if (clause && ordered) throw combinedResultClauses(cur);
  if (cur.acceptKeyword("CLUSTER", "BY")) {
    const keys: SortOrder[] = [];
    do keys.push(sortOrder(readExpression(cur)));
    while (cur.acceptOp(","));
    if (cur.isKeyword("DISTRIBUTE") || cur.isKeyword("SORT")) throw combinedResultClauses(cur);
    return Plans.sort(keys, plan);
  }
  if (cur.acceptKeyword("DISTRIBUTE", "BY")) {
    do readExpression(cur);
    while (cur.acceptOp(","));
  }
  if (!cur.acceptKeyword("SORT", "BY")) return plan;
  const orders: SortOrder[] = [];
  do orders.push(readSortItem(cur, items));
  while (cur.acceptOp(","));
  return Plans.sort(orders, plan);
}

function combinedResultClauses(cur: Cursor) {
  return cur.fail(
    "[UNSUPPORTED_FEATURE.COMBINATION_QUERY_RESULT_CLAUSES] The feature is not supported: Combination of ORDER BY/SORT BY/DISTRIBUTE BY/CLUSTER BY.",
  );
}

/**
 * SELECTs combined with UNION / EXCEPT (MINUS) [ALL | DISTINCT], left-associative; INTERSECT
 * binds tighter, as in Spark (spark.sql.legacy.setopsPrecedence.enabled = false).
 */
function readSetExpression(cur: Cursor, ctes: CteScope): QueryPart {
  const first = readIntersections(cur, ctes);
  let plan = first.plan;
  // Children of a run of UNION ALLs, flattened into one Union node.
  let allRun: LogicalPlan[] | null = null;
  for (;;) {
    const kw = setKeyword(cur);
    if (kw !== "UNION" && kw !== "EXCEPT" && kw !== "MINUS") break;
    cur.next();
    const all = readAll(cur);
    const right = readIntersections(cur, ctes).plan;
    if (kw !== "UNION") {
      allRun = null;
      plan = Plans.setOperation("except", all, plan, right);
    } else if (all) {
      allRun = allRun ? [...allRun, right] : [plan, right];
      plan = Plans.union(allRun);
    } else {
      allRun = null;
      plan = Plans.distinct(Plans.union([plan, right]));
    }
  }
  return { plan, items: first.items };
}

/** Query primaries combined with INTERSECT [ALL | DISTINCT]. */
function readIntersections(cur: Cursor, ctes: CteScope): QueryPart {
  const first = readQueryPrimary(cur, ctes);
  let plan = first.plan;
  while (setKeyword(cur) === "INTERSECT") {
    cur.next();
    const all = readAll(cur);
    plan = Plans.setOperation("intersect", all, plan, readQueryPrimary(cur, ctes).plan);
  }
  return { plan, items: first.items };
}

function setKeyword(cur: Cursor): string {
  const t = cur.peek();
  return t.kind === "ident" ? t.value.toUpperCase() : "";
}

/** `ALL` after a set operator; `DISTINCT` (the default) is accepted too. */
function readAll(cur: Cursor): boolean {
  const all = cur.acceptKeyword("ALL");
  if (!all) cur.acceptKeyword("DISTINCT");
  return all;
}

function readQueryPrimary(cur: Cursor, ctes: CteScope): QueryPart {
  if (cur.isKeyword("SELECT")) return readSelect(cur, ctes);
  // a bare `VALUES ...` is a query of its own (columns col1, col2, ...)
  if (cur.isKeyword("VALUES")) return { plan: inlineTable(readValuesRows(cur), null), items: null };
  // `TABLE t`: every column of t, as `SELECT * FROM t`
  if (cur.isKeyword("TABLE") && cur.isIdentifier(undefined, 1)) {
    cur.next();
    return { plan: Plans.project([star()], readRelation(cur, ctes, readQuery)), items: null };
  }
  if (cur.acceptOp("(")) {
    const plan = readQuery(cur, ctes);
    cur.expectOp(")");
    return { plan, items: null };
  }
  throw cur.error();
}

const ONE_ROW_BATCH = Object.freeze({ columns: Object.freeze([]), numRows: 1 });

/** The CTEs of the SELECT being read: a subquery in its expressions (IN / EXISTS) sees them. */
let selectCtes: CteScope = new Map();
setSubqueryReader((cur) => readQuery(cur, selectCtes));

function readSelect(cur: Cursor, ctes: CteScope): QueryPart {
  const outer = selectCtes;
  selectCtes = ctes;
  try {
    return readSelectIn(cur, ctes);
  } finally {
    selectCtes = outer;
  }
}

function readSelectIn(cur: Cursor, ctes: CteScope): QueryPart {
  cur.expectKeyword("SELECT");
  const distinct = cur.acceptKeyword("DISTINCT");
  if (!distinct) cur.acceptKeyword("ALL");
  const items: Expr[] = [];
  do items.push(readNamedExpression(cur));
  while (cur.acceptOp(","));

  // Without FROM, Spark selects from a one-row, zero-column relation.
  let plan: LogicalPlan = Plans.localRelation([], [ONE_ROW_BATCH]);
  if (cur.acceptKeyword("FROM")) {
    plan = readRelation(cur, ctes, readQuery);
    // `FROM a, b` is an inner join without condition (Spark's plan for comma joins).
    while (cur.acceptOp(",")) plan = Plans.join(plan, readRelation(cur, ctes, readQuery), "inner", null);
    plan = readLateralViews(cur, plan);
  }
  if (cur.acceptKeyword("WHERE")) plan = Plans.filter(readExpression(cur), plan);

  let groups: Expr[] | null = null;
  let sets: number[][] | null = null;
  if (cur.acceptKeyword("GROUP", "BY")) {
    if (cur.acceptKeyword("ALL")) groups = groupByAll(cur, items);
    else ({ exprs: groups, sets } = readGroupBy(cur, items));
  }
  const having = cur.acceptKeyword("HAVING") ? readExpression(cur) : null;
  let qualify = cur.acceptKeyword("QUALIFY") ? readExpression(cur) : null;
  const named = cur.acceptKeyword("WINDOW") ? readWindowClause(cur) : new Map<string, Spec>();
  if (qualify === null && cur.acceptKeyword("QUALIFY")) qualify = readExpression(cur);
  items.splice(0, items.length, ...items.map((e) => substituteNamedWindows(cur, e, named)));
  if (qualify !== null) qualify = substituteNamedWindows(cur, qualify, named);

  // HAVING without GROUP BY makes the select a global aggregate, as in Spark.
  if (groups !== null || having !== null) plan = Plans.aggregate(groups ?? [], items, plan, sets);
  else plan = Plans.project(items, plan, qualify ?? undefined);
  if (having !== null) plan = Plans.filter(having, plan);
  // QUALIFY over an aggregate: over its output columns (the select list's names)
  if (qualify !== null && plan.kind !== "project") plan = Plans.project([star()], plan, qualify);
  if (distinct) plan = Plans.distinct(plan);
  return { plan, items };
}

type Spec = Pick<WindowExpr, "partitionBy" | "orderBy" | "frame">;

/** `WINDOW w AS (spec), w2 AS (spec)`. */
function readWindowClause(cur: Cursor): Map<string, Spec> {
  const m = new Map<string, Spec>();
  do {
    const name = cur.identifier(NON_EXPR_KEYWORDS).toLowerCase();
    cur.expectKeyword("AS");
    if (cur.isIdentifier(NON_EXPR_KEYWORDS) && !cur.isOp("(")) {
      const other = m.get(cur.identifier().toLowerCase());
      if (!other) throw cur.fail(`[MISSING_WINDOW_SPECIFICATION] Window specification ${name} is not defined in the WINDOW clause.`);
      m.set(name, other);
      continue;
    }
    cur.expectOp("(");
    m.set(name, readWindowSpecBody(cur, EXPRESSION_READERS));
    cur.expectOp(")");
  } while (cur.acceptOp(","));
  return m;
}

/** `fn OVER w` → `fn OVER (w's specification)`. */
function substituteNamedWindows(cur: Cursor, e: Expr, named: ReadonlyMap<string, Spec>): Expr {
  return transformDown(e, (x) => {
    if (x.kind !== "windowExpr") return x;
    const ref = x.partitionBy[0];
    if (!(ref?.kind === "call" && ref.name === NAMED_WINDOW)) return x;
    const name = String((ref.args[0] as Expr & { kind: "literal" }).value);
    const spec = named.get(name.toLowerCase());
    if (!spec) {
      throw cur.fail(
        `[MISSING_WINDOW_SPECIFICATION] Window specification ${name} is not defined in the WINDOW clause for WINDOW_EXPRESSION. For more information about WINDOW clauses, please refer to 'https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-window.html'.`,
      );
    }
    return windowExpr(x.fn, spec.partitionBy, spec.orderBy, spec.frame);
  });
}

/**
 * GROUP BY: expressions (or select-list positions), ROLLUP(...), CUBE(...), GROUPING SETS(...),
 * mixed (the cross product of each element's sets), or `... WITH ROLLUP | CUBE`. Plain
 * expressions give `sets` null.
 */
function readGroupBy(cur: Cursor, items: readonly Expr[]): { exprs: Expr[]; sets: number[][] | null } {
  const elements: ExprSets[] = [];
  let analytics = false;
  do {
    const t = cur.peek();
    const kw = t.kind === "ident" ? t.value.toUpperCase() : "";
    if ((kw === "ROLLUP" || kw === "CUBE") && cur.isOp("(", 1)) {
      cur.next();
      const list = readGroupingList(cur);
      elements.push(kw === "ROLLUP" ? rollupSets(list) : cubeSets(list));
      analytics = true;
      continue;
    }
    if (kw === "GROUPING" && cur.isKeyword("SETS", 1)) {
      cur.next();
      cur.next();
      elements.push(readGroupingList(cur));
      analytics = true;
      continue;
    }
    const e = readExpression(cur);
    elements.push([[ordinalIndex(e) === null ? e : groupByOrdinal(cur, t, e, items)]]);
  } while (cur.acceptOp(","));
  if (cur.isKeyword("WITH") && (cur.isKeyword("ROLLUP", 1) || cur.isKeyword("CUBE", 1))) {
    cur.next();
    const rollup = cur.next().value.toUpperCase() === "ROLLUP";
    if (analytics) throw cur.fail("[INVALID_SQL_SYNTAX] WITH ROLLUP / WITH CUBE cannot follow ROLLUP, CUBE or GROUPING SETS.");
    const list = elements.map((el) => el[0]!);
    return { ...combineGroupingSets([rollup ? rollupSets(list) : cubeSets(list)]) };
  }
  if (!analytics) return { exprs: elements.map((el) => el[0]![0]!), sets: null };
  return combineGroupingSets(elements);
}

/** `( element, ... )` where an element is an expression or a parenthesized (possibly empty) column group. */
function readGroupingList(cur: Cursor): Expr[][] {
  cur.expectOp("(");
  const out: Expr[][] = [];
  do {
    if (cur.acceptOp("(")) {
      const group: Expr[] = [];
      if (!cur.isOp(")")) {
        do group.push(readExpression(cur));
        while (cur.acceptOp(","));
      }
      cur.expectOp(")");
      out.push(group);
    } else out.push([readExpression(cur)]);
  } while (cur.acceptOp(","));
  cur.expectOp(")");
  return out;
}

/**
 * GROUP BY ALL (Spark 4): the select list's items without an aggregate (outside OVER), as they
 * are written; none makes a global aggregate.
 */
function groupByAll(cur: Cursor, items: readonly Expr[]): Expr[] {
  if (items.some((e) => e.kind === "star")) throw cur.fail("[UNSUPPORTED_FEATURE] GROUP BY ALL with a star (*) in the select list.");
  return items.filter((e) => !hasAggregateOutsideWindow(e)).map((e) => (e.kind === "alias" ? e.child : e));
}

/** ORDER BY ALL [ASC | DESC] [NULLS FIRST | LAST] (Spark 4): every output column, left to right, in the one direction. */
function orderByAll(cur: Cursor, items: readonly Expr[] | null): SortOrder[] {
  const at = cur.next();
  const direction = readSortDirection(cur, literal(null, NullType));
  if (items === null) throw cur.fail("[UNSUPPORTED_FEATURE] ORDER BY ALL over a parenthesized query.", at);
  return items.map((_, i) => ({
    ...sortOrder(orderByOrdinal(cur, at, i + 1, items), direction.ascending, direction.nullsFirst),
    ordinal: i + 1,
  }));
}

/** An integer literal in GROUP BY / ORDER BY is a 1-based position in the select list. */
function ordinalIndex(e: Expr): number | null {
  return e.kind === "literal" && e.type.kind === "int" && typeof e.value === "number" ? e.value : null;
}

function groupByOrdinal(cur: Cursor, at: Token, e: Expr, items: readonly Expr[]): Expr {
  const pos = ordinalIndex(e)!;
  if (pos < 1 || pos > items.length) {
    throw cur.fail(`[GROUP_BY_POS_OUT_OF_RANGE] GROUP BY position ${pos} is not in select list (valid range is [1, ${items.length}]).`, at);
  }
  const item = items[pos - 1]!;
  if (item.kind === "star") {
    throw cur.fail("[STAR_GROUP_BY_POS] Star (*) is not allowed in a select list when GROUP BY an ordinal position is used.", at);
  }
  return item.kind === "alias" ? item.child : item;
}

function readSortItem(cur: Cursor, items: readonly Expr[] | null): SortOrder {
  const at = cur.peek();
  const e = readExpression(cur);
  const pos = ordinalIndex(e);
  if (pos === null) return readSortDirection(cur, e);
  return { ...readSortDirection(cur, orderByOrdinal(cur, at, pos, items)), ordinal: pos };
}

/**
 * ORDER BY n sorts by the n-th output column. The Sort sits above the projection, so a named
 * item is referenced by its output name; an unnamed one repeats its expression.
 */
function orderByOrdinal(cur: Cursor, at: Token, pos: number, items: readonly Expr[] | null): Expr {
  if (items === null) throw cur.fail("[UNSUPPORTED_FEATURE] ORDER BY position over a parenthesized query.", at);
  if (pos < 1 || pos > items.length) {
    throw cur.fail(`[ORDER_BY_POS_OUT_OF_RANGE] ORDER BY position ${pos} is not in select list (valid range is [1, ${items.length}]).`, at);
  }
  const item = items[pos - 1]!;
  if (item.kind === "star") throw cur.fail("[UNSUPPORTED_FEATURE] ORDER BY position of a star (*) item.", at);
  return item.kind === "alias" ? columnRef([item.name]) : item;
}

/** The non-negative integer literal of LIMIT or OFFSET (`LIMIT ALL`: null, no limit). */
function readLimit(cur: Cursor, what: "limit" | "offset"): number | null {
  if (what === "limit" && cur.acceptKeyword("ALL")) return null;
  const at = cur.peek();
  const e = readExpression(cur);
  if (e.kind !== "literal") {
    throw cur.fail(
      `[INVALID_LIMIT_LIKE_EXPRESSION.IS_UNFOLDABLE] The limit like expression "${exprToSql(e)}" is invalid. The ${what} expression must evaluate to a constant value.`,
      at,
    );
  }
  if (e.type.kind !== "int" && e.type.kind !== "bigint") {
    throw cur.fail(
      `[INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE] The limit like expression "${exprToSql(e)}" is invalid. The ${what} expression must be integer type, but got "${sqlTypeName(e.type)}".`,
      at,
    );
  }
  const n = e.value as number;
  if (n < 0) {
    throw cur.fail(
      `[INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE] The limit like expression "${n}" is invalid. ` +
        `The ${what} expression must be equal to or greater than 0, but got ${n}.`,
      at,
    );
  }
  return n;
}
