/**
 * Subqueries inside expressions (`x IN (SELECT ...)`, `EXISTS (SELECT ...)`, `(SELECT ...)`):
 * the query is read by query.ts's reader, registered here when query.ts loads (it imports the
 * expression reader, so the expression reader cannot import it back).
 */
import type { LogicalPlan } from "../plan/logical.js";
import type { Cursor } from "./cursor.js";

/** Reads a query (`SELECT ...` / `WITH ...`) in the enclosing query's CTE scope: set by query.ts (which imports this module). */
let reader: ((cur: Cursor) => LogicalPlan) | null = null;
export function setSubqueryReader(read: (cur: Cursor) => LogicalPlan): void {
  reader = read;
}

/** `(SELECT ...)` after IN or EXISTS: the query, unresolved. */
export function readSubquery(cur: Cursor): LogicalPlan {
  cur.expectOp("(");
  const plan = subqueryReader(cur);
  cur.expectOp(")");
  return plan;
}

/** The query at the cursor (`SELECT ...` / `WITH ...`), read in the enclosing query's CTE scope. */
export function subqueryReader(cur: Cursor): LogicalPlan {
  if (reader === null) throw new Error("no query reader registered (src/sql/query.ts sets it)");
  return reader(cur);
}
