/**
 * The rest of PySpark's `functions` that arus implements: wrappers for SQL functions that had
 * no `F.*` form yet (bround, ceiling, ifnull, like, power, substr, ...) and the functions of
 * the src/functions/ modules bitwise, strings-misc, date-names, session-info, width-bucket,
 * map-more, json-more, array-insert, aliases, xxhash64, random, raise-error, shape-aggregates,
 * bit-aggregates, try-aggregates, regression-aggregates, approx-percentile, string-agg,
 * mode-aggregate, make-timestamp, timestamp-units, parse-url, hmac-base32, utf8-validity,
 * text-matching and to-binary. Argument forms follow PySpark: where PySpark takes
 * `Union[ColumnOrName, int]` a number is a literal and a string a column name; where it takes a
 * plain `str` (charsets, units, delimiters) the string is a literal.
 */
import { call, callByName, type Expr, literal } from "../plan/expressions.js";
import { BooleanType, StringType } from "../types/datatypes.js";
import { Column, type ColumnOrName, lit, toExpr } from "./column.js";
import type { DataFrame } from "./dataframe.js";

const fn = (name: string, ...args: Expr[]) => new Column(call(name, args));
const str = (s: string) => literal(s, StringType);
const unary = (name: string) => (c: ColumnOrName) => fn(name, toExpr(c));
const binary = (name: string) => (a: ColumnOrName, b: ColumnOrName) => fn(name, toExpr(a), toExpr(b));
/** PySpark's `Union[ColumnOrName, int/float]`: a number is a literal, a string a column name. */
const colOrNum = (v: ColumnOrName | number): Expr => (typeof v === "number" ? lit(v).expr : toExpr(v));

// ---- wrappers for SQL functions arus already had
/** HALF_EVEN rounding to `scale` decimal places. */
export const bround = (c: ColumnOrName, scale: ColumnOrName | number = 0) => fn("bround", toExpr(c), colOrNum(scale));
export const cardinality = unary("cardinality");
export const ceiling = (c: ColumnOrName, scale?: ColumnOrName | number) =>
  scale === undefined ? fn("ceiling", toExpr(c)) : fn("ceiling", toExpr(c), colOrNum(scale));
export const contains = binary("contains");
export const day = unary("day");
/** Bytes decoded with a charset ("UTF-8", "US-ASCII", "ISO-8859-1", "UTF-16", "UTF-16BE", "UTF-16LE", "UTF-32"). */
export const decode = (c: ColumnOrName, charset: string) => fn("decode", toExpr(c), str(charset));
export const encode = (c: ColumnOrName, charset: string) => fn("encode", toExpr(c), str(charset));
export const endswith = binary("endswith");
export const startswith = binary("startswith");
export const exp = unary("exp");
const ignoreNullsArg = (v: Column | boolean | undefined): Expr[] =>
  v === undefined ? [] : [typeof v === "boolean" ? literal(v, BooleanType) : v.expr];
export const first_value = (c: ColumnOrName, ignoreNulls?: Column | boolean) =>
  fn("first_value", toExpr(c), ...ignoreNullsArg(ignoreNulls));
export const last_value = (c: ColumnOrName, ignoreNulls?: Column | boolean) => fn("last_value", toExpr(c), ...ignoreNullsArg(ignoreNulls));
/** The array element at a 0-based index, NULL when out of range. */
export const get = (c: ColumnOrName, index: ColumnOrName | number) => fn("get", toExpr(c), colOrNum(index));
export const ifnull = binary("ifnull");
export const nvl = binary("nvl");
export const nullif = binary("nullif");
export const initcap = unary("initcap");
export const isnotnull = unary("isnotnull");
/** SQL LIKE; `escapeChar` a one-character column (F.lit("/")). */
export const like = (c: ColumnOrName, pattern: ColumnOrName, escapeChar?: Column) =>
  escapeChar === undefined ? fn("like", toExpr(c), toExpr(pattern)) : fn("like", toExpr(c), toExpr(pattern), escapeChar.expr);
