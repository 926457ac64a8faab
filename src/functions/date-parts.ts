/**
 * Date fields and conversions Spark has beside year/month/...: make_date, dayofyear, weekday,
 * next_day, unix_date / date_from_unix_date, unix_seconds / unix_millis / unix_micros,
 * to_utc_timestamp / from_utc_timestamp, and date_part / datepart / EXTRACT(field FROM source)
 * with Spark's field names and abbreviations (SECOND as DECIMAL(8, 6) with the fraction).
 */

import type { Vector } from "../columnar/vector.js";
import {
  civilFromDays,
  daysFromCivil,
  isValidDate,
  localToUtcMicros,
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MINUTE,
  utcToLocalMicros,
} from "../common/datetime/index.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import {
  ByteType,
  DAY_TIME_FIELDS,
  type DataType,
  DateType,
  type DayTimeField,
  dayTimeFields,
  IntegerType,
  LongType,
  StringType,
  TimestampType,
} from "../types/datatypes.js";
import { DecimalOf } from "../types/decimal.js";
import { isoWeekOfDays } from "./date-calendar.js";
import { mapRows } from "./kernel-util.js";
import {
  castTo,
  checkArity,
  dateArg,
  exactArg,
  numberArg,
  register,
  registerAlias,
  type ScalarFunction,
  stringArg,
  timestampArg,
  typeMismatch,
} from "./registry.js";

const dayOf = (micros: number): number => Math.floor(micros / MICROS_PER_DAY);
/** 0 = Monday .. 6 = Sunday (1970-01-01 was a Thursday). */
const weekdayOf = (days: number): number => (((days + 3) % 7) + 7) % 7;
const dayOfYear = (days: number): number => days - daysFromCivil(civilFromDays(days).year, 1, 1) + 1;

/**
 * A DATE -> INT or DATE -> DATE function; its argument cast to DATE (timestamps and text too),
 * or with `exact` a DATE or NULL only, as Spark's unix_date (no implicit cast).
 */
function onDate(name: string, result: DataType, fn: (days: number) => number | null, exact = false): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      return { args: [exact ? exactArg(call, args, types, 0, DateType) : dateArg(call, args, types, 0)], type: result };
    },
    kernel: (args, n) => mapRows(result, args, n, (d) => fn(d as number)),
  };
}

/** Spark 4.3's class and wording (make_timestamp's too: make-timestamp.ts). */
function fieldOutOfBounds(detail: string): ArusError {
  return new ArusError("DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION", `[DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION] ${detail}. `);
}

const makeDate: ScalarFunction = {
  kind: "scalar",
  name: "make_date",
  resolve(args, types) {
    checkArity("make_date", args, 3);
    return { args: args.map((a, i) => castTo(a, types[i]!, IntegerType)), type: DateType };
  },
  kernel: (args, n, ctx) =>
    mapRows(DateType, args, n, (y, m, d) => {
      const [yy, mm, dd] = [y, m, d] as [number, number, number];
      if (isValidDate(yy, mm, dd) && yy >= -290308 && yy <= 294247) return daysFromCivil(yy, mm, dd);
      if (!ctx.ansi) return null;
      throw fieldOutOfBounds(
        mm < 1 || mm > 12
          ? `Invalid value for MonthOfYear (valid values 1 - 12): ${mm}`
          : dd < 1 || dd > 31
            ? `Invalid value for DayOfMonth (valid values 1 - 28/31): ${dd}`
            : `Invalid date '${monthName(mm)} ${dd}'`,
      );
    }),
};
function monthName(m: number): string {
  return ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"][m - 1]!;
}

const DAY_NAMES: Record<string, number> = { MO: 0, TU: 1, WE: 2, TH: 3, FR: 4, SA: 5, SU: 6 };
const FULL_DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];
/** Spark's getDayOfWeekFromString: two letters, three letters or the full English name. */
function dayOfWeekFromString(s: string): number | null {
  const u = s.toUpperCase();
  const k = DAY_NAMES[u.slice(0, 2)];
  if (k === undefined) return null;
  return u.length === 2 || u === FULL_DAYS[k]!.slice(0, 3) || u === FULL_DAYS[k] ? k : null;
}

