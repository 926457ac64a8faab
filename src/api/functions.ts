/**
 * `functions` (imported as `F`): PySpark's function names in snake_case. Arguments that are
 * plain strings are column names, except where PySpark takes a literal (formats, durations,
 * patterns).
 */
import { IllegalArgumentException } from "../common/errors.js";
import { typeToJson } from "../connectors/table/schema-json.js";
import { anyExpr, call, caseWhen, type Expr, literal, transformUp } from "../plan/expressions.js";
import { parseDataType, parseExpression, parseSchema } from "../sql/index.js";
import { type ArrayType, BooleanType, type DataType, IntegerType, type MapType, StringType, type StructType } from "../types/datatypes.js";
import { Column, type ColumnOrName, type ColumnOrValue, col, lit, toExpr } from "./column.js";

const fn = (name: string, ...args: Expr[]) => new Column(call(name, args));
const str = (s: string) => literal(s, StringType);

export { col, lit };
export const column = col;

/** Parse a Spark SQL expression: `F.expr("value % 2 = 0")`. */
export function expr(sqlText: string): Column {
  return new Column(parseExpression(sqlText));
}

const SQL_ARG = "__arus_sql_arg_";

/**
 * arus-only: a Spark SQL expression as a tagged template, `` F.sql`value % ${n} = 0` ``.
 * Each `${...}` becomes a value, never SQL text: a Column stands for itself, anything else is
 * a literal (a string is a string literal, not a column name), so no value can inject SQL.
 * Write `${x}` bare, not inside quotes.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Column {
  let text = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) text += ` ${SQL_ARG}${i}__ ${strings[i + 1] ?? ""}`;
  const args = values.map((v) => lit(v).expr);
  const parsed = transformUp(parseExpression(text), (e) => {
    if (e.kind !== "column" || e.nameParts.length !== 1) return e;
    const m = new RegExp(`^${SQL_ARG}(\\d+)__$`).exec(e.nameParts[0]!);
    return m ? args[Number(m[1])]! : e;
  });
  const leftOver = anyExpr(
    parsed,
    (e) =>
      (e.kind === "column" && e.nameParts.some((p) => p.includes(SQL_ARG))) || (e.kind === "literal" && String(e.value).includes(SQL_ARG)),
  );
  if (leftOver) {
    throw new IllegalArgumentException(
      `F.sql: an interpolated value must stand where a value stands, bare (not inside quotes or as part of a name): ${strings.join("<value>")}`,
    );
  }
  return new Column(parsed);
}

export function when(condition: Column, value: ColumnOrValue): Column {
  return new Column(caseWhen([[condition.expr, lit(value).expr]], null));
}

// ---- aggregates
export const count = (c: ColumnOrName) => fn("count", c === "*" ? { kind: "literal", value: 1, type: IntegerType } : toExpr(c));
export const sum = (c: ColumnOrName) => fn("sum", toExpr(c));
export const avg = (c: ColumnOrName) => fn("avg", toExpr(c));
/** PySpark names it `avg(c)` (SQL's mean(c) keeps its name). */
export const mean = (c: ColumnOrName) => fn("avg", toExpr(c));
export const min = (c: ColumnOrName) => fn("min", toExpr(c));
export const max = (c: ColumnOrName) => fn("max", toExpr(c));
export const first = (c: ColumnOrName, ignoreNulls = false) => fn("first", toExpr(c), literal(ignoreNulls ? 1 : 0, BooleanType));
export const last = (c: ColumnOrName, ignoreNulls = false) => fn("last", toExpr(c), literal(ignoreNulls ? 1 : 0, BooleanType));
export const count_distinct = (c: ColumnOrName, ...more: ColumnOrName[]) =>
  new Column(call("count", [toExpr(c), ...more.map(toExpr)], true));
export const countDistinct = count_distinct;
export const approx_count_distinct = (c: ColumnOrName, _rsd?: number) => fn("approx_count_distinct", toExpr(c));
export const collect_list = (c: ColumnOrName) => fn("collect_list", toExpr(c));
export const collect_set = (c: ColumnOrName) => fn("collect_set", toExpr(c));
export const sum_distinct = (c: ColumnOrName) => new Column(call("sum", [toExpr(c)], true));