export const ln = unary("ln");
export const log10 = unary("log10");
/** named_struct(name1, value1, ...): names are columns too (F.lit("a")), as PySpark's. */
export const named_struct = (...cols: ColumnOrName[]) => fn("named_struct", ...cols.map(toExpr));
/** PySpark's negative / negate: named `negative(c)`, unlike SQL's `-c`. */
export const negative = (c: ColumnOrName) => new Column(callByName("negative", [toExpr(c)]));
export const negate = negative;
export const positive = unary("positive");
export const now = () => fn("now");
export const pmod = (dividend: ColumnOrName | number, divisor: ColumnOrName | number) => fn("pmod", colOrNum(dividend), colOrNum(divisor));
export const power = (a: ColumnOrName | number, b: ColumnOrName | number) => fn("power", colOrNum(a), colOrNum(b));
export const quarter = unary("quarter");
export const regexp = binary("regexp");
export const rlike = binary("rlike");
export const replace = (src: ColumnOrName, search: ColumnOrName, replacement?: ColumnOrName) =>
  replacement === undefined ? fn("replace", toExpr(src), toExpr(search)) : fn("replace", toExpr(src), toExpr(search), toExpr(replacement));
export const reverse = unary("reverse");
export const sha = unary("sha");
export const substr = (c: ColumnOrName, pos: ColumnOrName, len?: ColumnOrName) =>
  len === undefined ? fn("substr", toExpr(c), toExpr(pos)) : fn("substr", toExpr(c), toExpr(pos), toExpr(len));
export const timestamp_micros = unary("timestamp_micros");
export const try_element_at = binary("try_element_at");

// ---- aliases and sort orders
export const lcase = unary("lcase");
export const ucase = unary("ucase");
export const asc_nulls_first = (c: ColumnOrName) => new Column(toExpr(c)).asc_nulls_first();
export const asc_nulls_last = (c: ColumnOrName) => new Column(toExpr(c)).asc_nulls_last();
export const desc_nulls_first = (c: ColumnOrName) => new Column(toExpr(c)).desc_nulls_first();
export const desc_nulls_last = (c: ColumnOrName) => new Column(toExpr(c)).desc_nulls_last();
/** A join hint in Spark; arus has one join strategy per shape, so the DataFrame comes back as it is. */
export const broadcast = (df: DataFrame): DataFrame => df;
export const sumDistinct = (c: ColumnOrName) => new Column(call("sum", [toExpr(c)], true));
export const approxCountDistinct = (c: ColumnOrName, _rsd?: number) => fn("approx_count_distinct", toExpr(c));
/** collect_list under its other name (PySpark names the column `collect_list(...)`; SQL `array_agg(v)` keeps its name). */
export const array_agg = unary("collect_list");
export const array_size = unary("array_size");

// ---- bits (src/functions/bitwise.ts)
export const bitwise_not = unary("~");
export const bitwiseNOT = bitwise_not;
export const shiftleft = (c: ColumnOrName, numBits: number) => fn("shiftleft", toExpr(c), lit(numBits).expr);
export const shiftright = (c: ColumnOrName, numBits: number) => fn("shiftright", toExpr(c), lit(numBits).expr);
export const shiftrightunsigned = (c: ColumnOrName, numBits: number) => fn("shiftrightunsigned", toExpr(c), lit(numBits).expr);
export const shiftLeft = shiftleft;
export const shiftRight = shiftright;
export const shiftRightUnsigned = shiftrightunsigned;
export const bit_count = unary("bit_count");
export const bit_get = (c: ColumnOrName, pos: ColumnOrName | number) => fn("bit_get", toExpr(c), colOrNum(pos));
export const getbit = (c: ColumnOrName, pos: ColumnOrName | number) => fn("getbit", toExpr(c), colOrNum(pos));

// ---- dates and the session (date-names.ts, session-info.ts, aliases.ts)
export const dayname = unary("dayname");
export const monthname = unary("monthname");
export const curdate = () => fn("curdate");
export const date_diff = binary("date_diff");
export const dateadd = (start: ColumnOrName, days: ColumnOrName | number) => fn("dateadd", toExpr(start), colOrNum(days));
export const current_database = () => fn("current_database");
export const current_schema = () => fn("current_schema");
export const current_catalog = () => fn("current_catalog");
export const current_user = () => fn("current_user");
export const user = () => fn("user");
export const session_user = () => fn("session_user");
/** arus' version string ("4.0.0-arus"), not a Spark build's. */
export const version = () => fn("version");

