/**
 * Which expressions a worker thread can rebuild from their cloned form and evaluate with the
 * main thread's result: built-in functions that are deterministic (a user function lives in
 * the main thread's registry only; rand() and the like would give other values), no window
 * functions, nothing left unresolved. Stage A and the scan tasks on the decode threads, and a
 * stream-stream join's condition on the state threads, need it.
 */
import { lookupFunction } from "../functions/index.js";
import { isNotFoldable } from "../functions/registry.js";
import { anyExpr, type Expr } from "../plan/expressions.js";

export function rebuildableOnThread(e: Expr): boolean {
  return !anyExpr(e, (x) => {
    if (x.kind === "call") {
      const fn = lookupFunction(x.name);
      if (!fn) return true;
      if (isNotFoldable(x.name)) return true;
      if (fn.kind === "window") return true;
    }
    return x.kind === "windowExpr" || x.kind === "star" || x.kind === "column";
  });
}