/** next_day(date, dayOfWeek): the first such day strictly after the date. */
const nextDay: ScalarFunction = {
  kind: "scalar",
  name: "next_day",
  resolve(args, types, call) {
    checkArity("next_day", args, 2);
    return { args: [dateArg(call, args, types, 0), castTo(args[1]!, types[1]!, StringType)], type: DateType };
  },
  kernel: (args, n, ctx) =>
    mapRows(DateType, args, n, (d, name) => {
      const target = dayOfWeekFromString(name as string);
      if (target === null) {
        if (!ctx.ansi) return null;
        throw new ArusError("ILLEGAL_DAY_OF_WEEK", `[ILLEGAL_DAY_OF_WEEK] Illegal input for day of week: ${name}.`);
      }
      const days = d as number;
      return days + (((target - weekdayOf(days) + 6) % 7) + 1);
    }),
};

/** unix_seconds / unix_millis / unix_micros: a timestamp (no implicit cast) as whole units since the epoch, floored. */
function unixUnits(name: string, per: number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (t.kind !== "timestamp" && t.kind !== "null") throw typeMismatch(call, 0, '"TIMESTAMP"', args[0]!, t);
      return { args: [castTo(args[0]!, t, TimestampType)], type: LongType };
    },
    kernel: (args, n) => mapRows(LongType, args, n, (m) => (typeof m === "bigint" ? m / BigInt(per) : Math.floor((m as number) / per))),
  };
}

/** from_utc_timestamp / to_utc_timestamp: shift the wall clock between UTC and a zone. */
function zoneShift(name: string, fromUtc: boolean): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      return { args: [timestampArg(call, args, types, 0), stringArg(call, args, types, 1)], type: TimestampType };
    },
    kernel: (args, n) =>
      mapRows(TimestampType, args, n, (m, tz) =>
        fromUtc ? utcToLocalMicros(tz as string, m as number) : localToUtcMicros(tz as string, m as number),
      ),
  };
}

/** The fields of date_part / EXTRACT: each name with Spark's synonyms. */
const FIELDS: [names: string[], fn: (local: number) => number, time: boolean][] = [
  [["YEAR", "Y", "YEARS", "YR", "YRS"], (l) => civilFromDays(dayOf(l)).year, false],
  [["YEAROFWEEK"], (l) => civilFromDays(dayOf(l) - weekdayOf(dayOf(l)) + 3).year, false],
  [["QUARTER", "QTR"], (l) => Math.floor((civilFromDays(dayOf(l)).month - 1) / 3) + 1, false],
  [["MONTH", "MON", "MONS", "MONTHS"], (l) => civilFromDays(dayOf(l)).month, false],
  [["WEEK", "W", "WEEKS"], (l) => isoWeekOfDays(dayOf(l)), false],
  [["DAY", "D", "DAYS"], (l) => civilFromDays(dayOf(l)).day, false],
  [["DAYOFWEEK", "DOW"], (l) => ((weekdayOf(dayOf(l)) + 1) % 7) + 1, false],
  [["DAYOFWEEK_ISO", "DOW_ISO"], (l) => weekdayOf(dayOf(l)) + 1, false],
  [["DOY"], (l) => dayOfYear(dayOf(l)), false],
  [["HOUR", "H", "HOURS", "HR", "HRS"], (l) => Math.floor((l - dayOf(l) * MICROS_PER_DAY) / MICROS_PER_HOUR), true],
  [["MINUTE", "M", "MIN", "MINS", "MINUTES"], (l) => Math.floor((l - dayOf(l) * MICROS_PER_DAY) / MICROS_PER_MINUTE) % 60, true],
];
const SECOND_NAMES = ["SECOND", "S", "SEC", "SECONDS", "SECS"];
const SecondType = DecimalOf(8, 6);

function invalidField(field: string, source: Expr): AnalysisException {
  return new AnalysisException("INVALID_EXTRACT_FIELD", `[INVALID_EXTRACT_FIELD] Cannot extract ${field} from ${exprToSql(source)}.`);
}

/**
 * A day-time interval's fields, as Spark's ExtractANSIInterval*: the days (INT), the hours and
 * minutes within them (TINYINT), the seconds with their micros (DECIMAL(8, 6)), each signed as
 * the interval; only fields the interval's type has.
 */
