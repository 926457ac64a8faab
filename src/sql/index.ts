/**
 * Spark SQL parsing entry points. Everything here produces unresolved plan data; names and
 * functions are checked later by the analyzer.
 */

import { ParseException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import type { LogicalPlan } from "../plan/logical.js";
import { Cursor, type SqlParameters } from "./cursor.js";
import { readNamedExpression } from "./expression.js";
import { readQuery } from "./query.js";

export { checkModifiable, isRuntimeSetting, sessionConfGuard } from "./conf-rules.js";
export type { SqlParameters } from "./cursor.js";
export { parseDataType, parseSchema } from "./datatype.js";
export { type Token, tokenize } from "./lexer.js";
export { readStatement, type Statement } from "./statement.js";

/**
 * One expression as used by `F.expr`, `selectExpr` and `filter("...")`. Like Spark's
 * `parseExpression`, a trailing alias (`a + 1 AS b` or `a + 1 b`) yields an Alias node.
 */
export function parseExpression(text: string): Expr {
  const cur = new Cursor(text);
  if (cur.atEnd()) throw emptyStatement(text);
  const e = readNamedExpression(cur);
  cur.expectEnd();
  return e;
}

/**
 * A SELECT query (with UNION, JOIN, GROUP BY, ... ) → unresolved logical plan; `params` bind
 * its `:name` / `?` markers.
 */
export function parseQuery(text: string, params?: SqlParameters): LogicalPlan {
  const cur = new Cursor(text, params);
  if (cur.atEnd()) throw emptyStatement(text);
  const plan = readQuery(cur);
  cur.expectEnd();
  return plan;
}

function emptyStatement(text: string): ParseException {
  return new ParseException("[PARSE_EMPTY_STATEMENT] Syntax error, unexpected empty statement.", text, 0);
}
