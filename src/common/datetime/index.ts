/**
 * Dates, timestamps and zones (TIMESTAMP = micros since the epoch, DATE = days since the epoch),
 * one concept per file: `units.ts` the time constants, `calendar.ts` civil-date arithmetic,
 * `zones.ts` zone ids and offsets, `text-format.ts` / `text-parse.ts` Spark's default text forms,
 * `pattern.ts` datetime patterns (`date_format`, `to_timestamp`; lexed in `pattern-tokens.ts`,
 * applied by `pattern-format.ts` and `pattern-parse.ts`). Files outside this folder import it here.
 */
export * from "./calendar.js";
export * from "./pattern.js";
export * from "./text-format.js";
export * from "./text-parse.js";
export * from "./units.js";
export * from "./zones.js";
