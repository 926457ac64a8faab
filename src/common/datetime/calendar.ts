/**
 * Civil calendar arithmetic: proleptic Gregorian dates as days since 1970-01-01 and back
 * (H. Hinnant's algorithms; no Date objects), and timestamps split into seconds and micros.
 */
import { MICROS_PER_SECOND } from "./units.js";

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Reused result of civilFromDays: avoids one allocation per formatted value. */
export interface Civil {
  year: number;
  month: number;
  day: number;
}

/** Inverse of daysFromCivil; writes into `out` (a fresh object when omitted). */
export function civilFromDays(days: number, out: Civil = { year: 0, month: 0, day: 0 }): Civil {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  out.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  out.month = mp < 10 ? mp + 3 : mp - 9;
  out.year = yoe + era * 400 + (out.month <= 2 ? 1 : 0);
  return out;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** True when (y, m, d) is a real date (LocalDate.of would accept it). */
export function isValidDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) && Math.abs(y) <= 999_999_999;
}

/** Splits micros into whole seconds (floor) and the micro-of-second remainder [0, 1e6). */
export function splitMicros(micros: number | bigint): [seconds: number, microOfSecond: number] {
  if (typeof micros === "bigint") {
    // Beyond ±2^53 µs (columnar/int64.ts): exact, the seconds are safe numbers.
    let s = micros / 1_000_000n;
    let f = micros - s * 1_000_000n;
    if (f < 0n) {
      s -= 1n;
      f += 1_000_000n;
    }
    return [Number(s), Number(f)];
  }
  // Division may round up near a second boundary for large values; correct with exact math.
  let sec = Math.floor(micros / MICROS_PER_SECOND);
  let frac = micros - sec * MICROS_PER_SECOND;
  if (frac < 0) {
    sec -= 1;
    frac += MICROS_PER_SECOND;
  } else if (frac >= MICROS_PER_SECOND) {
    sec += 1;
    frac -= MICROS_PER_SECOND;
  }
  return [sec, frac];
}
