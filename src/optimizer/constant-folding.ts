/**
 * ConstantFolding: a deterministic call whose arguments are all literals is evaluated once at
 * planning time and replaced by its result.
 */

import { typeOf } from "../analyzer/types.js";
import { constantVector, getValue } from "../columnar/vector.js";
import { castVector, type EvalContext, lookupFunction } from "../functions/index.js";
import { type Expr, exprChildren, literal, transformUp } from "../plan/expressions.js";
import { transformPlanExpressions } from "./plan-expressions.js";
import type { Rule } from "./rule.js";

// Folding never depends on the session: functions that read the context are not foldable.
const FOLD_CTX: EvalContext = { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: false };
// The session decides ANSI mode at run time, so fold only what both modes agree on: an ANSI
// error (1 / 0, cast('a' as int)) throws here and the expression is left to fail at run time.
const ANSI_CTX: EvalContext = { ...FOLD_CTX, ansi: true };

function agreed(evalIn: (ctx: EvalContext) => unknown): unknown {
  const strict = evalIn(ANSI_CTX);
  const lax = evalIn(FOLD_CTX);
  if (!Object.is(strict, lax) && JSON.stringify(strict) !== JSON.stringify(lax)) throw new Error("ANSI-dependent result");
  return strict;
}

function fold(e: Expr): Expr {
  if (e.kind !== "call" && e.kind !== "cast") return e;
  const kids = exprChildren(e);
  if (kids.length === 0 || !kids.every((k) => k.kind === "literal")) return e;
  try {
    if (e.kind === "cast") {
      // Casts to/from timestamps depend on the session time zone: leave them.
      const from = (e.child as Expr & { kind: "literal" }).type;
      if (["timestamp", "date"].includes(from.kind) || ["timestamp", "date"].includes(e.to.kind)) return e;
      const c = e.child as Expr & { kind: "literal" };
      return literal(
        agreed((ctx) => getValue(castVector(constantVector(c.type, c.value, 1), e.to, 1, ctx), 0)),
        e.to,
      );
    }
    const fn = lookupFunction(e.name);
    if (fn?.kind !== "scalar" || fn.foldable === false || e.name.startsWith("__")) return e;
    const args = kids.map((k) => {
      const l = k as Expr & { kind: "literal" };
      return constantVector(l.type, l.value, 1);
    });
    const type = typeOf(e);
    if (["timestamp", "date"].includes(type.kind)) return e;
    return literal(
      agreed((ctx) => getValue(fn.kernel(args, 1, ctx), 0)),
      type,
    );
  } catch {
    // Errors (e.g. ANSI division by zero) must surface at run time, not while planning.
    return e;
  }
}

export const constantFolding: Rule = {
  name: "ConstantFolding",
  apply: (plan) => transformPlanExpressions(plan, (e) => transformUp(e, fold)),
};
