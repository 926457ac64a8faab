/**
 * Spark's default text forms of internal values: TIMESTAMP (micros since the epoch) as
 * `yyyy-MM-dd HH:mm:ss[.ffffff]` in a zone, DATE (days since the epoch) as `yyyy-MM-dd`, the
 * progress timestamps in UTC, and Date objects at the API's edge.
 */
import { type Civil, civilFromDays } from "./calendar.js";
import { TWO_DIGITS } from "./digits.js";
import { MICROS_PER_MILLIS, MICROS_PER_SECOND, SECONDS_PER_DAY } from "./units.js";
import { FixedZone, getZone, type Zone } from "./zones.js";

/**
 * Year as ISO_LOCAL_DATE / `uuuu` prints it: 4 digits zero-padded, `-` for negative years and
 * `+` when more than 4 digits are needed (EXCEEDS_PAD).
 */
export function formatYear(y: number): string {
  const abs = Math.abs(y);
  const digits = abs < 10 ? `000${abs}` : abs < 100 ? `00${abs}` : abs < 1000 ? `0${abs}` : String(abs);
  if (y < 0) return `-${digits}`;
  return abs > 9999 ? `+${digits}` : digits;
}

/** `.ffffff` with trailing zeros trimmed, or "" for a zero fraction. */
export function formatFraction(microOfSecond: number): string {
  if (microOfSecond === 0) return "";
  let s = String(microOfSecond + MICROS_PER_SECOND).slice(1);
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  s = s.slice(0, end);
  return `.${s}`;
}

const scratch: Civil = { year: 0, month: 0, day: 0 };

/**
 * Spark's timestamp-to-string (TimestampFormatter.getFractionFormatter): `yyyy-MM-dd HH:mm:ss`
 * in `tz`, then the fraction only if non-zero with trailing zeros removed.
 */
export function formatTimestamp(micros: number | bigint, tz: string): string {
  if (typeof micros === "bigint") return formatExactTimestamp(micros, tz);
  // Inlined splitMicros: this is the hot path of show() and CSV/JSON writers.
  let sec = Math.floor(micros / MICROS_PER_SECOND);
  let frac = micros - sec * MICROS_PER_SECOND;
  if (frac < 0) {
    sec -= 1;
    frac += MICROS_PER_SECOND;
  } else if (frac >= MICROS_PER_SECOND) {
    sec += 1;
    frac -= MICROS_PER_SECOND;
  }
  const zone = tz === lastTz ? lastZone : lookupLast(tz);
  const local = zone.fixedOffset === 0 ? sec : sec + zone.offsetSeconds(sec);
  return frac === 0 ? formatLocalSeconds(local) : formatLocalSeconds(local) + formatFraction(frac);
}

/** A timestamp beyond ±2^53 µs (a bigint, columnar/int64.ts): split exactly, seconds are safe numbers. */
function formatExactTimestamp(micros: bigint, tz: string): string {
  const m = BigInt(MICROS_PER_SECOND);
  let sec = micros / m;
  let frac = micros - sec * m;
  if (frac < 0n) {
    sec -= 1n;
    frac += m;
  }
  const s = Number(sec);
  const zone = tz === lastTz ? lastZone : lookupLast(tz);
  const local = zone.fixedOffset === 0 ? s : s + zone.offsetSeconds(s);
  return formatLocalSeconds(local) + formatFraction(Number(frac));
}

/** Exact micros (a safe number or a bigint) from whole seconds and micro-of-second. */
export function microsOf(seconds: number, microOfSecond: number): number | bigint {
  const m = seconds * MICROS_PER_SECOND + microOfSecond;
  return Number.isSafeInteger(m) ? m : BigInt(seconds) * BigInt(MICROS_PER_SECOND) + BigInt(microOfSecond);
}

// One-entry memo in front of the zone cache: callers format whole columns in one zone.
let lastTz = "UTC";
let lastZone: Zone = new FixedZone("UTC", 0);
function lookupLast(tz: string): Zone {
  lastZone = getZone(tz);
  lastTz = tz;
  return lastZone;
}

/** Formats local seconds since the epoch as `yyyy-MM-dd HH:mm:ss`. */
export function formatLocalSeconds(local: number): string {
  const days = Math.floor(local / SECONDS_PER_DAY);
  let sod = local - days * SECONDS_PER_DAY;
  civilFromDays(days, scratch);
  const h = Math.floor(sod / 3600);
  sod -= h * 3600;
  const m = Math.floor(sod / 60);
  const s = sod - m * 60;
  const y = scratch.year;
  const ys = y >= 1000 && y <= 9999 ? String(y) : formatYear(y);
  return (
    ys +
    "-" +
    TWO_DIGITS[scratch.month]! +
    "-" +
    TWO_DIGITS[scratch.day]! +
    " " +
    TWO_DIGITS[h]! +
    ":" +
    TWO_DIGITS[m]! +
    ":" +
    TWO_DIGITS[s]!
  );
}

/** Spark's date-to-string: `yyyy-MM-dd` (proleptic Gregorian). */
export function formatDate(days: number): string {
  civilFromDays(days, scratch);
  return `${formatYear(scratch.year)}-${TWO_DIGITS[scratch.month]}-${TWO_DIGITS[scratch.day]}`;
}

/** `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC (StreamingQueryProgress timestamps and eventTime). */
export function isoUtcMillis(ms: number): string {
  const sec = Math.floor(ms / 1000);
  const milli = ms - sec * 1000;
  const s = formatLocalSeconds(sec);
  const sp = s.lastIndexOf(" ");
  return `${s.slice(0, sp)}T${s.slice(sp + 1)}.${String(milli + 1000).slice(1)}Z`;
}

export function microsFromDate(d: Date): number {
  return d.getTime() * MICROS_PER_MILLIS;
}

/** Date for a timestamp; sub-millisecond precision is dropped (floor, as Spark's microsToMillis). */
export function dateFromMicros(m: number | bigint): Date {
  if (typeof m === "bigint") {
    const k = BigInt(MICROS_PER_MILLIS);
    const q = m / k;
    return new Date(Number(m < 0n && q * k !== m ? q - 1n : q));
  }
  return new Date(Math.floor(m / MICROS_PER_MILLIS));
}
