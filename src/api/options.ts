/**
 * The `.option(key, value)` / `.options(record)` half of the reader and writer builders
 * (DataFrameReader/Writer, DataStreamReader/Writer), kept in one place so they store options alike.
 */

/** What `.option()` accepts; Spark keeps every option as a string. */
export type OptionValue = string | number | boolean;

/** Stores `value` under `key` as `String(value)` (5 → "5", false → "false"), as Spark does. */
export function setOption(opts: Record<string, string>, key: string, value: OptionValue): void {
  opts[key] = String(value);
}

/** `options(record)`: every entry goes through the builder's own `option()`; returns the builder. */
export function setOptions<B extends { option(key: string, value: OptionValue): unknown }>(
  builder: B,
  record: Record<string, OptionValue>,
): B {
  for (const [k, v] of Object.entries(record)) builder.option(k, v);
  return builder;
}