/** 1 when `c` is rolled up (NULL because of ROLLUP / CUBE / GROUPING SETS) in this row, else 0. */
export const grouping = (c: ColumnOrName) => fn("grouping", toExpr(c));
/** The grouping set of this row as bits (column i of n rolled up: bit n-1-i); with columns, they must be the grouping columns in order. */
export const grouping_id = (...cols: ColumnOrName[]) => fn("grouping_id", ...cols.map(toExpr));

// ---- window functions (with .over(Window...))
export const row_number = () => fn("row_number");
export const rank = () => fn("rank");
export const dense_rank = () => fn("dense_rank");
export const percent_rank = () => fn("percent_rank");
export const cume_dist = () => fn("cume_dist");
export const ntile = (n: number) => fn("ntile", literal(n, IntegerType));
/** The value `offset` rows before the current one in the window, or `defaultValue` (PySpark's lag(col, offset=1, default=None)). */
export const lag = (c: ColumnOrName, offset = 1, defaultValue: ColumnOrValue = null) =>
  defaultValue === null
    ? fn("lag", toExpr(c), literal(offset, IntegerType))
    : fn("lag", toExpr(c), literal(offset, IntegerType), lit(defaultValue).expr);
/** The value `offset` rows after the current one in the window, or `defaultValue`. */
export const lead = (c: ColumnOrName, offset = 1, defaultValue: ColumnOrValue = null) =>
  defaultValue === null
    ? fn("lead", toExpr(c), literal(offset, IntegerType))
    : fn("lead", toExpr(c), literal(offset, IntegerType), lit(defaultValue).expr);
/** The value of the `offset`-th row (1-based) of the window frame. */
export const nth_value = (c: ColumnOrName, offset: number, ignoreNulls = false) =>
  fn("nth_value", toExpr(c), literal(offset, IntegerType), literal(ignoreNulls, BooleanType));

// ---- date and time
export const unix_timestamp = (c?: ColumnOrName, format?: string) =>
  c === undefined
    ? fn("unix_timestamp")
    : format === undefined
      ? fn("unix_timestamp", toExpr(c))
      : fn("unix_timestamp", toExpr(c), str(format));
export const to_timestamp = (c: ColumnOrName, format?: string) =>
  format === undefined ? fn("to_timestamp", toExpr(c)) : fn("to_timestamp", toExpr(c), str(format));
/** to_timestamp that returns NULL instead of failing on malformed input (ANSI mode). */
export const try_to_timestamp = (c: ColumnOrName, format?: string) =>
  format === undefined ? fn("try_to_timestamp", toExpr(c)) : fn("try_to_timestamp", toExpr(c), str(format));
export const to_date = (c: ColumnOrName, format?: string) =>
  format === undefined ? fn("to_date", toExpr(c)) : fn("to_date", toExpr(c), str(format));
export const from_unixtime = (c: ColumnOrName, format = "yyyy-MM-dd HH:mm:ss") => fn("from_unixtime", toExpr(c), str(format));
export const date_format = (c: ColumnOrName, format: string) => fn("date_format", toExpr(c), str(format));
export const current_timestamp = () => fn("current_timestamp");
export const current_date = () => fn("current_date");
export const timestamp_seconds = (c: ColumnOrName) => fn("timestamp_seconds", toExpr(c));
export const timestamp_millis = (c: ColumnOrName) => fn("timestamp_millis", toExpr(c));
export const year = (c: ColumnOrName) => fn("year", toExpr(c));
export const month = (c: ColumnOrName) => fn("month", toExpr(c));
export const dayofmonth = (c: ColumnOrName) => fn("dayofmonth", toExpr(c));
export const dayofweek = (c: ColumnOrName) => fn("dayofweek", toExpr(c));
export const hour = (c: ColumnOrName) => fn("hour", toExpr(c));
export const minute = (c: ColumnOrName) => fn("minute", toExpr(c));
export const second = (c: ColumnOrName) => fn("second", toExpr(c));
export const date_add = (c: ColumnOrName, days: number | Column) => fn("date_add", toExpr(c), lit(days).expr);
export const date_sub = (c: ColumnOrName, days: number | Column) => fn("date_sub", toExpr(c), lit(days).expr);
export const datediff = (end: ColumnOrName, start: ColumnOrName) => fn("datediff", toExpr(end), toExpr(start));

