/**
 * Calendar functions over dates and timestamps: add_months, months_between, last_day,
 * weekofyear, trunc and date_trunc, with Spark's (DateTimeUtils') rules. Timestamps are read
 * in the session time zone, as Spark does.
 */
import type { Vector } from "../columnar/vector.js";
import {
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  localToUtcMicros,
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  utcToLocalMicros,
} from "../common/datetime/index.js";
import { AnalysisException, IllegalArgumentException } from "../common/errors.js";
import { literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, BooleanType, DateType, DoubleType, IntegerType, StringType, sqlTypeName, TimestampType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, dateArg, register, type ScalarFunction, stringArg, timestampArg, typeMismatch } from "./registry.js";

/** LocalDate.plusMonths: the day is clamped to the last day of the target month. */
export function addMonthsToDays(days: number, months: number): number {
  const c = civilFromDays(days);
  const total = c.year * 12 + (c.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return daysFromCivil(year, month, Math.min(c.day, daysInMonth(year, month)));
}

/** A TIMESTAMP's local date moved by `months` in time zone `tz`, its local time of day kept. */
function addMonthsToTimestamp(tz: string, ts: number, months: number): number {
  const local = utcToLocalMicros(tz, ts);
  const days = Math.floor(local / MICROS_PER_DAY);
  return localToUtcMicros(tz, addMonthsToDays(days, months) * MICROS_PER_DAY + (local - days * MICROS_PER_DAY));
}

/**
 * `x + INTERVAL n MONTH` (analyzer/year-month.ts): a DATE's months moved as add_months does; a
 * TIMESTAMP's local date moved in the session time zone, its time of day kept.
 */
const addYearMonthInterval: ScalarFunction = {
  kind: "scalar",
  name: "add_ym_interval",
  internal: true,
  resolve(args, types, call) {
    checkArity("add_ym_interval", args, 2);
    const t = types[0]!;
    const to = t.kind === "date" ? DateType : t.kind === "timestamp" || t.kind === "null" ? TimestampType : null;
    if (to === null) throw typeMismatch(call, 0, '("DATE" or "TIMESTAMP")', args[0]!, t);
    return { args: [castTo(args[0]!, t, to), args[1]!], type: to };
  },
  kernel(args, n, ctx) {
    if (args[0]!.type.kind === "date") return mapRows(DateType, args, n, (d, k) => addMonthsToDays(d as number, k as number));
    return mapRows(TimestampType, args, n, (ts, k) => addMonthsToTimestamp(ctx.timeZone, ts as number, k as number));
  },
};

/**
 * `sequence(start, stop, INTERVAL n MONTH)` (analyzer/year-month.ts), as Spark's temporal
 * Sequence: element i is start + i × n months (from start, so a month-end start keeps to month
 * ends: Jan 31, Feb 29, Mar 31), up to stop; DATE bounds give DATEs, a TIMESTAMP among them
 * TIMESTAMPs (their local time of day kept in the session time zone). A zero step, or one going
 * away from stop, fails as Spark's does.
 */
const sequenceMonths: ScalarFunction = {
  kind: "scalar",
  name: "sequence_months",
  internal: true,
  resolve(args, types, call) {
    checkArity("sequence", args, 3);
    const kinds = [types[0]!.kind, types[1]!.kind];
    const temporal = kinds.every((k) => k === "date" || k === "timestamp" || k === "null");
    if (!temporal) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES",
        `[DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: \`sequence\` uses the wrong parameter type. The parameter type must conform to: 1. The start and stop expressions must resolve to the same type. 2. If start and stop expressions resolve to the "DATE" or "TIMESTAMP" type then the step expression must resolve to the "INTERVAL" type, otherwise to the same type as the start and stop expressions. ${[...types.slice(0, 2).map((x) => `"${sqlTypeName(x)}"`), '"INTERVAL MONTH"'].join(", ")}`,
      );
    }
    const to = kinds.includes("timestamp") || kinds.every((k) => k === "null") ? TimestampType : DateType;
    return { args: [castTo(args[0]!, types[0]!, to), castTo(args[1]!, types[1]!, to), args[2]!], type: ArrayOf(to, false) };
  },
  kernel(args, n, ctx) {
    const type = args[0]!.type;
    const date = type.kind === "date";
    // a TIMESTAMP moves its local date in the session time zone (as add_ym_interval)
    const plus = (start: number, months: number): number =>
      date ? addMonthsToDays(start, months) : addMonthsToTimestamp(ctx.timeZone, start, months);
    return mapRows(ArrayOf(type, false), args, n, (a, b, m) => {
      const start = a as number;
      const stop = b as number;
      const months = m as number;
      if (months === 0) {
        throw new IllegalArgumentException(
          `sequence step must be an interval year to month of day granularity if start and end values are ${date ? "dates" : "timestamps"}`,
        );
      }
      if (months > 0 ? start > stop : start < stop) {
        const micros = (x: number) => (date ? x * MICROS_PER_DAY : x);
        throw new IllegalArgumentException(
          `requirement failed: Illegal sequence boundaries: ${micros(start)} to ${micros(stop)} by ${months}`,
        );
      }
      const out: number[] = [];
      for (let i = 0; ; i++) {
        const x = plus(start, i * months);
        if (months > 0 ? x > stop : x < stop) break;
        out.push(x);
      }
      return out;
    });
  },
};

