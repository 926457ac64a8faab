/**
 * Spark's other names for functions arus has: lcase / ucase, curdate, date_diff, dateadd,
 * array_agg, len and to_timestamp_ltz. Column names keep the name written, except where Spark shows the canonical one
 * (curdate is `current_date()`, dateadd `date_add(...)`; see plan/sql-text.ts).
 */
import "./strings.js";
import "./datetime.js";
import "./aggregates.js";
import { registerAlias } from "./registry.js";

registerAlias("lcase", "lower");
registerAlias("ucase", "upper");
registerAlias("curdate", "current_date");
registerAlias("date_diff", "datediff");
registerAlias("dateadd", "date_add");
registerAlias("array_agg", "collect_list");
registerAlias("len", "length");
// arus's TIMESTAMP is Spark's TIMESTAMP_LTZ (the session-time-zone timestamp)
registerAlias("to_timestamp_ltz", "to_timestamp");