// ---- numbers and strings (width-bucket.ts, strings-misc.ts)
export const width_bucket = (v: ColumnOrName, min: ColumnOrName, max: ColumnOrName, numBucket: ColumnOrName | number) =>
  fn("width_bucket", toExpr(v), toExpr(min), toExpr(max), colOrNum(numBucket));
export const elt = (...inputs: ColumnOrName[]) => fn("elt", ...inputs.map(toExpr));
export const find_in_set = binary("find_in_set");
/** Masks upper-case letters, lower-case letters and digits (and with `otherChar`, the rest); replacements are columns (F.lit("Q")), as PySpark's. */
export const mask = (
  c: ColumnOrName,
  upperChar?: ColumnOrName,
  lowerChar?: ColumnOrName,
  digitChar?: ColumnOrName,
  otherChar?: ColumnOrName,
) => {
  const given = [upperChar, lowerChar, digitChar, otherChar];
  const last = given.findLastIndex((x) => x !== undefined);
  const defaults = ["X", "x", "n", null];
  return fn("mask", toExpr(c), ...given.slice(0, last + 1).map((x, i) => (x === undefined ? lit(defaults[i]).expr : toExpr(x))));
};
export const quote = unary("quote");

// ---- maps, arrays and JSON (map-more.ts, array-insert.ts, json-more.ts)
export const map_concat = (...cols: (ColumnOrName | ColumnOrName[])[]) => fn("map_concat", ...cols.flat().map(toExpr));
/** Whether the map has the key (a value is a literal, as PySpark's `value: Any`). */
export const map_contains_key = (c: ColumnOrName, value: unknown) =>
  fn("map_contains_key", toExpr(c), value instanceof Column ? value.expr : lit(value).expr);
export const map_entries = unary("map_entries");
export const map_from_arrays = binary("map_from_arrays");
export const map_from_entries = unary("map_from_entries");
export const str_to_map = (text: ColumnOrName, pairDelim?: ColumnOrName, keyValueDelim?: ColumnOrName) => {
  const args = [toExpr(text)];
  if (pairDelim !== undefined || keyValueDelim !== undefined) args.push(pairDelim === undefined ? str(",") : toExpr(pairDelim));
  if (keyValueDelim !== undefined) args.push(toExpr(keyValueDelim));
  return fn("str_to_map", ...args);
};
/** array_insert(arr, pos, value): `pos` a column or number, `value` a literal or column. */
export const array_insert = (arr: ColumnOrName, pos: ColumnOrName | number, value: unknown) =>
  fn("array_insert", toExpr(arr), colOrNum(pos), value instanceof Column ? value.expr : lit(value).expr);
export const json_array_length = unary("json_array_length");
export const json_object_keys = unary("json_object_keys");
/** The DDL type of a JSON literal (a string or F.lit). */
export const schema_of_json = (json: Column | string) => fn("schema_of_json", typeof json === "string" ? str(json) : json.expr);

// ---- hashes, randomness, errors (xxhash64.ts, random.ts, raise-error.ts)
/** Spark's XxHash64 of the columns (seed 42), bit for bit. */
export const xxhash64 = (...cols: ColumnOrName[]) => fn("xxhash64", ...cols.map(toExpr));
const seedArg = (seed?: number | bigint): Expr[] => (seed === undefined ? [] : [lit(seed).expr]);
/** Uniform in [0, 1): with a seed, row i of a single-partition input gets Spark's value. */
export const rand = (seed?: number | bigint) => fn("rand", ...seedArg(seed));
export const random = (seed?: number | bigint) => fn("random", ...seedArg(seed));
/** Standard normal: with a seed, Spark's values on a single-partition input. */
export const randn = (seed?: number | bigint) => fn("randn", ...seedArg(seed));
/** A random permutation of the array (seeded: reproducible, but not Spark's permutation). */
export const shuffle = (c: ColumnOrName, seed?: number | bigint) => fn("shuffle", toExpr(c), ...seedArg(seed));
export const uuid = () => fn("uuid");
export const monotonically_increasing_id = () => fn("monotonically_increasing_id");
export const spark_partition_id = () => fn("spark_partition_id");
/** The URI of the file a row was read from ("" where unknown, as after an aggregation or a join). */
export const input_file_name = () => fn("input_file_name");
/** Fails the query with USER_RAISED_EXCEPTION and the message (a column or text). */
export const raise_error = (message: ColumnOrName) => fn("raise_error", typeof message === "string" ? str(message) : message.expr);
export const assert_true = (c: ColumnOrName, errMsg?: Column | string) =>
  errMsg === undefined
    ? fn("assert_true", toExpr(c))
    : fn("assert_true", toExpr(c), typeof errMsg === "string" ? str(errMsg) : errMsg.expr);

