/**
 * Date and time functions. Timestamps are micros since epoch; fields (year, hour, ...) are
 * read in the session time zone, as Spark does.
 */
import { constantVector, makeVector, type Vector } from "../columnar/vector.js";
import {
  civilFromDays,
  compilePattern,
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  parseDate,
  parseTimestamp,
  utcToLocalMicros,
} from "../common/datetime/index.js";
import { AnalysisException, ArusError, arityError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import {
  type DataType,
  DateType,
  type DecimalType,
  DoubleType,
  IntegerType,
  isAtomic,
  isIntegral,
  isNumeric,
  LongType,
  StringType,
  sqlTypeName,
  TimestampType,
} from "../types/datatypes.js";
import { unscaledOf } from "../types/decimal.js";
import { invalidInput, tolerantCasts } from "./cast.js";
import { mapRows, mapUnary } from "./kernel-util.js";
import {
  castTo,
  checkArity,
  dateArg,
  type EvalContext,
  isTimeInput,
  numberArg,
  register,
  registerAlias,
  type ScalarFunction,
  timestampArg,
  typeMismatch,
} from "./registry.js";

const DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss";

const TIME_FIELDS = new Set(["hour", "minute", "second"]);

/** A field of a timestamp (or date) in the session zone, returned as INT. */
function field(name: string, fromLocal: (local: number) => number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      // hour, minute and second are builders in Spark 4 (TIME or TIMESTAMP): "> 0" when called empty
      if (args.length === 0 && TIME_FIELDS.has(name)) throw arityError(name, "> 0", 0);
      checkArity(name, args, 1);
      const t = types[0]!;
      if (t.kind === "date") return { args, type: IntegerType };
      // (a NULL is a NULL field; year, month... take a DATE in Spark, hour, minute, second a TIMESTAMP)
      if (t.kind !== "timestamp" && t.kind !== "string" && t.kind !== "null")
        throw typeMismatch(call, 0, TIME_FIELDS.has(name) ? '"TIMESTAMP"' : '"DATE"', args[0]!, t);
      return { args: [castTo(args[0]!, t, TimestampType)], type: IntegerType };
    },
    kernel(args, n, ctx) {
      const a = args[0]!;
      const tz = ctx.timeZone;
      if (a.type.kind === "date") return mapUnary(IntegerType, a, n, (d) => fromLocal(d * MICROS_PER_DAY));
      return mapUnary(IntegerType, a, n, (m) => fromLocal(utcToLocalMicros(tz, m)));
    },
  };
}

const dayOf = (local: number): number => Math.floor(local / MICROS_PER_DAY);
const microsOfDay = (local: number): number => local - dayOf(local) * MICROS_PER_DAY;

const UNIX_INPUTS = '("STRING" or "DATE" or "TIMESTAMP" or "TIMESTAMP_NTZ" or "(TIMESTAMP_LTZ(P) OR TIMESTAMP_NTZ(P) WITH P IN [7, 9])")';

/** unix_timestamp / to_unix_timestamp take a text or a time (not a number), and a STRING pattern. */
function checkUnixInput(call: Expr, args: readonly Expr[], types: readonly DataType[]): void {
  const t = types[0]!;
  if (!isTimeInput(t)) throw typeMismatch(call, 0, UNIX_INPUTS, args[0]!, t);
  const f = types[1];
  if (f !== undefined && f.kind !== "string" && f.kind !== "null") throw typeMismatch(call, 1, '"STRING"', args[1]!, f);
}

/** What Spark 4.3's to_date and to_timestamp name as their input types. */
const DATE_INPUTS = '("STRING" or "DATE" or "TIMESTAMP" or "TIMESTAMP_NTZ")';
const TIMESTAMP_INPUTS = '("STRING" or "DATE" or "TIMESTAMP" or "TIMESTAMP_NTZ" or "NUMERIC")';