const addMonths: ScalarFunction = {
  kind: "scalar",
  name: "add_months",
  resolve(args, types, call) {
    checkArity("add_months", args, 2);
    return { args: [dateArg(call, args, types, 0), castTo(args[1]!, types[1]!, IntegerType)], type: DateType };
  },
  kernel: (args, n) => mapRows(DateType, args, n, (d, k) => addMonthsToDays(d as number, k as number)),
};

/**
 * Spark's monthsBetween: whole months when both days of month agree or both are month ends;
 * otherwise the day and time-of-day difference counts in months of 31 days. roundOff rounds
 * to 8 digits (Java's Math.round: half up).
 */
export function monthsBetweenLocal(local1: number, local2: number, roundOff: boolean): number {
  const d1 = Math.floor(local1 / MICROS_PER_DAY);
  const d2 = Math.floor(local2 / MICROS_PER_DAY);
  const c1 = civilFromDays(d1);
  const c2 = civilFromDays(d2);
  const monthDiff = c1.year * 12 + c1.month - (c2.year * 12 + c2.month);
  const end1 = c1.day === daysInMonth(c1.year, c1.month);
  const end2 = c2.day === daysInMonth(c2.year, c2.month);
  if (c1.day === c2.day || (end1 && end2)) return monthDiff;
  const secondsInDay1 = Math.trunc((local1 - d1 * MICROS_PER_DAY) / MICROS_PER_SECOND);
  const secondsInDay2 = Math.trunc((local2 - d2 * MICROS_PER_DAY) / MICROS_PER_SECOND);
  const secondsDiff = (c1.day - c2.day) * 86_400 + secondsInDay1 - secondsInDay2;
  const diff = monthDiff + secondsDiff / (31 * 86_400);
  return roundOff ? Math.floor(diff * 1e8 + 0.5) / 1e8 : diff;
}

const monthsBetween: ScalarFunction = {
  kind: "scalar",
  name: "months_between",
  resolve(args, types, call) {
    checkArity("months_between", args, 2, 3);
    // (an error names the call with its default roundOff, as Spark's)
    const named = call.kind === "call" && args.length === 2 ? { ...call, args: [...args, literal(true, BooleanType)] } : call;
    const ts = [timestampArg(named, args, types, 0), timestampArg(named, args, types, 1)];
    // The default roundOff is written out, as Spark names the call `months_between(a, b, true)`.
    const roundOff = args[2] ? castTo(args[2], types[2]!, BooleanType) : literal(true, BooleanType);
    return { args: [...ts, roundOff], type: DoubleType };
  },
  kernel(args, n, ctx) {
    const tz = ctx.timeZone;
    return mapRows(DoubleType, args, n, (a, b, round) =>
      monthsBetweenLocal(utcToLocalMicros(tz, Number(a)), utcToLocalMicros(tz, Number(b)), Boolean(round)),
    );
  },
};

const lastDay: ScalarFunction = {
  kind: "scalar",
  name: "last_day",
  resolve(args, types, call) {
    checkArity("last_day", args, 1);
    return { args: [dateArg(call, args, types, 0)], type: DateType };
  },
  kernel: (args, n) =>
    mapRows(DateType, args, n, (d) => {
      const c = civilFromDays(d as number);
      return daysFromCivil(c.year, c.month, daysInMonth(c.year, c.month));
    }),
};

/** ISO-8601 week of the week-based year (weeks start on Monday; week 1 holds the first Thursday). */
export function isoWeekOfDays(days: number): number {
  const dow = (((days + 3) % 7) + 7) % 7; // 0 = Monday (1970-01-01 was a Thursday)
  const thursday = days - dow + 3;
  const year = civilFromDays(thursday).year;
  return Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
}

const weekOfYear: ScalarFunction = {
  kind: "scalar",
  name: "weekofyear",
  resolve(args, types, call) {
    checkArity("weekofyear", args, 1);
    return { args: [dateArg(call, args, types, 0)], type: IntegerType };
  },
  kernel: (args, n) => mapRows(IntegerType, args, n, (d) => isoWeekOfDays(d as number)),
};