// ---- aggregates (shape-aggregates.ts, bit-aggregates.ts)
export const skewness = unary("skewness");
export const kurtosis = unary("kurtosis");
/** Aggregate: nb histogram bins of a numeric column, Spark's NumericHistogram (ARRAY<STRUCT<x, y>>). */
export const histogram_numeric = (col: ColumnOrName, nBins: number) => fn("histogram_numeric", toExpr(col), lit(nBins).expr);
export const bit_and = unary("bit_and");
export const bit_or = unary("bit_or");
export const bit_xor = unary("bit_xor");
/** Spark's exact answer while a group has fewer than accuracy / 2 values: the value of rank ceil(p × n). */
export const percentile_approx = (c: ColumnOrName, percentage: number | readonly number[] | Column, accuracy: number = 10000) =>
  fn("percentile_approx", toExpr(c), percentageArg(percentage), lit(accuracy).expr);
export const approx_percentile = (c: ColumnOrName, percentage: number | readonly number[] | Column, accuracy: number = 10000) =>
  fn("approx_percentile", toExpr(c), percentageArg(percentage), lit(accuracy).expr);
const percentageArg = (p: number | readonly number[] | Column): Expr =>
  p instanceof Column
    ? p.expr
    : typeof p === "number"
      ? lit(p).expr
      : call(
          "array",
          p.map((x) => lit(x).expr),
        );
/** The group's non-NULL values as text, joined in arrival order (no DISTINCT or WITHIN GROUP yet). */
export const listagg = (c: ColumnOrName, delimiter?: Column | string) =>
  delimiter === undefined
    ? fn("listagg", toExpr(c))
    : fn("listagg", toExpr(c), typeof delimiter === "string" ? str(delimiter) : delimiter.expr);
export const string_agg = (c: ColumnOrName, delimiter?: Column | string) =>
  delimiter === undefined
    ? fn("string_agg", toExpr(c))
    : fn("string_agg", toExpr(c), typeof delimiter === "string" ? str(delimiter) : delimiter.expr);
export const try_sum = unary("try_sum");
export const try_avg = unary("try_avg");
export const regr_count = binary("regr_count");
export const regr_avgx = binary("regr_avgx");
export const regr_avgy = binary("regr_avgy");
export const regr_slope = binary("regr_slope");
export const regr_intercept = binary("regr_intercept");
export const regr_r2 = binary("regr_r2");
export const regr_sxx = binary("regr_sxx");
export const regr_syy = binary("regr_syy");
export const regr_sxy = binary("regr_sxy");

// ---- date-times (make-timestamp.ts, timestamp-units.ts)
/** `name(years, months, days, hours, mins, secs[, timezone])`: the make_timestamp family's one shape. */
const fromFields =
  (name: string) =>
  (
    years: ColumnOrName,
    months: ColumnOrName,
    days: ColumnOrName,
    hours: ColumnOrName,
    mins: ColumnOrName,
    secs: ColumnOrName,
    timezone?: ColumnOrName,
  ) =>
    fn(name, ...[years, months, days, hours, mins, secs, ...(timezone === undefined ? [] : [timezone])].map(toExpr));