function toTimestampLike(name: string, result: DataType): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1, 2);
      const t = types[0]!;
      if (result.kind === "bigint") checkUnixInput(call, args, types);
      else if (!isAtomic(t)) throw typeMismatch(call, 0, result.kind === "date" ? DATE_INPUTS : TIMESTAMP_INPUTS, args[0]!, t);
      if (args.length === 1 && t.kind !== "string") {
        const target = result.kind === "bigint" ? TimestampType : result;
        // Spark reads a boolean, and for a DATE a number, as its text: to_date(1) parses '1'
        if (t.kind === "boolean" || t.kind === "binary" || (target.kind === "date" && isNumeric(t))) {
          return { args: [castTo(castTo(args[0]!, t, StringType), StringType, target)], type: result };
        }
        return { args: [castTo(args[0]!, t, target)], type: result };
      }
      // a DATE, TIMESTAMP or NULL needs no parsing: the pattern is not used, as in Spark
      if (t.kind === "date" || t.kind === "timestamp" || t.kind === "null") {
        return { args: [castTo(args[0]!, t, result.kind === "bigint" ? TimestampType : result), args[1]!], type: result };
      }
      // BINARY bytes are parsed as their text, as Spark's implicit cast to STRING does
      if (t.kind === "binary") return { args: [castTo(args[0]!, t, StringType), args[1]!], type: result };
      if (t.kind !== "string") throw typeMismatch(call, 0, '"STRING"', args[0]!, t);
      return { args, type: result };
    },
    kernel(args, n, ctx) {
      const [a, f] = args as [Vector, Vector | undefined];
      const tz = ctx.timeZone;
      const toResult = (exactMicros: number | bigint | null): number | bigint | null => {
        if (exactMicros === null) return null;
        if (typeof exactMicros === "bigint") {
          // Beyond ±2^53 µs (after 2255): exact for TIMESTAMP and unix seconds (columnar/int64.ts).
          if (result.kind === "timestamp") return exactMicros;
          if (result.kind === "bigint") return Number(exactMicros / 1_000_000n);
        }
        const micros = Number(exactMicros);
        // unix_timestamp divides toward zero (Spark's micros / 1e6 on a long).
        if (result.kind === "bigint") return Math.trunc(micros / MICROS_PER_SECOND);
        if (result.kind === "date") return Math.floor(utcToLocalMicros(tz, micros) / MICROS_PER_DAY);
        return micros;
      };
      if (a.type.kind === "timestamp") return mapRows(result, [a], n, (m) => toResult(m as number | bigint));
      if (a.type.kind === "date") return mapUnary(result, a, n, (d) => d);
      // Under ANSI (Spark 4's default) malformed text raises as in Spark: to_date(s) and
      // to_timestamp(s) are CAST(s AS ...) (CAST_INVALID_INPUT); with a pattern (and
      // unix_timestamp's default one) CANNOT_PARSE_TIMESTAMP. The try_ forms run with ANSI off.
      const tryName = result.kind === "date" ? "try_to_date" : "try_to_timestamp";
      const raising = <T>(r: T | null, error: () => ArusError): T | null => {
        if (r === null && ctx.ansi) throw error();
        return r;
      };
      if (!f) {
        if (result.kind === "bigint" && name === "unix_timestamp") {
          const p = compilePattern(DEFAULT_FORMAT);
          return mapRows(result, args, n, (s) => raising(toResult(p.parse(s as string, tz)), () => cannotParse(s as string, tryName)));
        }
        const parse = result.kind === "date" ? (s: string) => parseDate(s) : (s: string) => toResult(parseTimestamp(s, tz));
        return mapRows(result, args, n, (s) => raising(parse(s as string), () => invalidInput(s, StringType, result)));
      }
      return mapRows(result, args, n, (s, fmt) =>
        raising(toResult(compilePattern(fmt as string).parse(s as string, tz)), () => cannotParse(s as string, tryName)),
      );
    },
  };
}

function cannotParse(text: string, tryName: string): ArusError {
  return new ArusError(
    "CANNOT_PARSE_TIMESTAMP",
    `[CANNOT_PARSE_TIMESTAMP] Text '${text}' could not be parsed. Use \`${tryName}\` to tolerate invalid input string and return NULL instead.`,
  );
}

