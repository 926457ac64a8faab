/**
 * The exact 64-bit lane of BIGINT and TIMESTAMP vectors (issue 17).
 *
 * A BIGINT/TIMESTAMP vector's values are a `Float64Array` (the fast lane) or a `BigInt64Array`
 * (the wide lane). Every double in the fast lane is an integer equal to the value it stands for;
 * a producer whose value is not a safe integer (|v| > 2^53 − 1: beyond that a double cannot hold
 * every integer, so v + 1 would round) writes the wide lane instead. Kernels that only know
 * doubles fail loudly on a wide lane (JS refuses to mix BigInt and number) rather than round.
 *
 * Row-level internal values (`getValue`, state rows, keys) are canonical: a `number` when the
 * value is a safe integer, a `bigint` otherwise, so equal values always have one JS form.
 */
import { hashNumber } from "../common/hash.js";
import type { DataType } from "../types/datatypes.js";

export type Int64Lane = Float64Array | BigInt64Array;

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
export const LONG_MAX = 9223372036854775807n;
export const LONG_MIN = -9223372036854775808n;
const BIG_MAX_SAFE = BigInt(MAX_SAFE);

/** Types whose vectors may carry the wide lane. */
export function isInt64Type(type: DataType): boolean {
  return type.kind === "bigint" || type.kind === "timestamp";
}

export function isSafe(x: number): boolean {
  return x <= MAX_SAFE && x >= -MAX_SAFE;
}

export function isWide(values: unknown): values is BigInt64Array {
  return values instanceof BigInt64Array;
}

/** The canonical internal form of an exact 64-bit value. */
export function canonical(x: bigint): number | bigint {
  return x <= BIG_MAX_SAFE && x >= -BIG_MAX_SAFE ? Number(x) : x;
}

/** Canonical form of a fast-lane double (an unsafe integer double becomes its exact bigint). */
export function canonicalNumber(x: number): number | bigint {
  return isSafe(x) || !Number.isInteger(x) ? x : BigInt(x);
}

/** The exact value of a canonical internal value (number or bigint). */
export function exact(x: number | bigint): bigint {
  return typeof x === "bigint" ? x : BigInt(x);
}

/** Value i of a lane in canonical form. */
export function laneAt(values: Int64Lane, i: number): number | bigint {
  return isWide(values) ? canonical(values[i]!) : canonicalNumber(values[i]!);
}

/** The fast lane as a wide one (the first n values). */
export function widen(values: Float64Array, n: number = values.length): BigInt64Array {
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    out[i] = Number.isInteger(x) ? BigInt(x) : 0n;
  }
  return out;
}

/** Either lane as a wide one (no copy when already wide). */
export function asWide(values: Int64Lane, n: number = values.length): BigInt64Array {
  return isWide(values) ? values : widen(values, n);
}

/**
 * The wide lane as the fast one when every valid value is safe (the first n values), else the
 * lane unchanged: kernels keep their double loops for the common case.
 */
export function narrow(values: Int64Lane, n: number = values.length): Int64Lane {
  if (!isWide(values)) return values;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (x > BIG_MAX_SAFE || x < -BIG_MAX_SAFE) return values;
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Number(values[i]!);
  return out;
}

/** Does a row-level value need the wide lane? */
export function needsWide(x: unknown): boolean {
  return typeof x === "bigint" || (typeof x === "number" && !isSafe(x) && Number.isInteger(x));
}

/**
 * Lane for internal values (null → 0; the caller keeps validity): the fast lane when every
 * value is a safe number, the wide lane otherwise. An out-of-range bigint is an error, not a
 * wrapped value.
 */
export function laneFromValues(vals: ArrayLike<unknown>): Int64Lane {
  const n = vals.length;
  let wide = false;
  for (let i = 0; i < n; i++) {
    if (needsWide(vals[i])) {
      wide = true;
      break;
    }
  }
  if (!wide) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = vals[i];
      if (x != null) out[i] = x as number;
    }
    return out;
  }
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const x = vals[i];
    if (x == null) continue;
    out[i] = checkedBig(typeof x === "bigint" ? x : BigInt(Math.trunc(x as number)));
  }
  return out;
}

export function checkedBig(x: bigint): bigint {
  if (x > LONG_MAX || x < LONG_MIN) throw new RangeError(`${x} is out of the BIGINT range [${LONG_MIN}, ${LONG_MAX}]`);
  return x;
}

/** A lane of the same kind as `like`, length n. */
export function allocLike(like: Int64Lane, n: number): Int64Lane {
  return isWide(like) ? new BigInt64Array(n) : new Float64Array(n);
}

/** Concatenation of lanes (the first lengths[i] values of each); wide when any part is. */
export function concatLanes(parts: readonly Int64Lane[], lengths: readonly number[]): Int64Lane {
  const total = lengths.reduce((a, b) => a + b, 0);
  const wide = parts.some(isWide);
  const out = wide ? new BigInt64Array(total) : new Float64Array(total);
  let o = 0;
  parts.forEach((p, j) => {
    const len = lengths[j]!;
    if (wide) (out as BigInt64Array).set(asWide(p, len).subarray(0, len), o);
    else (out as Float64Array).set((p as Float64Array).subarray(0, len), o);
    o += len;
  });
  return out;
}

// ------------------------------------------------------------------------------------------
// Hashing: equal values hash alike whatever their lane.

/** Hash of a BIGINT/TIMESTAMP value on either lane: safe values as the double they are, the rest by their bits. */
export function hashInt64(x: number | bigint): number {
  if (typeof x === "bigint") return x <= BIG_MAX_SAFE && x >= -BIG_MAX_SAFE ? hashNumber(Number(x)) : hashBig(x);
  return isSafe(x) || !Number.isInteger(x) ? hashNumber(x) : hashBig(BigInt(x));
}

/** Hash of an unsafe 64-bit value: its two 32-bit halves. */
export function hashBig(x: bigint): number {
  const lo = Number(BigInt.asIntN(32, x));
  const hi = Number(BigInt.asIntN(32, x >> 32n));
  return lo ^ Math.imul(hi, 0x9e3779b1) ^ 0x5bd1e995;
}
