/**
 * Non-determinism as push-down sees it: plan/volatile.ts counts every internal `__` function as
 * volatile, but `__time_window` (what window() becomes, time-windows.ts) is a pure function of
 * the row's time. Spark pushes filters through its TimeWindowing projection, so a filter on a
 * grouping key of a windowed aggregation reaches the scan; a window() call must not stop it.
 */
import { type Expr, transformUp } from "../plan/expressions.js";
import { isVolatile } from "../plan/volatile.js";

export function isNonDeterministic(e: Expr): boolean {
  return isVolatile(transformUp(e, (x) => (x.kind === "call" && x.name === "__time_window" ? x.args[0]! : x)));
}
