/**
 * Non-deterministic expressions (Spark's `deterministic = false`): a filter over one cannot move
 * (pushed down, inferred from, or evaluated on one join side first), since that changes how
 * many times and on which rows it runs.
 */
import { anyExpr, type Expr } from "./expressions.js";

const VOLATILE = new Set(["current_timestamp", "current_date", "current_watermark", "rand", "now"]);

/**
 * Does `e` call a non-deterministic function (or an internal `__` one, which may keep state)?
 * `unix_timestamp()` without arguments is the current time; of a column it is deterministic.
 */
export const isVolatile = (e: Expr): boolean =>
  anyExpr(
    e,
    (x) => x.kind === "call" && (VOLATILE.has(x.name) || x.name.startsWith("__") || (x.name === "unix_timestamp" && x.args.length === 0)),
  );
