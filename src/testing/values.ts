/** Small value builders for expected rows. */

/**
 * A window struct `{ start, end }` as `window(...)` outputs it. Numbers are epoch
 * milliseconds; Dates and timestamp strings are accepted too (strings are read in the session
 * time zone when rows are compared).
 *
 * @example
 * checkAnswer([{ window: win(0, 10_000), count: 2 }])
 */
export function win(start: number | Date | string, end: number | Date | string): { start: Date | string; end: Date | string } {
  const t = (v: number | Date | string) => (typeof v === "number" ? new Date(v) : v);
  return { start: t(start), end: t(end) };
}