/** Spark's truncation levels (DateTimeUtils.parseTruncLevel), finest first. */
type TruncLevel = "MICROSECOND" | "MILLISECOND" | "SECOND" | "MINUTE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR";
const TRUNC_LEVELS: Record<string, TruncLevel> = {
  MICROSECOND: "MICROSECOND",
  MILLISECOND: "MILLISECOND",
  SECOND: "SECOND",
  MINUTE: "MINUTE",
  HOUR: "HOUR",
  DAY: "DAY",
  DD: "DAY",
  WEEK: "WEEK",
  MON: "MONTH",
  MONTH: "MONTH",
  MM: "MONTH",
  QUARTER: "QUARTER",
  YEAR: "YEAR",
  YYYY: "YEAR",
  YY: "YEAR",
};
const DATE_LEVELS = new Set<TruncLevel>(["WEEK", "MONTH", "QUARTER", "YEAR"]);

/** Unknown format names give null (Spark returns NULL, not an error). */
function truncLevel(fmt: unknown): TruncLevel | null {
  return typeof fmt === "string" ? (TRUNC_LEVELS[fmt.toUpperCase()] ?? null) : null;
}

/** A date truncated to WEEK (its Monday), MONTH, QUARTER or YEAR. */
function truncDays(days: number, level: TruncLevel): number {
  if (level === "WEEK") return days - ((((days + 3) % 7) + 7) % 7);
  const c = civilFromDays(days);
  if (level === "MONTH") return daysFromCivil(c.year, c.month, 1);
  if (level === "QUARTER") return daysFromCivil(c.year, c.month - ((c.month - 1) % 3), 1);
  return daysFromCivil(c.year, 1, 1);
}

const trunc: ScalarFunction = {
  kind: "scalar",
  name: "trunc",
  resolve(args, types, call) {
    checkArity("trunc", args, 2);
    return { args: [dateArg(call, args, types, 0), castTo(args[1]!, types[1]!, StringType)], type: DateType };
  },
  kernel: (args, n) =>
    mapRows(DateType, args, n, (d, fmt) => {
      const level = truncLevel(fmt);
      return level && DATE_LEVELS.has(level) ? truncDays(d as number, level) : null;
    }),
};

const UNIT_MICROS: Partial<Record<TruncLevel, number>> = {
  MICROSECOND: 1,
  MILLISECOND: 1_000,
  SECOND: MICROS_PER_SECOND,
  MINUTE: MICROS_PER_MINUTE,
  HOUR: MICROS_PER_HOUR,
  DAY: MICROS_PER_DAY,
};

/** Truncates in local (session zone) time, then maps the local instant back to UTC. */
function truncTimestamp(micros: number, level: TruncLevel, tz: string): number {
  if (level === "MICROSECOND") return micros;
  // Sub-hour units are cut in UTC, as Spark does (zone offsets are whole minutes in practice).
  if (level === "MILLISECOND" || level === "SECOND" || level === "MINUTE") {
    const unit = UNIT_MICROS[level]!;
    return Math.floor(micros / unit) * unit;
  }
  const local = utcToLocalMicros(tz, micros);
  const unit = UNIT_MICROS[level];
  const truncated = unit ? Math.floor(local / unit) * unit : truncDays(Math.floor(local / MICROS_PER_DAY), level) * MICROS_PER_DAY;
  return localToUtcMicros(tz, truncated);
}

/** How Spark 4.3 names date_trunc's second parameter's types in its error. */
const DATE_TRUNC_INPUT = '("TIMESTAMP" or "(TIMESTAMP_LTZ(P) OR TIMESTAMP_NTZ(P) WITH P IN [7, 9])")';

const dateTrunc: ScalarFunction = {
  kind: "scalar",
  name: "date_trunc",
  resolve(args, types, call) {
    checkArity("date_trunc", args, 2);
    return {
      args: [stringArg(call, args, types, 0), timestampArg(call, args, types, 1, DATE_TRUNC_INPUT)],
      type: TimestampType,
    };
  },
  kernel(args, n, ctx) {
    const [fmt, ts] = args as [Vector, Vector];
    return mapRows(TimestampType, [fmt, ts], n, (f, m) => {
      const level = truncLevel(f);
      return level ? truncTimestamp(Number(m), level, ctx.timeZone) : null;
    });
  },
};

register(addMonths, addYearMonthInterval, sequenceMonths, monthsBetween, lastDay, weekOfYear, trunc, dateTrunc);
