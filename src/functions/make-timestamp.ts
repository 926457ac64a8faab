/**
 * make_timestamp / make_timestamp_ltz(year, month, day, hour, min, sec[, timezone]) and
 * try_make_timestamp: a TIMESTAMP from its local fields in the session's (or the given) time
 * zone. Seconds are DECIMAL(16, 6), so fractions below a microsecond round half up; 60 seconds
 * (with no fraction) is the next minute. A field out of range is Spark's
 * DATETIME_FIELD_OUT_OF_BOUNDS under ANSI and NULL otherwise (always NULL for try_).
 * make_timestamp_ntz is not here: arus has no TIMESTAMP_NTZ type.
 */

import { daysFromCivil, isValidDate } from "../common/datetime/calendar.js";
import { localToUtcMicros } from "../common/datetime/zones.js";
import { ArusError } from "../common/errors.js";
import { IntegerType, StringType, TimestampType } from "../types/datatypes.js";
import { DecimalOf } from "../types/decimal.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, numberArg, register, type ScalarFunction } from "./registry.js";

const MONTHS = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"];

const outOfBounds = (detail: string) =>
  new ArusError("DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION", `[DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION] ${detail}. `);

function field(name: string, v: number, lo: number, hi: number): void {
  if (v < lo || v > hi) throw outOfBounds(`Invalid value for ${name} (valid values ${lo} - ${hi}): ${v}`);
}

/** UTC microseconds of the local date-time, or throws DATETIME_FIELD_OUT_OF_BOUNDS. */
export function makeTimestampMicros(y: number, mo: number, d: number, h: number, mi: number, secMicros: bigint, tz: string): number {
  field("Year", y, -999999999, 999999999);
  field("MonthOfYear", mo, 1, 12);
  field("DayOfMonth", d, 1, 31);
  field("HourOfDay", h, 0, 23);
  field("MinuteOfHour", mi, 0, 59);
  const whole = Number(secMicros / 1_000_000n);
  const fraction = Number(secMicros % 1_000_000n);
  // 60 seconds is allowed only with no fraction, meaning the next minute (Spark's rule)
  if (!(whole === 60 && fraction === 0)) field("SecondOfMinute", secMicros < 0n ? -1 : whole, 0, 59);
  if (!isValidDate(y, mo, d)) throw outOfBounds(`Invalid date '${MONTHS[mo - 1]} ${d}'`);
  const local = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000_000 + Number(secMicros);
  return localToUtcMicros(tz, local);
}

function makeTimestamp(name: string, tolerant: boolean): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 6, 7);
      const cast = args.map((a, i) =>
        i < 6 ? numberArg(call, args, types, i, i < 5 ? IntegerType : DecimalOf(16, 6)) : castTo(a, types[i]!, StringType),
      );
      return { args: cast, type: TimestampType };
    },
    kernel: (args, n, ctx) =>
      mapRows(TimestampType, args, n, (y, mo, d, h, mi, s, tz) => {
        try {
          const micros = BigInt(s as number | bigint);
          return makeTimestampMicros(
            y as number,
            mo as number,
            d as number,
            h as number,
            mi as number,
            micros,
            (tz as string) ?? ctx.timeZone,
          );
        } catch (e) {
          if (e instanceof ArusError && (tolerant || !ctx.ansi)) return null;
          throw e;
        }
      }),
  };
}

register(
  makeTimestamp("make_timestamp", false),
  makeTimestamp("make_timestamp_ltz", false),
  makeTimestamp("try_make_timestamp", true),
  makeTimestamp("try_make_timestamp_ltz", true),
);
