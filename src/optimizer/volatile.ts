/**
 * Non-determinism as push-down sees it: plan/volatile.ts counts every internal `__` function as
 * volatile, but `__time_window` / `__session_window` (what window() and session_window() become,
 * time-windows.ts; `__interval_micros` reads a dynamic gap) are pure functions of the row. Spark
 * pushes filters through its TimeWindowing / SessionWindowing projections, so a filter on a
 * grouping key of a windowed aggregation reaches the scan; a window call must not stop it.
 */
import type { Expr } from "../plan/expressions.js";
import { callsVolatile } from "../plan/volatile.js";

const PURE = new Set(["__time_window", "__session_window", "__interval_micros"]);

/** isVolatile with the window calls pure (a rand() among their arguments still counts). */
export const isNonDeterministic = (e: Expr): boolean => callsVolatile(e, PURE);
