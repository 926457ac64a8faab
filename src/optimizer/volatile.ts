/**
 * Non-determinism as push-down sees it: plan/volatile.ts counts every internal `__` function as
 * volatile, but `__time_window` / `__session_window` (what window() and session_window() become,
 * time-windows.ts; `__interval_micros` reads a dynamic gap) are pure functions of the row. Spark
 * pushes filters through its TimeWindowing / SessionWindowing projections, so a filter on a
 * grouping key of a windowed aggregation reaches the scan; a window call must not stop it.
 */
import { type Expr, transformUp } from "../plan/expressions.js";
import { isVolatile } from "../plan/volatile.js";

const PURE = new Set(["__time_window", "__session_window", "__interval_micros"]);

export function isNonDeterministic(e: Expr): boolean {
  // Each pure call is replaced by a stand-in that keeps its arguments (a rand() inside counts).
  return isVolatile(transformUp(e, (x) => (x.kind === "call" && PURE.has(x.name) ? { ...x, name: "array" } : x)));
}