/** Tumbling or sliding event-time window: `window("ts", "10 seconds", "5 seconds")`. */
export function window(timeColumn: ColumnOrName, windowDuration: string, slideDuration?: string, startTime?: string): Column {
  const args: Expr[] = [toExpr(timeColumn), str(windowDuration)];
  if (slideDuration !== undefined || startTime !== undefined) args.push(str(slideDuration ?? windowDuration));
  if (startTime !== undefined) args.push(str(startTime));
  return new Column(call("window", args));
}
/** Session window with a static gap ("5 minutes") or a per-row gap column. */
export function session_window(timeColumn: ColumnOrName, gapDuration: string | Column): Column {
  return fn("session_window", toExpr(timeColumn), typeof gapDuration === "string" ? str(gapDuration) : gapDuration.expr);
}
export const window_time = (windowColumn: ColumnOrName) => fn("window_time", toExpr(windowColumn));
/**
 * arus-only: the watermark in force for the current micro-batch, as a TIMESTAMP (epoch when no
 * watermark has been set yet). `where(col("event_time").geq(current_watermark()))` keeps only
 * rows at or above the watermark in a stateless query.
 */
export const current_watermark = () => fn("current_watermark");

// ---- collections, strings, math, conditionals
export const array = (...cs: ColumnOrName[]) => fn("array", ...cs.map(toExpr));
export const struct = (...cs: ColumnOrName[]) => fn("struct", ...cs.map(toExpr));
export const element_at = (c: ColumnOrName, extraction: ColumnOrValue) => fn("element_at", toExpr(c), lit(extraction).expr);
export const size = (c: ColumnOrName) => fn("size", toExpr(c));
export const sort_array = (c: ColumnOrName, asc = true) => fn("sort_array", toExpr(c), lit(asc).expr);
export const array_contains = (c: ColumnOrName, value: ColumnOrValue) => fn("array_contains", toExpr(c), lit(value).expr);
export const concat = (...cs: ColumnOrName[]) => fn("concat", ...cs.map(toExpr));
export const concat_ws = (sep: string, ...cs: ColumnOrName[]) => fn("concat_ws", str(sep), ...cs.map(toExpr));
export const upper = (c: ColumnOrName) => fn("upper", toExpr(c));
export const lower = (c: ColumnOrName) => fn("lower", toExpr(c));
export const length = (c: ColumnOrName) => fn("length", toExpr(c));
/** Strips spaces, or with `trimChars` (a column, as PySpark's `trim`; `F.lit("x")` for text), any of its characters, from both ends. */
export const trim = (c: ColumnOrName, trimChars?: ColumnOrName) =>
  trimChars === undefined ? fn("trim", toExpr(c)) : fn("trim", toExpr(trimChars), toExpr(c));
export const substring = (c: ColumnOrName, pos: number, len: number) => fn("substring", toExpr(c), lit(pos).expr, lit(len).expr);
export const regexp_replace = (c: ColumnOrName, pattern: string, replacement: string) =>
  fn("regexp_replace", toExpr(c), str(pattern), str(replacement));
export const regexp_extract = (c: ColumnOrName, pattern: string, idx: number) =>
  fn("regexp_extract", toExpr(c), str(pattern), lit(idx).expr);

// ---- more strings (src/functions/strings-extra.ts, strings-regex.ts, strings-format.ts)
const strArg = (v: ColumnOrValue) => (typeof v === "string" ? str(v) : lit(v).expr);
export const ltrim = (c: ColumnOrName, trimChars?: ColumnOrName) =>
  trimChars === undefined ? fn("ltrim", toExpr(c)) : fn("ltrim", toExpr(trimChars), toExpr(c));
export const rtrim = (c: ColumnOrName, trimChars?: ColumnOrName) =>
  trimChars === undefined ? fn("rtrim", toExpr(c)) : fn("rtrim", toExpr(trimChars), toExpr(c));
