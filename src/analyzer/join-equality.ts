/**
 * Does a stream-stream join's condition equate the two sides? Spark plans such a join only as a
 * hash join on keys, so it refuses one without an equality ("Stream-stream join without equality
 * predicate is not supported"); the check reads the condition as Spark's optimizer leaves it.
 */
import { type Attribute, call, collectAttributes, conjuncts, type Expr } from "../plan/expressions.js";

/**
 * Does a conjunct of `condition` equate an expression of each side (`=`, `<=>`)? As Spark's
 * optimizer sees it before planning the join by its keys: `NOT (a != b)`, `NOT (NOT (a = b))`
 * and `(a = b) = true` are equalities, and so are what it folds to one (`x OR false`,
 * `IF(true, x, _)`, `(x) IN (true)`, NOT over OR); `a != b`, `NOT (a = b)`, `(a = b) = false`, an
 * equality under a real OR, CASE or coalesce are not (PySpark 4.3 refuses those).
 */
export function comparesSides(condition: Expr | null, left: readonly Attribute[], right: readonly Attribute[]): boolean {
  if (condition === null) return false;
  const ids = (cols: readonly Attribute[]) => new Set(cols.map((a) => a.exprId));
  const [l, r] = [ids(left), ids(right)];
  const only = (e: Expr, side: Set<number>) => {
    const used = collectAttributes(e);
    return used.length > 0 && used.every((a) => side.has(a.exprId));
  };
  const across = (a: Expr, b: Expr) => (only(a, l) && only(b, r)) || (only(a, r) && only(b, l));
  // `negated`: under an odd number of NOTs
  const equates = (e: Expr, negated: boolean): boolean => {
    if (e.kind === "caseWhen") {
      const first = e.branches[0];
      return first !== undefined && constant(first[0]) === true && equates(first[1], negated);
    }
    if (e.kind !== "call") return false;
    const [a, b] = e.args as [Expr, Expr];
    if (e.name === "not" && e.args.length === 1) return equates(a, !negated);
    // an AND (or a negated OR, De Morgan) is conjuncts: one of them equating the sides is enough
    if ((e.name === "and" && !negated) || (e.name === "or" && negated)) return equates(a, negated) || equates(b, negated);
    // what Spark's optimizer folds away before it looks for keys: `x OR false`, `x AND true`,
    // `IF(true, x, _)`, `CASE WHEN true THEN x END`, `x IN (true)`
    if ((e.name === "or" && !negated) || (e.name === "and" && negated)) {
      const keep = e.name !== "or";
      if (constant(b) === keep) return equates(a, negated);
      if (constant(a) === keep) return equates(b, negated);
      return false;
    }
    if (e.name === "in" && e.args.length === 2 && constant(b) !== null) return equates(constant(b) ? a : call("not", [a]), negated);
    if (e.args.length !== 2) return false;
    // x = true, x != false, x = false, x != true: x, or NOT x
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const c = constant(y);
      if (c !== null && (e.name === "=" || e.name === "!=" || e.name === "<=>"))
        return equates(x, e.name === "!=" ? negated !== c : negated !== !c);
    }
    if (e.name === "!=") return negated && across(a, b);
    if (e.name === "<=>" || e.name === "=") return !negated && across(a, b);
    return false;
  };
  return conjuncts(condition).some((c) => equates(c, false));
}

/** A boolean that folds to a constant: `true`, `false`, `1 = 1`, `NOT false`; null when it does not. */
function constant(e: Expr): boolean | null {
  if (e.kind === "literal") return typeof e.value === "boolean" ? e.value : null;
  if (e.kind !== "call") return null;
  if (e.name === "not" && e.args.length === 1) {
    const c = constant(e.args[0]!);
    return c === null ? null : !c;
  }
  const [a, b] = e.args;
  if ((e.name === "=" || e.name === "!=") && a?.kind === "literal" && b?.kind === "literal" && a.value !== null && b.value !== null) {
    return (a.value === b.value) === (e.name === "=");
  }
  return null;
}