const unixTimestamp: ScalarFunction = {
  ...toTimestampLike("unix_timestamp", LongType),
  resolve(args, types, call) {
    checkArity("unix_timestamp", args, 0, 2);
    if (args.length === 0) return { args, type: LongType };
    return toTimestampLike("unix_timestamp", LongType).resolve(args, types, call);
  },
  kernel(args, n, ctx) {
    if (args.length === 0) return constantVector(LongType, Math.floor(ctx.batchTimestampMs / 1000), n);
    return toTimestampLike("unix_timestamp", LongType).kernel(args, n, ctx);
  },
  foldable: false,
};

/** to_unix_timestamp(ts[, fmt]): unix_timestamp with its argument required. */
const toUnixTimestamp: ScalarFunction = {
  ...unixTimestamp,
  name: "to_unix_timestamp",
  resolve(args, types, call) {
    checkArity("to_unix_timestamp", args, 1, 2);
    return unixTimestamp.resolve(args, types, call);
  },
};

const fromUnixtime: ScalarFunction = {
  kind: "scalar",
  name: "from_unixtime",
  resolve(args, types, call) {
    checkArity("from_unixtime", args, 1, 2);
    return {
      args: [numberArg(call, args, types, 0, LongType), ...(args[1] ? [castTo(args[1], types[1]!, StringType)] : [])],
      type: StringType,
    };
  },
  kernel: (args, n, ctx) =>
    mapRows(StringType, args, n, (s, fmt) =>
      compilePattern((fmt as string | undefined) ?? DEFAULT_FORMAT).format((s as number) * MICROS_PER_SECOND, ctx.timeZone),
    ),
};

const dateFormat: ScalarFunction = {
  kind: "scalar",
  name: "date_format",
  resolve(args, types, call) {
    checkArity("date_format", args, 2);
    const ts = timestampArg(call, args, types, 0, '("TIMESTAMP" or "TIME" or "(TIMESTAMP_LTZ(P) OR TIMESTAMP_NTZ(P) WITH P IN [7, 9])")');
    return { args: [ts, castTo(args[1]!, types[1]!, StringType)], type: StringType };
  },
  kernel: (args, n, ctx) => mapRows(StringType, args, n, (m, fmt) => compilePattern(fmt as string).format(m as number, ctx.timeZone)),
};

function contextual(name: string, type: DataType, value: (ctx: EvalContext) => number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args) {
      checkArity(name, args, 0);
      return { args, type };
    },
    kernel: (_args, n, ctx) => constantVector(type, value(ctx), n),
    foldable: false,
  };
}

/** current_timezone(): the session time zone (`spark.sql.session.timeZone`). */
const currentTimezone: ScalarFunction = {
  kind: "scalar",
  name: "current_timezone",
  resolve(args) {
    checkArity("current_timezone", args, 0);
    return { args, type: StringType };
  },
  kernel: (_args, n, ctx) => constantVector(StringType, ctx.timeZone, n),
  foldable: false,
};

/**
 * current_timestamp / now, optionally with Spark 4's seconds precision: 6 (microseconds) is
 * the plain function, and named as it (`current_timestamp()`); 7 to 9 ask for nanosecond
 * timestamps, which Spark leaves off by default and arus does not have; anything else is refused.
 */
const currentTimestamp: ScalarFunction = {
  kind: "scalar",
  name: "current_timestamp",
  resolve(args, types, call) {
    checkArity("current_timestamp", args, 0, 1);
    if (args.length === 1) checkPrecision(args[0]!, types[0]!, call);
    return { args: [], type: TimestampType };
  },
  kernel: (_args, n, ctx) => constantVector(TimestampType, ctx.batchTimestampMs * 1000, n),
  foldable: false,
};

