/**
 * The `.option(key, value)` / `.options(record)` half of the reader and writer builders
 * (DataFrameReader/Writer, DataStreamReader/Writer), kept in one place so they store options alike.
 */

import { IllegalArgumentException } from "../common/errors.js";

/** What `.option()` accepts; Spark keeps every option as a string. */
export type OptionValue = string | number | boolean;

/**
 * Stores `value` under `key` as `String(value)` (5 → "5", false → "false"), as Spark does.
 * Anything else is refused by name: from JavaScript a Promise (a missing `await`) or an object
 * would otherwise be stored as "[object Promise]", a checkpoint folder of that name.
 */
export function setOption(opts: Record<string, string>, key: string, value: OptionValue): void {
  const t = typeof value;
  if (t !== "string" && t !== "number" && t !== "boolean") {
    const what =
      (value as unknown) instanceof Promise ? "a Promise (a missing await?)" : value === null ? "null" : t === "object" ? "an object" : t;
    throw new IllegalArgumentException(`option("${key}") takes a string, number or boolean, got ${what}.`);
  }
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
