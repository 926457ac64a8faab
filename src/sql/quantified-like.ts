/**
 * SQL's quantified LIKE: `x [NOT] LIKE | ILIKE ANY | SOME | ALL (p, ...)` (read by
 * expression.ts after the LIKE / ILIKE keyword).
 */
import { call, type Expr } from "../plan/expressions.js";
import type { Cursor } from "./cursor.js";
import { readExpression } from "./expression.js";

/**
 * `x [NOT] LIKE | ILIKE ANY | SOME | ALL (p, ...)` as the ORs (ANY, SOME) or ANDs (ALL) of
 * `[NOT] x LIKE p`, which is Spark's LikeAny / LikeAll / NotLikeAny / NotLikeAll with SQL's
 * three-valued logic for a NULL pattern; NOT applies to each pattern (NOT LIKE ANY: some
 * pattern does not match). Named as Spark names them: `likeany(x)` (`likeany(lower(x))` for
 * ILIKE) when every pattern is a string literal, else the expression itself.
 */
export function readQuantifiedLike(cur: Cursor, value: Expr, ilike: boolean, not: boolean): Expr {
  const all = cur.next().value.toUpperCase() === "ALL";
  cur.expectOp("(");
  if (cur.isOp(")"))
    throw cur.fail("[INVALID_SQL_SYNTAX.EMPTY_QUANTIFIED_PATTERN] Invalid SQL syntax: Expected something between '(' and ')'.");
  const patterns = [readExpression(cur)];
  while (cur.acceptOp(",")) patterns.push(readExpression(cur));
  cur.expectOp(")");
  const parts = patterns.map((p) => {
    const like = call(ilike ? "ilike" : "like", [value, p]);
    return not ? call("not", [like]) : like;
  });
  const chain = parts.reduce((acc, p) => call(all ? "and" : "or", [acc, p]));
  if (!patterns.every((p) => p.kind === "literal" && typeof p.value === "string")) return chain;
  const name = `${not ? "not" : ""}like${all ? "all" : "any"}`;
  return Object.freeze({ ...(chain as Expr & { kind: "call" }), quantifiedLike: { name, value: ilike ? call("lower", [value]) : value } });
}