function checkPrecision(p: Expr, type: DataType, call: Expr): void {
  const name = call.kind === "call" ? call.name : "current_timestamp";
  if (!isIntegral(type)) {
    const shown = p.kind === "literal" ? String(p.value) : exprToSql(p);
    throw new AnalysisException(
      "UNEXPECTED_INPUT_TYPE",
      `[UNEXPECTED_INPUT_TYPE] Parameter first of function \`${name}\` requires the "INT" type, however "${shown}" has the type "${sqlTypeName(type)}".`,
    );
  }
  if (p.kind !== "literal" || p.value === null) {
    throw new AnalysisException(
      "NON_FOLDABLE_ARGUMENT",
      `[NON_FOLDABLE_ARGUMENT] The function \`${name}\` requires the parameter \`precision\` to be a foldable expression of the type "INT", but the actual argument is a non-foldable.`,
    );
  }
  const v = Number(p.value);
  if (v === 6) return;
  if (v >= 7 && v <= 9) {
    throw new ArusError(
      "FEATURE_NOT_ENABLED",
      "[FEATURE_NOT_ENABLED] The feature Nanosecond-precision timestamp types is not enabled. Consider setting the config spark.sql.timestampNanosTypes.enabled to true to enable this capability.",
    );
  }
  throw new ArusError(
    "INVALID_TIMESTAMP_PRECISION",
    `[INVALID_TIMESTAMP_PRECISION] The seconds precision ${v} of TIMESTAMP_LTZ is invalid. Expected an integer in [7, 9] for nanosecond precision; use precision 6 or parameterless TIMESTAMP_LTZ for the standard microsecond type.`,
  );
}

/**
 * timestamp_seconds (any number: a DECIMAL exactly, a fractional part kept), timestamp_millis and
 * timestamp_micros (whole numbers), as Spark's: a string or a boolean is refused, not cast.
 */
function fromNumber(name: string, scale: number): ScalarFunction {
  const fractional = scale === MICROS_PER_SECOND;
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (t.kind !== "null" && !(fractional ? isNumeric(t) : isIntegral(t))) {
        throw typeMismatch(call, 0, fractional ? '"NUMERIC"' : '"INTEGRAL"', args[0]!, t);
      }
      if (t.kind === "decimal") return { args, type: TimestampType };
      return { args: [castTo(args[0]!, t, t.kind === "double" || t.kind === "float" ? DoubleType : LongType)], type: TimestampType };
    },
    kernel: (args, n) =>
      args[0]!.type.kind === "decimal"
        ? decimalSecondsToMicros(args[0]!, n)
        : mapUnary(TimestampType, args[0]!, n, (x) => Math.trunc(x * scale)),
  };
}

/** Seconds as a DECIMAL to microseconds, exactly: a finer fraction is Java's "Rounding necessary", as in Spark. */
function decimalSecondsToMicros(v: Vector, n: number): Vector {
  const shift = 6 - (v.type as DecimalType).scale;
  const unit = 10n ** BigInt(Math.abs(shift));
  const lanes = v.values as ArrayLike<number | bigint>;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (v.validity !== null && v.validity[i] === 0) continue;
    const u = unscaledOf(lanes[i]);
    if (shift < 0 && u % unit !== 0n) throw new ArusError("ARITHMETIC_EXCEPTION", "Rounding necessary");
    out[i] = Number(shift >= 0 ? u * unit : u / unit);
  }
  return makeVector(TimestampType, out, v.validity === null ? null : v.validity.slice(0, n), n);
}

function dateArith(name: string, sign: 1 | -1): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      return { args: [dateArg(call, args, types, 0), castTo(args[1]!, types[1]!, IntegerType)], type: DateType };
    },
    kernel: (args, n) => mapRows(DateType, args, n, (d, k) => (d as number) + sign * (k as number)),
  };
}

const datediff: ScalarFunction = {
  kind: "scalar",
  name: "datediff",
  resolve(args, types, call) {
    checkArity("datediff", args, 2);
    return { args: args.map((_, i) => dateArg(call, args, types, i)), type: IntegerType };
  },
  kernel: (args, n) => mapRows(IntegerType, args, n, (a, b) => (a as number) - (b as number)),
};