const INTERVAL_FIELDS: readonly (readonly [DayTimeField, readonly string[], DataType, (micros: number) => number])[] = [
  ["DAY", ["DAY", "D", "DAYS"], IntegerType, (m) => Math.trunc(m / MICROS_PER_DAY)],
  ["HOUR", ["HOUR", "H", "HOURS", "HR", "HRS"], ByteType, (m) => Math.trunc(m / MICROS_PER_HOUR) % 24],
  ["MINUTE", ["MINUTE", "M", "MIN", "MINS", "MINUTES"], ByteType, (m) => Math.trunc(m / MICROS_PER_MINUTE) % 60],
  ["SECOND", SECOND_NAMES, SecondType, (m) => m % MICROS_PER_MINUTE],
];

function intervalFieldOf(field: string): (typeof INTERVAL_FIELDS)[number] | undefined {
  return INTERVAL_FIELDS.find(([, names]) => names.includes(field));
}

function resolveIntervalField(f: Expr, field: string, source: Expr, t: DataType) {
  const spec = intervalFieldOf(field);
  const [start, end] = dayTimeFields(t);
  const order = DAY_TIME_FIELDS;
  if (!spec || order.indexOf(spec[0]) < order.indexOf(start) || order.indexOf(spec[0]) > order.indexOf(end)) {
    throw new AnalysisException(
      "INVALID_EXTRACT_FIELD",
      `[INVALID_EXTRACT_FIELD] Cannot extract \`${(f as Expr & { kind: "literal" }).value}\` from "${exprToSql(source)}".`,
    );
  }
  return { args: [f, source], type: spec[2] };
}

function intervalField(field: string, src: Vector, n: number): Vector {
  const [, , type, fn] = intervalFieldOf(field)!;
  return mapRows(type, [src], n, (v) => fn(v as number));
}

/** date_part('field', source) and EXTRACT(field FROM source): the field must be a literal. */
function datePart(name: string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types) {
      checkArity(name, args, 2);
      const f = args[0]!;
      if (f.kind !== "literal" || typeof f.value !== "string")
        throw invalidField(f.kind === "literal" ? String(f.value) : exprToSql(f), args[1]!);
      const field = f.value.toUpperCase();
      const t = types[1]!;
      if (t.kind === "interval") return resolveIntervalField(f, field, args[1]!, t);
      const source = castTo(args[1]!, t, t.kind === "date" ? DateType : TimestampType);
      if (SECOND_NAMES.includes(field)) return { args: [f, castTo(args[1]!, t, TimestampType)], type: SecondType };
      if (!FIELDS.some(([names]) => names.includes(field))) throw invalidField(f.value, args[1]!);
      return { args: [f, source], type: IntegerType };
    },
    kernel(args, n, ctx) {
      const field = String((args[0]!.values as unknown[])[0] ?? "").toUpperCase();
      const src = args[1]!;
      if (src.type.kind === "interval") return intervalField(field, src, n);
      const local = (v: unknown): number =>
        src.type.kind === "date" ? (v as number) * MICROS_PER_DAY : utcToLocalMicros(ctx.timeZone, Number(v));
      if (SECOND_NAMES.includes(field)) {
        // Seconds with their micros as DECIMAL(8, 6): the unscaled value is micros of the minute.
        return mapRows(SecondType, [src], n, (v) => {
          const l = local(v);
          return l - Math.floor(l / MICROS_PER_MINUTE) * MICROS_PER_MINUTE;
        });
      }
      const fn = FIELDS.find(([names]) => names.includes(field))![1];
      return mapRows(IntegerType, [src], n, (v) => fn(local(v)));
    },
  };
}

register(
  makeDate,
  onDate("dayofyear", IntegerType, dayOfYear),
  onDate("weekday", IntegerType, weekdayOf),
  onDate("unix_date", IntegerType, (d) => d, true),
  nextDay,
  unixUnits("unix_seconds", 1_000_000),
  unixUnits("unix_millis", 1_000),
  unixUnits("unix_micros", 1),
  zoneShift("from_utc_timestamp", true),
  zoneShift("to_utc_timestamp", false),
  datePart("date_part"),
  datePart("extract"),
);
registerAlias("datepart", "date_part");

const dateFromUnixDate: ScalarFunction = {
  kind: "scalar",
  name: "date_from_unix_date",
  resolve(args, types, call) {
    checkArity("date_from_unix_date", args, 1);
    return { args: [numberArg(call, args, types, 0, IntegerType)], type: DateType };
  },
  kernel: (args, n) => mapRows(DateType, args, n, (d) => d),
};
register(dateFromUnixDate);