/** A TIMESTAMP from local fields in the session (or the given) time zone; `secs` may have a fraction. */
export const make_timestamp = fromFields("make_timestamp");
export const make_timestamp_ltz = fromFields("make_timestamp_ltz");
/** make_timestamp, NULL instead of an error for invalid fields. */
export const try_make_timestamp = fromFields("try_make_timestamp");
/** make_timestamp_ltz, NULL instead of an error for invalid fields. */
export const try_make_timestamp_ltz = fromFields("try_make_timestamp_ltz");
/** `unit` is YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND or MICROSECOND. */
export const timestamp_add = (unit: string, quantity: ColumnOrName, ts: ColumnOrName) =>
  fn("timestampadd", str(unit.toUpperCase()), toExpr(quantity), toExpr(ts));
export const timestamp_diff = (unit: string, start: ColumnOrName, end: ColumnOrName) =>
  fn("timestampdiff", str(unit.toUpperCase()), toExpr(start), toExpr(end));

// ---- URLs, digests, encodings, text matching (parse-url.ts, hmac-base32.ts, utf8-validity.ts, text-matching.ts, to-binary.ts)
export const parse_url = (url: ColumnOrName, partToExtract: ColumnOrName, key?: ColumnOrName) =>
  key === undefined
    ? fn("parse_url", toExpr(url), toExpr(partToExtract))
    : fn("parse_url", toExpr(url), toExpr(partToExtract), toExpr(key));
export const try_parse_url = (url: ColumnOrName, partToExtract: ColumnOrName, key?: ColumnOrName) =>
  key === undefined
    ? fn("try_parse_url", toExpr(url), toExpr(partToExtract))
    : fn("try_parse_url", toExpr(url), toExpr(partToExtract), toExpr(key));
/** HMAC as Spark 4 computes it (keyed by `col`, over `key`), SHA-256 unless `algorithm` ("SHA-512", "SHA-1", "MD5", ...). */
export const hmac = (c: ColumnOrName, key: ColumnOrName, algorithm?: ColumnOrName) =>
  algorithm === undefined ? fn("hmac", toExpr(c), toExpr(key)) : fn("hmac", toExpr(c), toExpr(key), toExpr(algorithm));
export const to_base32 = unary("to_base32");
export const from_base32 = unary("from_base32");
export const is_valid_utf8 = unary("is_valid_utf8");
export const make_valid_utf8 = unary("make_valid_utf8");
export const validate_utf8 = unary("validate_utf8");
export const try_validate_utf8 = unary("try_validate_utf8");
export const jaro_winkler_similarity = binary("jaro_winkler_similarity");
export const regexp_instr = (c: ColumnOrName, regexp: ColumnOrName, idx?: ColumnOrName | number) =>
  idx === undefined ? fn("regexp_instr", toExpr(c), toExpr(regexp)) : fn("regexp_instr", toExpr(c), toExpr(regexp), colOrNum(idx));
export const sentences = (c: ColumnOrName, language?: ColumnOrName, country?: ColumnOrName) =>
  fn("sentences", toExpr(c), ...[language, country].filter((x) => x !== undefined).map((x) => toExpr(x!)));
/** Text to BINARY by format ("hex" by default, "utf-8", "base64"; a column such as F.lit("hex")). */
export const to_binary = (c: ColumnOrName, format?: ColumnOrName) =>
  format === undefined ? fn("to_binary", toExpr(c)) : fn("to_binary", toExpr(c), toExpr(format));
export const try_to_binary = (c: ColumnOrName, format?: ColumnOrName) =>
  format === undefined ? fn("try_to_binary", toExpr(c)) : fn("try_to_binary", toExpr(c), toExpr(format));
/** The most frequent value; ties: the first seen (Spark: unspecified), or with `deterministic` the smallest. */
export const mode = (c: ColumnOrName, deterministic?: boolean) =>
  deterministic === undefined ? fn("mode", toExpr(c)) : fn("mode", toExpr(c), literal(deterministic, BooleanType));
/** A uniform value in [min, max) (an integer for integer bounds); with a seed, Spark's values on a single-partition input. */
export const uniform = (min: ColumnOrName | number, max: ColumnOrName | number, seed?: ColumnOrName | number) =>
  fn("uniform", colOrNum(min), colOrNum(max), ...(seed === undefined ? [] : [colOrNum(seed)]));
