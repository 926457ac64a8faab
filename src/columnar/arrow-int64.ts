/**
 * Arrow's 64-bit words (Int64, Timestamp, Duration, Date64) ⇄ our BIGINT/TIMESTAMP/INTERVAL
 * lanes (int64.ts), through 32-bit halves: no BigInt per value while values are safe integers
 * (exact up to 2^53), the wide lane beyond. Separate because export and import share the word
 * layout and the unit change (any Arrow time unit is read back as microseconds).
 */
import * as arrow from "apache-arrow";
import { checkedBig, isWide, narrow } from "./int64.js";

const TWO32 = 4294967296;

/** Float64 integers → Int64 words without BigInt per value (exact within ±2^53); the wide lane as is. */
export function toInt64(values: Float64Array | BigInt64Array, n: number): BigInt64Array {
  if (isWide(values)) return values.slice(0, n);
  const out = new BigInt64Array(n);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const hi = Math.floor(v / TWO32);
    words[2 * i] = v - hi * TWO32;
    words[2 * i + 1] = hi;
  }
  return out;
}

/**
 * Int64/Uint64 words → a BIGINT/TIMESTAMP lane scaled by `mul` (unit change): doubles while every
 * value is a safe integer, else the exact wide lane (columnar/int64.ts). A value outside the long
 * range (a UINT64 past 2^63 − 1, seconds whose micros overflow) is an error, never a rounding.
 */
export function fromInt64(words64: BigInt64Array | BigUint64Array, n: number, signed: boolean, mul = 1): Float64Array | BigInt64Array {
  const out = new Float64Array(n);
  const w = new Uint32Array(words64.buffer, words64.byteOffset, n * 2);
  let safe = true;
  for (let i = 0; i < n; i++) {
    const lo = w[2 * i]!;
    const hiU = w[2 * i + 1]!;
    const hi = signed && hiU >= 0x80000000 ? hiU - TWO32 : hiU;
    const x = (hi * TWO32 + lo) * mul;
    out[i] = x;
    if (!(x <= Number.MAX_SAFE_INTEGER && x >= -Number.MAX_SAFE_INTEGER)) safe = false;
  }
  if (safe) return out;
  const wide = new BigInt64Array(n);
  const m = BigInt(mul);
  for (let i = 0; i < n; i++) wide[i] = checkedBig(BigInt(words64[i]!) * m);
  return wide;
}

/** Nanoseconds → microseconds, floored, through BigInt (ns epochs exceed 2^53; so do µs after 2255). */
export function nanosToMicros(words: BigInt64Array, n: number): Float64Array | BigInt64Array {
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const v = words[i]!;
    let q = v / 1000n;
    if (v < 0n && q * 1000n !== v) q -= 1n;
    out[i] = q;
  }
  return narrow(out, n);
}

export function timeUnitFactor(unit: arrow.TimeUnit): number {
  switch (unit) {
    case arrow.TimeUnit.SECOND:
      return 1_000_000;
    case arrow.TimeUnit.MILLISECOND:
      return 1_000;
    default:
      return 1;
  }
}