export const lpad = (c: ColumnOrName, len: ColumnOrValue, pad: ColumnOrValue = " ") => fn("lpad", toExpr(c), lit(len).expr, strArg(pad));
export const rpad = (c: ColumnOrName, len: ColumnOrValue, pad: ColumnOrValue = " ") => fn("rpad", toExpr(c), lit(len).expr, strArg(pad));
/** Splits around matches of a Java regular expression; `limit` > 0 caps the number of parts. */
export const split = (c: ColumnOrName, pattern: string, limit = -1) => fn("split", toExpr(c), str(pattern), lit(limit).expr);
/** 1-based position of `substr` in `c` at or after `pos`, 0 when absent (PySpark's argument order). */
export const locate = (substr: string, c: ColumnOrName, pos = 1) => fn("locate", str(substr), toExpr(c), lit(pos).expr);
/** As locate, every argument a column (PySpark's `position`; a number `start` is a literal). */
export const position = (substr: ColumnOrName, c: ColumnOrName, start?: ColumnOrName | number) =>
  start === undefined
    ? fn("position", toExpr(substr), toExpr(c))
    : fn("position", toExpr(substr), toExpr(c), typeof start === "number" ? lit(start).expr : toExpr(start));
export const instr = (c: ColumnOrName, substr: string) => fn("instr", toExpr(c), str(substr));
export const translate = (c: ColumnOrName, matching: string, replace: string) => fn("translate", toExpr(c), str(matching), str(replace));
export const repeat = (c: ColumnOrName, n: ColumnOrName | number) =>
  fn("repeat", toExpr(c), typeof n === "number" ? lit(n).expr : toExpr(n));
export const left = (c: ColumnOrName, len: ColumnOrName) => fn("left", toExpr(c), toExpr(len));
export const right = (c: ColumnOrName, len: ColumnOrName) => fn("right", toExpr(c), toExpr(len));
export const substring_index = (c: ColumnOrName, delim: string, count: number) =>
  fn("substring_index", toExpr(c), str(delim), lit(count).expr);
export const ascii = (c: ColumnOrName) => fn("ascii", toExpr(c));
export const chr = (c: ColumnOrName) => fn("chr", toExpr(c));
export const char = chr;
export const base64 = (c: ColumnOrName) => fn("base64", toExpr(c));
export const unbase64 = (c: ColumnOrName) => fn("unbase64", toExpr(c));
export const hex = (c: ColumnOrName) => fn("hex", toExpr(c));
export const unhex = (c: ColumnOrName) => fn("unhex", toExpr(c));
export const md5 = (c: ColumnOrName) => fn("md5", toExpr(c));
export const sha1 = (c: ColumnOrName) => fn("sha1", toExpr(c));
/** SHA-2 digest as hex; `numBits` 224, 256 (or 0), 384 or 512, else NULL. */
export const sha2 = (c: ColumnOrName, numBits: number) => fn("sha2", toExpr(c), lit(numBits).expr);
export const crc32 = (c: ColumnOrName) => fn("crc32", toExpr(c));
/** `#,###,###.##` with `d` decimal places (HALF_EVEN), or a DecimalFormat pattern of `#`, `0`, `,` and `.`. */
export const format_number = (c: ColumnOrName, d: number | string) =>
  fn("format_number", toExpr(c), typeof d === "string" ? str(d) : lit(d).expr);
/** Java's String.format: %s %d %x %o %f %e %c %b and %%, with flags - 0 + space , and width / precision. */
export const format_string = (format: string, ...cs: ColumnOrName[]) => fn("format_string", str(format), ...cs.map(toExpr));
export const printf = (format: ColumnOrName, ...cs: ColumnOrName[]) => fn("printf", toExpr(format), ...cs.map(toExpr));
export const regexp_count = (c: ColumnOrName, pattern: ColumnOrName) => fn("regexp_count", toExpr(c), toExpr(pattern));
export const regexp_extract_all = (c: ColumnOrName, pattern: ColumnOrName, idx: ColumnOrValue = 1) =>
  fn("regexp_extract_all", toExpr(c), toExpr(pattern), lit(idx).expr);
export const regexp_substr = (c: ColumnOrName, pattern: ColumnOrName) => fn("regexp_substr", toExpr(c), toExpr(pattern));
export const coalesce = (...cs: ColumnOrName[]) => fn("coalesce", ...cs.map(toExpr));
export const isnull = (c: ColumnOrName) => fn("isnull", toExpr(c));
export const abs = (c: ColumnOrName) => fn("abs", toExpr(c));
export const round = (c: ColumnOrName, scale = 0) => fn("round", toExpr(c), lit(scale).expr);
/** floor(c) / ceil(c), or with a scale (a number: digits after the point; negative: tens, hundreds, ...) a DECIMAL. */
export const floor = (c: ColumnOrName, scale?: number) =>
  scale === undefined ? fn("floor", toExpr(c)) : fn("floor", toExpr(c), lit(scale).expr);
