/**
 * A value's identity as text, for grouping and DISTINCT over ARRAY, MAP, STRUCT and BINARY
 * values (and their elements): equal values give equal text in Spark's sense — -0.0 is 0.0,
 * NaN is NaN — while NaN, ±Infinity and NULL, which JSON would all write as `null`, stay apart.
 * A value's type fixes which of its positions hold numbers, so the markers below cannot meet
 * a string in the same position.
 */

function replacer(_key: string, x: unknown): unknown {
  if (typeof x === "number") {
    if (Number.isNaN(x)) return "\u0000NaN";
    if (x === Number.POSITIVE_INFINITY) return "\u0000+Inf";
    if (x === Number.NEGATIVE_INFINITY) return "\u0000-Inf";
    return x; // JSON writes -0 as 0
  }
  if (typeof x === "bigint") return `${x}n`; // beyond ±2^53 − 1 (columnar/int64.ts)
  if (x instanceof Uint8Array) return `\u0000b:${Array.from(x).join(",")}`;
  if (x instanceof Map) return ["\u0000m", ...x];
  return x;
}

export function valueKeyText(v: unknown): string {
  return JSON.stringify(v, replacer) ?? "undefined";
}

/** A set's element as Spark keeps it: -0.0 as 0.0 (its hash sets normalize floating keys), anything else as it is. */
export function setElement(v: unknown): unknown {
  return Object.is(v, -0) ? 0 : v;
}
