/**
 * Grouping sets of ROLLUP, CUBE and GROUPING SETS, as lists of expressions, and how a GROUP BY
 * list mixing them with plain expressions combines (Spark: the cross product of every
 * element's sets). The Aggregate keeps the distinct expressions and each set as positions.
 */
import type { Expr } from "./expressions.js";
import { semanticKey } from "./semantic.js";

export type ExprSets = readonly (readonly Expr[])[];

/** ROLLUP(a, b, c): (a, b, c), (a, b), (a), (). Elements may be column groups. */
export function rollupSets(elements: readonly (readonly Expr[])[]): ExprSets {
  const out: Expr[][] = [];
  for (let i = elements.length; i >= 0; i--) out.push(elements.slice(0, i).flat());
  return out;
}

/** CUBE(a, b): (a, b), (a), (b), () — Spark's order. */
export function cubeSets(elements: readonly (readonly Expr[])[]): ExprSets {
  if (elements.length === 0) return [[]];
  const rest = cubeSets(elements.slice(1));
  return [...rest.map((s) => [...elements[0]!, ...s]), ...rest];
}

/** The cross product of each GROUP BY element's sets; the distinct expressions and each set as positions. */
export function combineGroupingSets(elements: readonly ExprSets[]): { exprs: Expr[]; sets: number[][] } {
  let product: Expr[][] = [[]];
  for (const sets of elements) product = product.flatMap((p) => sets.map((s) => [...p, ...s]));
  const exprs: Expr[] = [];
  const keys: string[] = [];
  const position = (e: Expr): number => {
    const k = semanticKey(e);
    let i = keys.indexOf(k);
    if (i < 0) {
      i = keys.length;
      keys.push(k);
      exprs.push(e);
    }
    return i;
  };
  for (const sets of elements) for (const s of sets) for (const e of s) position(e);
  return { exprs, sets: product.map((s) => [...new Set(s.map(position))]) };
}
