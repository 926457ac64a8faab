/**
 * The child columns a withWatermark node names as its event time. The node keeps the name as the
 * user wrote it, and Spark resolves names case-insensitively (spark.sql.caseSensitive=false), so
 * withWatermark("TS") marks a column named `ts`: an exact name comparison would miss it.
 */
import { outputOf } from "../analyzer/types.js";
import type { Attribute } from "../plan/expressions.js";
import type { EventTimeWatermark } from "../plan/logical.js";

export function eventTimeColumns(w: EventTimeWatermark): Attribute[] {
  const name = w.eventTime.toLowerCase();
  return outputOf(w.child).filter((a) => a.name.toLowerCase() === name);
}
