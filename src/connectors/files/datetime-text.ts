/**
 * Timestamp and date text for the JSON and CSV sources and sinks. Defaults are Spark's: read
 * with the lenient cast parser (`parseTimestamp`/`parseDate`), write
 * `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` in the session zone (millisecond precision, `Z` for UTC) and
 * `yyyy-MM-dd`. The `timestampFormat` / `dateFormat` options switch both ways to a pattern.
 */
import { compilePattern, formatDate, inTimestampRange, MICROS_PER_DAY, parseDate, parseTimestamp } from "../../common/datetime/index.js";
import type { SourceOptions } from "./options.js";

export const DEFAULT_WRITE_TIMESTAMP_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";

export interface DateTimeText {
  readonly zone: string;
  /** A `timestampFormat` option is set (timestamps are read with that pattern, not the cast rules). */
  readonly customTimestampFormat: boolean;
  /** A `dateFormat` option is set (dates are read with that pattern, not the cast rules). */
  readonly customDateFormat: boolean;
  formatTimestamp(micros: number | bigint): string;
  formatDate(days: number): string;
  /** Exact micros: a bigint beyond ±2^53 µs (columnar/int64.ts). */
  parseTimestamp(s: string): number | bigint | null;
  parseDate(s: string): number | null;
}

export function dateTimeText(o: SourceOptions | null, zone: string): DateTimeText {
  const tsFormat = o?.get("timestampFormat");
  const dateFormat = o?.get("dateFormat");
  const writeTs = compilePattern(tsFormat ?? DEFAULT_WRITE_TIMESTAMP_FORMAT);
  const datePattern = dateFormat ? compilePattern(dateFormat) : null;
  const readTs = tsFormat ? compilePattern(tsFormat) : null;
  return {
    zone,
    customTimestampFormat: readTs !== null,
    customDateFormat: datePattern !== null,
    formatTimestamp: (micros: number | bigint) => writeTs.format(micros, zone),
    formatDate: datePattern ? (days) => datePattern.format(days * MICROS_PER_DAY, "UTC") : formatDate,
    parseTimestamp: readTs
      ? (s) => {
          const m = readTs.parse(s, zone);
          return m === null ? null : inTimestampRange(m);
        }
      : (s) => parseTimestamp(s, zone),
    parseDate: datePattern
      ? (s) => {
          const m = datePattern.parse(s, "UTC");
          return m === null ? null : Math.floor(m / MICROS_PER_DAY);
        }
      : parseDate,
  };
}
