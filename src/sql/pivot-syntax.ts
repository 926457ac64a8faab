/**
 * The PIVOT and UNPIVOT clauses after a FROM relation (Spark's pivotClause and unpivotClause);
 * the analyzer expands them (analyzer/pivot-rules.ts).
 */
import { columnRef, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, type PivotEntry, Plans } from "../plan/logical.js";
import type { Cursor } from "./cursor.js";
import { readExpression, readNamedExpression } from "./expression.js";

/** `plan` under any PIVOT / UNPIVOT clauses that follow it (each may then take an alias: `readAlias`). */
export function readPivotClauses(cur: Cursor, plan: LogicalPlan, readAlias: (cur: Cursor) => string | null): LogicalPlan {
  for (;;) {
    if (cur.acceptKeyword("PIVOT")) plan = readPivot(cur, plan);
    else if (cur.isKeyword("UNPIVOT")) plan = readUnpivot(cur, plan);
    else return plan;
    const alias = readAlias(cur);
    if (alias !== null) plan = Plans.subqueryAlias(alias, plan);
  }
}

/** `PIVOT (agg [AS name], ... FOR col | (c1, c2) IN (value [AS name] | (v1, v2) [AS name], ...))`. */
function readPivot(cur: Cursor, child: LogicalPlan): LogicalPlan {
  cur.expectOp("(");
  const aggregates = [readNamedExpression(cur)];
  while (cur.acceptOp(",")) aggregates.push(readNamedExpression(cur));
  cur.expectKeyword("FOR");
  // names only (Spark's pivotColumn): an expression would swallow the IN
  const pivotColumns = readTuple(cur, readColumnName);
  const values = readEntries(cur, pivotColumns.length > 1);
  return Plans.pivot(aggregates, pivotColumns, values, child);
}

/** `UNPIVOT [INCLUDE | EXCLUDE NULLS] (val | (v1, v2) FOR name IN (col [AS n] | (c1, c2) [AS n], ...))`. */
function readUnpivot(cur: Cursor, child: LogicalPlan): LogicalPlan {
  cur.expectKeyword("UNPIVOT");
  let includeNulls = false;
  if (cur.acceptKeyword("INCLUDE")) {
    cur.expectKeyword("NULLS");
    includeNulls = true;
  } else if (cur.acceptKeyword("EXCLUDE")) cur.expectKeyword("NULLS");
  cur.expectOp("(");
  const valueColumns = readTuple(cur, (c) => c.identifier());
  cur.expectKeyword("FOR");
  const nameColumn = cur.identifier();
  const columns = readEntries(cur, valueColumns.length > 1);
  return Plans.unpivot(valueColumns, nameColumn, columns, includeNulls, child);
}

/** `IN (entry, ...)` and the clause's closing parenthesis. */
function readEntries(cur: Cursor, tuple: boolean): PivotEntry[] {
  cur.expectKeyword("IN");
  cur.expectOp("(");
  const entries = [readEntry(cur, tuple)];
  while (cur.acceptOp(",")) entries.push(readEntry(cur, tuple));
  cur.expectOp(")");
  cur.expectOp(")");
  return entries;
}

/** `c` or `t.c`. */
function readColumnName(cur: Cursor): Expr {
  const parts = [cur.identifier()];
  while (cur.acceptOp(".")) parts.push(cur.identifier());
  return columnRef(parts);
}

/** `x` or `(x, y, ...)`. */
function readTuple<T>(cur: Cursor, read: (cur: Cursor) => T): T[] {
  if (!cur.acceptOp("(")) return [read(cur)];
  const out = [read(cur)];
  while (cur.acceptOp(",")) out.push(read(cur));
  cur.expectOp(")");
  return out;
}

/** One IN entry: an expression (a tuple when `tuple`) and its optional name (`AS name` or `name`). */
function readEntry(cur: Cursor, tuple: boolean): PivotEntry {
  let exprs: Expr[];
  if (tuple) {
    // several columns take a parenthesized tuple per entry (Spark's grammar: `missing '('` otherwise)
    cur.expectOp("(");
    exprs = [readExpression(cur)];
    while (cur.acceptOp(",")) exprs.push(readExpression(cur));
    cur.expectOp(")");
  } else exprs = [readExpression(cur)];
  const alias = cur.acceptKeyword("AS") ? cur.identifier() : cur.isIdentifier() && !cur.isOp(",") ? cur.identifier() : null;
  return { exprs, alias };
}
