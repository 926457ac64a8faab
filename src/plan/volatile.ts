/**
 * Non-deterministic expressions (Spark's `deterministic = false`): a filter over one cannot move
 * (pushed down, inferred from, or evaluated on one join side first), since that changes how
 * many times and on which rows it runs.
 */
import { anyExpr, type Expr } from "./expressions.js";

const VOLATILE = new Set(["current_timestamp", "current_date", "current_watermark", "rand", "unix_timestamp", "now"]);

/** Does `e` call a non-deterministic function (or an internal `__` one, which may keep state)? */
export const isVolatile = (e: Expr): boolean => anyExpr(e, (x) => x.kind === "call" && (VOLATILE.has(x.name) || x.name.startsWith("__")));
