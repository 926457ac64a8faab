/**
 * LikeSimplification (Spark's rule of that name): a LIKE whose pattern is a literal without `_`
 * and with `%` only at its ends becomes a cheaper string predicate — `'ab%'` StartsWith,
 * `'%yz'` EndsWith, `'%m%'` Contains, `'ab%yz'` length >= 4 AND StartsWith AND EndsWith,
 * `'abc'` =. Patterns with the escape character are left alone. This is also what makes
 * `LIKE 'prefix%'` a filter the file scans take (StartsWith is pushable, LIKE is not).
 */
import { call, type Expr, literal, transformUp } from "../plan/expressions.js";
import { IntegerType, StringType } from "../types/datatypes.js";
import { transformPlanExpressions } from "./plan-expressions.js";
import type { Rule } from "./rule.js";

const PLAIN = "[^_%\\\\]";
const STARTS = new RegExp(`^(${PLAIN}+)%$`, "s");
const ENDS = new RegExp(`^%(${PLAIN}+)$`, "s");
const STARTS_ENDS = new RegExp(`^(${PLAIN}+)%(${PLAIN}+)$`, "s");
const CONTAINS = new RegExp(`^%(${PLAIN}+)%$`, "s");
const EQUALS = new RegExp(`^(${PLAIN}*)$`, "s");

/** The simpler predicate for `input LIKE pattern`, or null when Spark keeps the LIKE. */
export function simplifyLike(input: Expr, pattern: string): Expr | null {
  const str = (s: string) => literal(s, StringType);
  let m: RegExpExecArray | null;
  if ((m = STARTS.exec(pattern))) return call("startswith", [input, str(m[1]!)]);
  if ((m = ENDS.exec(pattern))) return call("endswith", [input, str(m[1]!)]);
  if ((m = STARTS_ENDS.exec(pattern))) {
    const [prefix, suffix] = [m[1]!, m[2]!];
    return call("and", [
      call(">=", [call("length", [input]), literal(prefix.length + suffix.length, IntegerType)]),
      call("and", [call("startswith", [input, str(prefix)]), call("endswith", [input, str(suffix)])]),
    ]);
  }
  if ((m = CONTAINS.exec(pattern))) return call("contains", [input, str(m[1]!)]);
  if ((m = EQUALS.exec(pattern))) return call("=", [input, str(m[1]!)]);
  return null;
}

function rewrite(e: Expr): Expr {
  return transformUp(e, (x) => {
    if (x.kind !== "call" || x.name !== "like" || x.args.length !== 2) return x;
    const p = x.args[1]!;
    if (p.kind !== "literal" || p.type.kind !== "string" || typeof p.value !== "string") return x;
    return simplifyLike(x.args[0]!, p.value) ?? x;
  });
}

export const likeSimplification: Rule = {
  name: "LikeSimplification",
  apply: (plan) => transformPlanExpressions(plan, rewrite),
};
