/**
 * Values read straight from UTF-8 bytes, shared by the byte scanners (json-scan.ts,
 * csv-scan.ts): Buffer's slice decoders and ISO-8601 UTC timestamps parsed in place.
 */
import { daysFromCivil, isValidDate, MICROS_PER_SECOND, SECONDS_PER_DAY } from "../../common/datetime/index.js";

/**
 * Buffer's own slice decoders (what `toString(encoding, start, end)` calls after checking its
 * arguments); called directly on the per-field path. Not in @types/node.
 */
export interface SliceDecoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
export type Bytes = Buffer & SliceDecoders;

const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const T = 0x54;
const Z = 0x5a;

/** A Buffer view of `bytes` (no copy), with the slice decoders. */
export function asBytes(bytes: Uint8Array): Bytes {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b as Bytes;
}

/** Two ASCII digits at p as a number, or NaN. */
function two(b: Buffer, p: number): number {
  const h = b[p]! - 0x30;
  const l = b[p + 1]! - 0x30;
  return h >= 0 && h <= 9 && l >= 0 && l <= 9 ? h * 10 + l : Number.NaN;
}

/**
 * `yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z` → microseconds since the epoch, or NaN for any other shape
 * (those go through the full parser). The value equals what the lenient cast parser gives:
 * a `Z` suffix is UTC in any session zone, and fraction digits past the sixth are dropped.
 */
export function isoUtcMicros(b: Buffer, s: number, e: number): number {
  const n = e - s;
  if (n < 20 || b[e - 1] !== Z) return Number.NaN;
  if (b[s + 4] !== DASH || b[s + 7] !== DASH || b[s + 10] !== T || b[s + 13] !== COLON || b[s + 16] !== COLON) return Number.NaN;
  const year = two(b, s) * 100 + two(b, s + 2);
  const month = two(b, s + 5);
  const day = two(b, s + 8);
  const hour = two(b, s + 11);
  const minute = two(b, s + 14);
  const second = two(b, s + 17);
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return Number.NaN; // NaN fails too
  let micros = 0;
  if (n > 20) {
    if (b[s + 19] !== DOT) return Number.NaN;
    const digits = e - 1 - (s + 20);
    if (digits < 1 || digits > 9) return Number.NaN;
    let scale = 100_000;
    for (let p = s + 20; p < e - 1; p++) {
      const d = b[p]! - 0x30;
      if (d < 0 || d > 9) return Number.NaN;
      if (scale >= 1) micros += d * scale;
      scale /= 10;
    }
  }
  if (!isValidDate(year, month, day)) return Number.NaN; // false for NaN parts too
  const r = (daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second) * MICROS_PER_SECOND + micros;
  // Beyond ±2^53 µs (after 2255) the double would round: the full parser gives the exact bigint.
  return Number.isSafeInteger(r) ? r : Number.NaN;
}
