/**
 * More of PySpark's `functions`: dates (add_months, months_between, last_day, weekofyear,
 * trunc, date_trunc, try_to_date), arrays and maps (array_join, array_distinct, array_max,
 * array_min, create_map, map_keys, map_values), signum / sign, isnan / nanvl and get_json_object. Re-exported
 * by functions.ts, so they are `F.add_months(...)` and so on.
 */
import { call, type Expr, literal } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";
import { Column, type ColumnOrName, lit, toExpr } from "./column.js";

const fn = (name: string, ...args: Expr[]) => new Column(call(name, args));
const str = (s: string) => literal(s, StringType);
/** PySpark's `Union[ColumnOrName, int]`: a number is a literal, a string a column name. */
const columnOrInt = (v: ColumnOrName | number): Expr => (typeof v === "number" ? lit(v).expr : toExpr(v));

export const signum = (c: ColumnOrName) => fn("signum", toExpr(c));
/** Sample variance (NULL for fewer than two rows); `variance` is the same. */
export const var_samp = (c: ColumnOrName) => fn("var_samp", toExpr(c));
export const variance = (c: ColumnOrName) => fn("variance", toExpr(c));
export const var_pop = (c: ColumnOrName) => fn("var_pop", toExpr(c));
/** Sample standard deviation (NULL for fewer than two rows); `stddev` and `std` are the same. */
export const stddev_samp = (c: ColumnOrName) => fn("stddev_samp", toExpr(c));
export const stddev = (c: ColumnOrName) => fn("stddev", toExpr(c));
export const std = (c: ColumnOrName) => fn("std", toExpr(c));
export const stddev_pop = (c: ColumnOrName) => fn("stddev_pop", toExpr(c));
/** True where `c` is NaN (false for NULL). */
export const isnan = (c: ColumnOrName) => fn("isnan", toExpr(c));
/** `a`, or `b` where `a` is NaN. */
export const nanvl = (a: ColumnOrName, b: ColumnOrName) => fn("nanvl", toExpr(a), toExpr(b));
export const sign = (c: ColumnOrName) => fn("sign", toExpr(c));

export const add_months = (start: ColumnOrName, months: ColumnOrName | number) => fn("add_months", toExpr(start), columnOrInt(months));
export const months_between = (date1: ColumnOrName, date2: ColumnOrName, roundOff = true) =>
  fn("months_between", toExpr(date1), toExpr(date2), lit(roundOff).expr);
export const last_day = (date: ColumnOrName) => fn("last_day", toExpr(date));
export const weekofyear = (c: ColumnOrName) => fn("weekofyear", toExpr(c));
/** A date truncated to "year" / "yyyy" / "yy", "quarter", "month" / "mm" / "mon" or "week"; NULL for other formats. */
export const trunc = (date: ColumnOrName, format: string) => fn("trunc", toExpr(date), str(format));
/** A timestamp truncated to a unit ("year" ... "second", "millisecond", "microsecond"); NULL for unknown units. */
export const date_trunc = (format: string, timestamp: ColumnOrName) => fn("date_trunc", str(format), toExpr(timestamp));
/** to_date that gives NULL where to_date raises (ANSI mode). */
export const try_to_date = (c: ColumnOrName, format?: string) =>
  format === undefined ? fn("try_to_date", toExpr(c)) : fn("try_to_date", toExpr(c), str(format));

export const array_join = (c: ColumnOrName, delimiter: string, nullReplacement?: string) =>
  nullReplacement === undefined
    ? fn("array_join", toExpr(c), str(delimiter))
    : fn("array_join", toExpr(c), str(delimiter), str(nullReplacement));
export const array_distinct = (c: ColumnOrName) => fn("array_distinct", toExpr(c));
export const array_max = (c: ColumnOrName) => fn("array_max", toExpr(c));
export const array_min = (c: ColumnOrName) => fn("array_min", toExpr(c));
/** SQL's map(k1, v1, k2, v2, ...); as PySpark, one array of columns may be given instead. */
export const create_map = (...cols: (ColumnOrName | ColumnOrName[])[]) => fn("map", ...cols.flat().map(toExpr));
export const map_keys = (c: ColumnOrName) => fn("map_keys", toExpr(c));
export const map_values = (c: ColumnOrName) => fn("map_values", toExpr(c));

/** The JSON value at a JsonPath (`$.a.b[0]`, `$['k']`, `[*]`) as text; NULL for invalid JSON or no match. */
export const get_json_object = (c: ColumnOrName, path: string) => fn("get_json_object", toExpr(c), str(path));

/** `format` as PySpark passes it: a Column (`F.lit("999.99")`) or, for convenience, its text. */
const formatArg = (format: Column | string) => (typeof format === "string" ? str(format) : format.expr);
/** A number as text in a format (`to_char(12.5, '99.9')`); a date or timestamp through date_format, as Spark. */
export const to_char = (c: ColumnOrName, format: Column | string) => fn("to_char", toExpr(c), formatArg(format));
export const to_varchar = (c: ColumnOrName, format: Column | string) => fn("to_varchar", toExpr(c), formatArg(format));
/** Text in a number format (`to_number('$1,234', '$9,999')`) as a DECIMAL; an invalid text is an error (try_to_number: NULL). */
export const to_number = (c: ColumnOrName, format: Column | string) => fn("to_number", toExpr(c), formatArg(format));
export const try_to_number = (c: ColumnOrName, format: Column | string) => fn("try_to_number", toExpr(c), formatArg(format));
/** Seconds since the epoch of a timestamp, or of text in `format` (default `yyyy-MM-dd HH:mm:ss`). */
export const to_unix_timestamp = (timestamp: ColumnOrName, format?: Column | string) =>
  format === undefined ? fn("to_unix_timestamp", toExpr(timestamp)) : fn("to_unix_timestamp", toExpr(timestamp), formatArg(format));
/** A day-time interval from days, hours, minutes and seconds (each a column; omitted ones 0). */
export const make_dt_interval = (days?: ColumnOrName, hours?: ColumnOrName, mins?: ColumnOrName, secs?: ColumnOrName) =>
  fn("make_dt_interval", ...[days, hours, mins, secs].map((c) => (c === undefined ? lit(0).expr : toExpr(c))));
/** Any SQL function (or a UDF registered with `session.udf.register`) by name: `F.call_function("upper", "s")`. */
export const call_function = (funcName: string, ...cols: ColumnOrName[]) => fn(funcName.toLowerCase(), ...cols.map(toExpr));
/** A UDF registered with `session.udf.register`, by name. */
export const call_udf = call_function;
/** PySpark's deprecated names of `degrees` and `radians`. */
export const toDegrees = (c: ColumnOrName) => fn("degrees", toExpr(c));
export const toRadians = (c: ColumnOrName) => fn("radians", toExpr(c));
