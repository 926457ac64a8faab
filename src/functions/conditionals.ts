/**
 * `if(cond, a, b)` in SQL text: analysed as `CASE WHEN cond THEN a ELSE b END`, so only the
 * chosen branch is evaluated per row (as Spark's If), after If's own check that the condition
 * is a BOOLEAN.
 */
import { caseWhen, type Expr } from "../plan/expressions.js";
import { checkArity, typeMismatch } from "./registry.js";
import { typeOf } from "./typing.js";

/** The CASE WHEN an `if(...)` call stands for; throws Spark's errors for a bad call. */
export function ifToCaseWhen(e: Expr & { kind: "call" }): Expr {
  checkArity("if", e.args, 3);
  const [cond, yes, no] = e.args as [Expr, Expr, Expr];
  const t = typeOf(cond);
  const ifExpr = caseWhen([[cond, yes]], no, true);
  // named as Spark names If: `(IF(c, a, b))`
  if (t.kind !== "boolean" && t.kind !== "null") throw typeMismatch(ifExpr, 0, '"BOOLEAN"', cond, t);
  return ifExpr;
}
