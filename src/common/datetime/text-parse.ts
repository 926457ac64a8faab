/**
 * Spark's cast string → TIMESTAMP / DATE (non-ANSI: invalid text gives null), with the forms
 * DateTimeUtils.stringToTimestamp and stringToDate accept.
 */
import { daysFromCivil, isValidDate } from "./calendar.js";
import { microsOf } from "./text-format.js";
import { SECONDS_PER_DAY } from "./units.js";
import { getZone, localSecondsToUtc, type Zone } from "./zones.js";

/** Spark trims bytes that are whitespace or ISO control characters (all ≤ 0x20, and 0x7F). */
function isTrimmable(c: number): boolean {
  return c <= 0x20 || c === 0x7f;
}

function trimBounds(s: string): [number, number] {
  let start = 0;
  let end = s.length;
  while (start < end && isTrimmable(s.charCodeAt(start))) start++;
  while (end > start && isTrimmable(s.charCodeAt(end - 1))) end--;
  return [start, end];
}

/**
 * Spark's `stringToTimestamp` (DateTimeUtils.parseTimestampString): accepted forms are
 * `[+-]yyyy*`, `[+-]yyyy*-[m]m`, `[+-]yyyy*-[m]m-[d]d`,
 * `[+-]yyyy*-[m]m-[d]d[ T][h]h[:[m]m[:[s]s[.ffffff]]][zone]`, and time-only
 * `[T][h]h:[m]m[:[s]s[.ffffff]][zone]` (today's date in the zone). A zone (`Z`, `+07:00`,
 * `-0500`, ` UTC`, `America/New_York`, ...) may follow the seconds. Years have 4–6 digits,
 * other fields 1–2; more than 6 fraction digits are truncated. Invalid input → null.
 */
export function parseTimestamp(s: string, tz: string): number | bigint | null {
  if (typeof s !== "string") return null;
  const [start, end] = trimBounds(s);
  if (start === end) return null;
  const seg = [1, 1, 1, 0, 0, 0, 0, 0, 0];
  let i = 0;
  let value = 0;
  let digits = 0;
  let fracDigits = 0;
  let justTime = false;
  let yearSign = 0;
  let zoneText: string | null = null;
  let j = start;
  const valid = (segment: number, n: number): boolean =>
    segment === 6 ||
    (segment === 0 && n >= 4 && n <= 6) ||
    (segment === 7 && n <= 2) ||
    (segment !== 0 && segment !== 6 && segment !== 7 && n > 0 && n <= 2);
  const c0 = s.charCodeAt(j);
  if (c0 === 45 /* - */ || c0 === 43 /* + */) {
    yearSign = c0 === 45 ? -1 : 1;
    j++;
  }
  while (j < end) {
    const c = s.charCodeAt(j);
    const d = c - 48;
    if (d < 0 || d > 9) {
      if (j === 0 && c === 84 /* T */) {
        justTime = true;
        i += 3;
      } else if (i < 2) {
        if (c === 45) {
          if (!valid(i, digits)) return null;
          seg[i] = value;
          value = 0;
          digits = 0;
          i++;
        } else if (i === 0 && c === 58 /* : */ && yearSign === 0) {
          justTime = true;
          if (!valid(3, digits)) return null;
          seg[3] = value;
          value = 0;
          digits = 0;
          i = 4;
        } else return null;
      } else if (i === 2) {
        if (c !== 32 && c !== 84) return null;
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
      } else if (i === 3 || i === 4) {
        if (c !== 58) return null;
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
      } else if (i === 5 || i === 6) {
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
        if (!(c === 46 /* . */ && i === 6)) {
          // Anything else after the seconds (or fraction) is the zone id.
          zoneText = s.slice(j, end);
          j = end - 1;
        }
        if (i === 6 && c !== 46) i++;
      } else {
        if (!(i < seg.length && (c === 58 || c === 32))) return null;
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
      }
    } else {
      if (i === 6) fracDigits++;
      if (i !== 6 || digits < 6) value = value * 10 + d;
      digits++;
    }
    j++;
  }
  if (!valid(i, digits)) return null;
  seg[i] = value;
  while (fracDigits < 6) {
    seg[6]! *= 10;
    fracDigits++;
  }
  let zone: Zone;
  try {
    zone = getZone(zoneText === null ? tz : zoneText.trim());
  } catch {
    return null;
  }
  const [h, mi, sec, us] = [seg[3]!, seg[4]!, seg[5]!, seg[6]!];
  if (h > 23 || mi > 59 || sec > 59) return null;
  let days: number;
  if (justTime) {
    const nowSec = Math.floor(Date.now() / 1000);
    days = Math.floor((nowSec + zone.offsetSeconds(nowSec)) / SECONDS_PER_DAY);
  } else {
    const y = seg[0]! * (yearSign || 1);
    if (!isValidDate(y, seg[1]!, seg[2]!)) return null;
    days = daysFromCivil(y, seg[1]!, seg[2]!);
  }
  const local = days * SECONDS_PER_DAY + h * 3600 + mi * 60 + sec;
  return inTimestampRange(microsOf(localSecondsToUtc(zone, local), us));
}

/** Spark's TIMESTAMP range: microseconds that fit a long (up to +294247-01-10T04:00:54.775807Z). */
const MAX_TIMESTAMP_MICROS = 2 ** 63;

/**
 * `micros` if it is a TIMESTAMP Spark can hold, else null (an out-of-range text is invalid).
 * Beyond ±2^53 µs (after 2255-06-05) the exact value is a bigint (columnar/int64.ts).
 */
export function inTimestampRange<T extends number | bigint>(micros: T): T | null {
  if (typeof micros === "bigint") return micros >= -(2n ** 63n) && micros < 2n ** 63n ? micros : null;
  return micros >= -MAX_TIMESTAMP_MICROS && micros < MAX_TIMESTAMP_MICROS ? micros : null;
}

/**
 * Spark's `stringToDate`: `[+-]yyyy*`, `[+-]yyyy*-[m]m`, `[+-]yyyy*-[m]m-[d]d`, and
 * `[+-]yyyy*-[m]m-[d]d` followed by a space or `T` and anything. Years have 4–7 digits.
 * Invalid input → null.
 */
export function parseDate(s: string): number | null {
  if (typeof s !== "string") return null;
  const [start, end] = trimBounds(s);
  if (start === end) return null;
  const seg = [1, 1, 1];
  let sign = 1;
  let i = 0;
  let value = 0;
  let digits = 0;
  let j = start;
  const valid = (segment: number, n: number): boolean => (segment === 0 && n >= 4 && n <= 7) || (segment !== 0 && n > 0 && n <= 2);
  const c0 = s.charCodeAt(j);
  if (c0 === 45 || c0 === 43) {
    sign = c0 === 45 ? -1 : 1;
    j++;
  }
  while (j < end && i < 3) {
    const c = s.charCodeAt(j);
    if (c === 32 || c === 84) break;
    if (i < 2 && c === 45) {
      if (!valid(i, digits)) return null;
      seg[i] = value;
      value = 0;
      digits = 0;
      i++;
    } else {
      const d = c - 48;
      if (d < 0 || d > 9) return null;
      value = value * 10 + d;
      digits++;
    }
    j++;
  }
  if (!valid(i, digits)) return null;
  // For `yyyy` and `yyyy-[m]m` the whole input must be consumed.
  if (i < 2 && j < end) return null;
  seg[i] = value;
  const y = sign * seg[0]!;
  if (!isValidDate(y, seg[1]!, seg[2]!)) return null;
  return daysFromCivil(y, seg[1]!, seg[2]!);
}