/** `window_time(window)`: the window's end minus one microsecond. */
const windowTime: ScalarFunction = {
  kind: "scalar",
  name: "window_time",
  resolve(args: readonly Expr[], types, call) {
    checkArity("window_time", args, 1);
    if (types[0]!.kind !== "struct") throw typeMismatch(call, 0, `"${"STRUCT<start: TIMESTAMP, end: TIMESTAMP>"}"`, args[0]!, types[0]!);
    return { args, type: TimestampType };
  },
  kernel(args, n) {
    const end = args[0]!.children![1]!;
    const out = mapUnary(TimestampType, end, n, (e) => e - 1);
    return args[0]!.validity ? { ...out, validity: args[0]!.validity } : out;
  },
};

/** Spark's internal extractansiintervaldays(iv): the whole days of a day-time interval (`d + INTERVAL '3' DAY`). */
const extractAnsiIntervalDays: ScalarFunction = {
  kind: "scalar",
  name: "extractansiintervaldays",
  internal: true,
  resolve(args, types, call) {
    checkArity("extractansiintervaldays", args, 1);
    if (types[0]!.kind !== "interval") throw typeMismatch(call, 0, '"INTERVAL DAY"', args[0]!, types[0]!);
    return { args, type: IntegerType };
  },
  kernel: (args, n) => mapUnary(IntegerType, args[0]!, n, (us) => Math.trunc(us / MICROS_PER_DAY)),
};

register(
  field("year", (l) => civilFromDays(dayOf(l)).year),
  field("month", (l) => civilFromDays(dayOf(l)).month),
  field("dayofmonth", (l) => civilFromDays(dayOf(l)).day),
  field("hour", (l) => Math.floor(microsOfDay(l) / MICROS_PER_HOUR)),
  field("minute", (l) => Math.floor(microsOfDay(l) / MICROS_PER_MINUTE) % 60),
  field("second", (l) => Math.floor(microsOfDay(l) / MICROS_PER_SECOND) % 60),
  field("dayofweek", (l) => ((((dayOf(l) + 4) % 7) + 7) % 7) + 1),
  field("quarter", (l) => Math.floor((civilFromDays(dayOf(l)).month - 1) / 3) + 1),
  unixTimestamp,
  toUnixTimestamp,
  toTimestampLike("to_timestamp", TimestampType),
  toTimestampLike("to_date", DateType),
  fromUnixtime,
  dateFormat,
  currentTimestamp,
  currentTimezone,
  contextual("current_date", DateType, (ctx) => Math.floor(utcToLocalMicros(ctx.timeZone, ctx.batchTimestampMs * 1000) / MICROS_PER_DAY)),
  contextual("current_watermark", TimestampType, (ctx) => ctx.watermarkMs * 1000),
  fromNumber("timestamp_seconds", MICROS_PER_SECOND),
  fromNumber("timestamp_millis", 1_000),
  fromNumber("timestamp_micros", 1),
  dateArith("date_add", 1),
  dateArith("date_sub", -1),
  extractAnsiIntervalDays,
  datediff,
  windowTime,
);
registerAlias("day", "dayofmonth");
registerAlias("now", "current_timestamp");
/** try_to_timestamp / try_to_date: NULL where the plain function raises (ANSI off). */
function tryForm(name: string, plain: ScalarFunction): ScalarFunction {
  return {
    ...plain,
    name,
    // its implicit casts tolerate bad input too (try_to_date(1) reads '1': NULL, not an error)
    resolve: (args, types, call) => {
      const r = plain.resolve(args, types, call);
      return { ...r, args: r.args.map(tolerantCasts) };
    },
    kernel: (args, n, ctx) => plain.kernel(args, n, { ...ctx, ansi: false }),
  };
}
register(
  tryForm("try_to_timestamp", toTimestampLike("to_timestamp", TimestampType)),
  tryForm("try_to_date", toTimestampLike("to_date", DateType)),
);
