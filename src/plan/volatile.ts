/**
 * Non-deterministic expressions (Spark's `deterministic = false`): a filter over one cannot move
 * (pushed down, inferred from, or evaluated on one join side first), since that changes how
 * many times and on which rows it runs.
 */
import { anyExpr, type Expr } from "./expressions.js";

const VOLATILE = new Set(["current_timestamp", "current_date", "current_watermark", "rand", "now"]);

const NO_PURE: ReadonlySet<string> = new Set();

/**
 * Does `e` call a non-deterministic function (or an internal `__` one, which may keep state)?
 * `unix_timestamp()` without arguments is the current time; of a column it is deterministic.
 */
export const isVolatile = (e: Expr): boolean => callsVolatile(e, NO_PURE);

/** isVolatile, with the internal functions in `pureInternal` known to be pure functions of the row. */
export function callsVolatile(e: Expr, pureInternal: ReadonlySet<string>): boolean {
  return anyExpr(
    e,
    (x) =>
      x.kind === "call" &&
      (VOLATILE.has(x.name) ||
        (x.name.startsWith("__") && !pureInternal.has(x.name)) ||
        (x.name === "unix_timestamp" && x.args.length === 0)),
  );
}