export const ceil = (c: ColumnOrName, scale?: number) =>
  scale === undefined ? fn("ceil", toExpr(c)) : fn("ceil", toExpr(c), lit(scale).expr);
export const sqrt = (c: ColumnOrName) => fn("sqrt", toExpr(c));
/** PySpark calls power: the column is POWER(a, b). */
export const pow = (a: ColumnOrName, b: ColumnOrValue) => fn("power", toExpr(a), lit(b).expr);
export const greatest = (...cs: ColumnOrName[]) => fn("greatest", ...cs.map(toExpr));
export const least = (...cs: ColumnOrName[]) => fn("least", ...cs.map(toExpr));
export const asc = (c: string) => col(c).asc();
export const desc = (c: string) => col(c).desc();

/**
 * Parse a JSON string column into a struct, or an array or map when the schema is one (Spark's
 * PERMISSIVE by default; options.mode FAILFAST). The schema: DDL (`"a INT, b STRING"`,
 * `"ARRAY<STRUCT<a: INT>>"`, `"MAP<STRING, INT>"`), a DataType, or Spark's schema JSON.
 */
export function from_json(c: ColumnOrName, schema: string | StructType | ArrayType | MapType, options?: Record<string, string>): Column {
  const st = typeof schema === "string" ? (schema.trim().startsWith("{") ? null : jsonSchemaDdl(schema)) : schema;
  const text = st === null ? (schema as string) : JSON.stringify(typeToJson(st));
  return options ? fn("from_json", toExpr(c), str(text), str(JSON.stringify(options))) : fn("from_json", toExpr(c), str(text));
}
/** A from_json DDL schema: a struct's fields, or an ARRAY / MAP type. */
function jsonSchemaDdl(ddl: string): DataType {
  return /^\s*(ARRAY|MAP)\s*</i.test(ddl) ? parseDataType(ddl) : parseSchema(ddl);
}

/** Parse a CSV record string column into a struct (schema as DDL or StructType; the CSV reader's options, mode PERMISSIVE / FAILFAST). */
export function from_csv(c: ColumnOrName, schema: string | StructType, options?: Record<string, string>): Column {
  const st = typeof schema === "string" ? (schema.trim().startsWith("{") ? null : parseSchema(schema)) : schema;
  const text = st === null ? (schema as string) : JSON.stringify(typeToJson(st));
  return options ? fn("from_csv", toExpr(c), str(text), str(JSON.stringify(options))) : fn("from_csv", toExpr(c), str(text));
}
/** A struct column as one CSV record per row (the CSV writer's quoting and options). */
export function to_csv(c: ColumnOrName, options?: Record<string, string>): Column {
  return options ? fn("to_csv", toExpr(c), str(JSON.stringify(options))) : fn("to_csv", toExpr(c));
}
/** A struct column as Spark's JSON text (null fields left out). */
export function to_json(c: ColumnOrName, options?: Record<string, string>): Column {
  return options ? fn("to_json", toExpr(c), str(JSON.stringify(options))) : fn("to_json", toExpr(c));
}

// ---- math, try_ arithmetic, NULL helpers, more aggregates, dates, arrays, strings (functions-extra.ts)
export * from "./functions-extra.js";
// ---- generators: explode, posexplode, inline, json_tuple, stack (functions-generators.ts)
export * from "./functions-generators.js";
// ---- higher-order functions: transform, filter, exists, forall, aggregate, reduce, zip_with
export * from "./functions-higher-order.js";
// ---- more dates, arrays and maps, signum, get_json_object (functions-more.ts)
export * from "./functions-more.js";
// ---- wrappers for the remaining SQL functions, bits, maps, JSON, session info (functions-spark.ts)
export * from "./functions-spark.js";
// ---- vectors (ARRAY<FLOAT>), randstr, collect_union and other Spark 4 additions (functions-vectors.ts)
export * from "./functions-vectors.js";
export { udf } from "./udf.js";
