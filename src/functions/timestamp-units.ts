/**
 * timestampadd(unit, quantity, ts) and timestampdiff(unit, start, end) (SQL also spells them
 * dateadd / date_add and datediff / date_diff with a unit first; the parser turns the unit
 * into a string literal, sql/string-syntax.ts). As Spark's DateTimeUtils: MICROSECOND ..
 * HOUR add to the instant, DAY / WEEK / MONTH / QUARTER / YEAR to the local date-time in the
 * session time zone (months clamp the day to the month's end); a difference counts whole units
 * between the two local date-times, truncated toward zero (Java's LocalDateTime.until).
 */

import { civilFromDays, daysFromCivil } from "../common/datetime/calendar.js";
import { localToUtcMicros, utcToLocalMicros } from "../common/datetime/zones.js";
import { AnalysisException } from "../common/errors.js";
import { LongType, TimestampType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";

const DAY = 86_400_000_000;
const INSTANT_UNITS: Readonly<Record<string, number>> = { MICROSECOND: 1, MILLISECOND: 1000, SECOND: 1e6, MINUTE: 6e7, HOUR: 3.6e9 };
const DAY_UNITS: Readonly<Record<string, number>> = { DAY: 1, DAYOFYEAR: 1, WEEK: 7 };
const MONTH_UNITS: Readonly<Record<string, number>> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

function unitOf(name: string, v: unknown): string {
  const u = String(v)
    .toUpperCase()
    .replace(/^SQL_TSI_/, "");
  if (!(u in INSTANT_UNITS || u in DAY_UNITS || u in MONTH_UNITS)) {
    throw new AnalysisException(
      "INVALID_PARAMETER_VALUE.DATETIME_UNIT",
      `[INVALID_PARAMETER_VALUE.DATETIME_UNIT] The value of parameter(s) \`unit\` in \`${name}\` is invalid: expects one of the units without quotes YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, but got the string literal '${String(v)}'.`,
    );
  }
  return u;
}

function plusMonths(localMicros: number, months: number): number {
  const days = Math.floor(localMicros / DAY);
  const c = civilFromDays(days);
  const total = c.year * 12 + (c.month - 1) + months;
  const y = Math.floor(total / 12);
  const m = (((total % 12) + 12) % 12) + 1;
  const monthLength = m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  return (daysFromCivil(y, m, Math.min(c.day, monthLength)) - days) * DAY + localMicros;
}
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export function timestampAdd(unit: string, q: number, micros: number, tz: string): number {
  if (unit in INSTANT_UNITS) return micros + q * INSTANT_UNITS[unit]!;
  const local = utcToLocalMicros(tz, micros);
  const moved = unit in DAY_UNITS ? local + q * DAY_UNITS[unit]! * DAY : plusMonths(local, q * MONTH_UNITS[unit]!);
  return localToUtcMicros(tz, moved);
}

/** Whole months from local a to local b, as LocalDate.until after LocalDateTime's day adjustment. */
function monthsBetween(a: number, b: number): number {
  let endDay = Math.floor(b / DAY);
  const startDay = Math.floor(a / DAY);
  const ta = a - startDay * DAY;
  const tb = b - endDay * DAY;
  if (endDay > startDay && tb < ta) endDay--;
  else if (endDay < startDay && tb > ta) endDay++;
  const s = civilFromDays(startDay);
  const e = civilFromDays(endDay);
  const packed1 = (s.year * 12 + s.month - 1) * 32 + s.day;
  const packed2 = (e.year * 12 + e.month - 1) * 32 + e.day;
  return Math.trunc((packed2 - packed1) / 32);
}

export function timestampDiff(unit: string, start: number, end: number, tz: string): number {
  const a = utcToLocalMicros(tz, start);
  const b = utcToLocalMicros(tz, end);
  if (unit in INSTANT_UNITS) return Math.trunc((b - a) / INSTANT_UNITS[unit]!);
  if (unit in DAY_UNITS) return Math.trunc((b - a) / (DAY * DAY_UNITS[unit]!));
  return Math.trunc(monthsBetween(a, b) / MONTH_UNITS[unit]!);
}

const timestampAddFn: ScalarFunction = {
  kind: "scalar",
  name: "timestampadd",
  resolve(args, types) {
    checkArity("timestampadd", args, 3);
    return { args: [args[0]!, castTo(args[1]!, types[1]!, LongType), castTo(args[2]!, types[2]!, TimestampType)], type: TimestampType };
  },
  kernel: (args, n, ctx) =>
    mapRows(TimestampType, args, n, (u, q, ts) => timestampAdd(unitOf("timestampadd", u), Number(q), Number(ts), ctx.timeZone)),
};

const timestampDiffFn: ScalarFunction = {
  kind: "scalar",
  name: "timestampdiff",
  resolve(args, types) {
    checkArity("timestampdiff", args, 3);
    return { args: [args[0]!, castTo(args[1]!, types[1]!, TimestampType), castTo(args[2]!, types[2]!, TimestampType)], type: LongType };
  },
  kernel: (args, n, ctx) =>
    mapRows(LongType, args, n, (u, a, b) => timestampDiff(unitOf("timestampdiff", u), Number(a), Number(b), ctx.timeZone)),
};

register(timestampAddFn, timestampDiffFn);
