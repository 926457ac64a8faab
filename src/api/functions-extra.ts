/**
 * PySpark's math, date, array, string, try_ arithmetic, NULL-helper and boolean / by-ordering
 * aggregate functions (the SQL side is in src/functions/trig-functions.ts, math-more.ts,
 * date-parts.ts, array-sets.ts, array-shape.ts, strings-more.ts, try-arithmetic.ts,
 * null-functions.ts, bool-aggregates.ts and extremum-by.ts). Re-exported by functions.ts, so
 * they are `F.sin(...)` and so on.
 */
import { call, type Expr, literal } from "../plan/expressions.js";
import { DoubleType, StringType } from "../types/datatypes.js";
import { Column, type ColumnOrName, type ColumnOrValue, lit, toExpr } from "./column.js";

const fn = (name: string, ...args: Expr[]) => new Column(call(name, args));
/** PySpark's `Union[ColumnOrName, float]`: a number is a literal, a string a column name. */
const columnOrNumber = (v: ColumnOrName | number): Expr => (typeof v === "number" ? lit(v).expr : toExpr(v));
const str = (s: string) => literal(s, StringType);
const unary = (name: string) => (c: ColumnOrName) => fn(name, toExpr(c));

// ---- math (DOUBLE results; out-of-domain input gives NaN, logarithms NULL at <= 0)
export const sin = unary("sin");
export const cos = unary("cos");
export const tan = unary("tan");
export const cot = unary("cot");
export const sec = unary("sec");
export const csc = unary("csc");
export const asin = unary("asin");
export const acos = unary("acos");
export const atan = unary("atan");
export const sinh = unary("sinh");
export const cosh = unary("cosh");
export const tanh = unary("tanh");
export const asinh = unary("asinh");
export const acosh = unary("acosh");
export const atanh = unary("atanh");
export const atan2 = (y: ColumnOrName | number, x: ColumnOrName | number) => fn("atan2", columnOrNumber(y), columnOrNumber(x));
export const degrees = unary("degrees");
export const radians = unary("radians");
export const pi = () => fn("pi");
export const e = () => fn("e");
/**
 * `log(col)` is the natural logarithm (PySpark's `ln`); `log(base, col)` the two-argument form, a
 * number base taken as a DOUBLE as PySpark's float (`LOG(2.0, c)`).
 */
export function log(arg1: ColumnOrName | number, arg2?: ColumnOrName): Column {
  if (arg2 === undefined) return fn("ln", columnOrNumber(arg1));
  return fn("log", typeof arg1 === "number" ? literal(arg1, DoubleType) : toExpr(arg1), toExpr(arg2));
}
export const log2 = unary("log2");
export const log1p = unary("log1p");
export const expm1 = unary("expm1");
export const cbrt = unary("cbrt");
export const rint = unary("rint");
export const hypot = (a: ColumnOrName | number, b: ColumnOrName | number) => fn("hypot", columnOrNumber(a), columnOrNumber(b));
/** n! as BIGINT for n in [0, 20], else NULL. */
export const factorial = unary("factorial");
/** The binary digits of a long (two's complement for negatives). */
export const bin = unary("bin");
/** A number's digits in `fromBase` read and written in `toBase` (2..36; a negative `toBase` prints signed). */
export const conv = (c: ColumnOrName, fromBase: number, toBase: number) => fn("conv", toExpr(c), lit(fromBase).expr, lit(toBase).expr);

// ---- dates
export const make_date = (year: ColumnOrName, month: ColumnOrName, day: ColumnOrName) =>
  fn("make_date", toExpr(year), toExpr(month), toExpr(day));
export const dayofyear = unary("dayofyear");
/** 0 = Monday .. 6 = Sunday. */
export const weekday = unary("weekday");
/** The first date after `date` that falls on `dayOfWeek` ("Mon", "MO", "monday", ...). */
export const next_day = (date: ColumnOrName, dayOfWeek: string) => fn("next_day", toExpr(date), str(dayOfWeek));
export const unix_date = unary("unix_date");
export const date_from_unix_date = unary("date_from_unix_date");
export const unix_seconds = unary("unix_seconds");
export const unix_millis = unary("unix_millis");
export const unix_micros = unary("unix_micros");
/** A zone given as text is a literal zone id, as in PySpark; a Column is read per row. */
export const from_utc_timestamp = (timestamp: ColumnOrName, tz: Column | string) =>
  fn("from_utc_timestamp", toExpr(timestamp), typeof tz === "string" ? str(tz) : tz.expr);
export const to_utc_timestamp = (timestamp: ColumnOrName, tz: Column | string) =>
  fn("to_utc_timestamp", toExpr(timestamp), typeof tz === "string" ? str(tz) : tz.expr);
/** `field` is a literal Column, as PySpark's: `F.date_part(F.lit("YEAR"), "ts")`. */
export const date_part = (field: Column, source: ColumnOrName) => fn("date_part", field.expr, toExpr(source));
export const datepart = (field: Column, source: ColumnOrName) => fn("datepart", field.expr, toExpr(source));
export const extract = (field: Column, source: ColumnOrName) => fn("extract", field.expr, toExpr(source));

// ---- arrays (an element argument that is not a Column is a literal value, as PySpark's `Any`)
const elementExpr = (v: unknown): Expr => (v instanceof Column ? v.expr : lit(v as ColumnOrValue).expr);
/** 1-based position of the first element equal to `value`; 0 when absent. */
export const array_position = (col: ColumnOrName, value: unknown) => fn("array_position", toExpr(col), elementExpr(value));
export const array_remove = (col: ColumnOrName, element: unknown) => fn("array_remove", toExpr(col), elementExpr(element));
export const array_union = (col1: ColumnOrName, col2: ColumnOrName) => fn("array_union", toExpr(col1), toExpr(col2));
export const array_intersect = (col1: ColumnOrName, col2: ColumnOrName) => fn("array_intersect", toExpr(col1), toExpr(col2));
export const array_except = (col1: ColumnOrName, col2: ColumnOrName) => fn("array_except", toExpr(col1), toExpr(col2));
export const arrays_overlap = (a1: ColumnOrName, a2: ColumnOrName) => fn("arrays_overlap", toExpr(a1), toExpr(a2));
export const array_compact = unary("array_compact");
/** Spark's Murmur3 hash (seed 42) of the columns, an INT: `hash(k) % n` buckets as Spark does. */
export const hash = (...cols: ColumnOrName[]) => fn("hash", ...cols.map(toExpr));
/** Ascending, NULL elements last (sort_array puts them first). */
/** `col` repeated `count` times (a negative count: an empty array). */
export const array_repeat = (col: ColumnOrName, count: ColumnOrName | number) =>
  fn("array_repeat", toExpr(col), typeof count === "number" ? lit(count).expr : toExpr(count));
export const array_append = (col: ColumnOrName, value: unknown) => fn("array_append", toExpr(col), elementExpr(value));
export const array_prepend = (col: ColumnOrName, value: unknown) => fn("array_prepend", toExpr(col), elementExpr(value));
/** `start` is 1-based (negative counts from the end); numbers are literals, strings column names. */
export const slice = (x: ColumnOrName, start: ColumnOrName | number, length: ColumnOrName | number) =>
  fn("slice", toExpr(x), columnOrNumber(start), columnOrNumber(length));
export const flatten = unary("flatten");
/** The arrays' i-th elements as structs (fields named after the columns), NULL-padded to the longest. */
export const arrays_zip = (...cols: ColumnOrName[]) => fn("arrays_zip", ...cols.map(toExpr));
export const sequence = (start: ColumnOrName, stop: ColumnOrName, step?: ColumnOrName) =>
  step === undefined ? fn("sequence", toExpr(start), toExpr(stop)) : fn("sequence", toExpr(start), toExpr(stop), toExpr(step));

// ---- strings
/** Edit distance in code points; with `threshold`, -1 when the distance exceeds it. */
export const levenshtein = (left: ColumnOrName, right: ColumnOrName, threshold?: number) =>
  threshold === undefined
    ? fn("levenshtein", toExpr(left), toExpr(right))
    : fn("levenshtein", toExpr(left), toExpr(right), lit(threshold).expr);
export const soundex = unary("soundex");
export const split_part = (src: ColumnOrName, delimiter: ColumnOrName, partNum: ColumnOrName) =>
  fn("split_part", toExpr(src), toExpr(delimiter), toExpr(partNum));
export const btrim = (str: ColumnOrName, trim?: ColumnOrName) =>
  trim === undefined ? fn("btrim", toExpr(str)) : fn("btrim", toExpr(str), toExpr(trim));
export const octet_length = unary("octet_length");
export const bit_length = unary("bit_length");
export const character_length = unary("character_length");
export const char_length = unary("char_length");
export const ilike = (str: ColumnOrName, pattern: ColumnOrName, escapeChar?: Column) =>
  escapeChar === undefined ? fn("ilike", toExpr(str), toExpr(pattern)) : fn("ilike", toExpr(str), toExpr(pattern), escapeChar.expr);
export const regexp_like = (str: ColumnOrName, regexp: ColumnOrName) => fn("regexp_like", toExpr(str), toExpr(regexp));
export const url_encode = unary("url_encode");
export const url_decode = unary("url_decode");
/** `len` code points of `src` from `pos` (1-based) replaced by `replace`; len -1 means replace's length. */
export const overlay = (src: ColumnOrName, replace: ColumnOrName, pos: ColumnOrName | number, len: ColumnOrName | number = -1) =>
  fn("overlay", toExpr(src), toExpr(replace), columnOrNumber(pos), columnOrNumber(len));

// ---- try_ arithmetic: NULL where the ANSI operator would raise (overflow, division by zero)
export const try_add = (left: ColumnOrName, right: ColumnOrName) => fn("try_add", toExpr(left), toExpr(right));
export const try_subtract = (left: ColumnOrName, right: ColumnOrName) => fn("try_subtract", toExpr(left), toExpr(right));
export const try_multiply = (left: ColumnOrName, right: ColumnOrName) => fn("try_multiply", toExpr(left), toExpr(right));
export const try_divide = (left: ColumnOrName, right: ColumnOrName) => fn("try_divide", toExpr(left), toExpr(right));
export const try_mod = (left: ColumnOrName, right: ColumnOrName) => fn("try_mod", toExpr(left), toExpr(right));

// ---- NULL helpers
export const nvl2 = (col1: ColumnOrName, col2: ColumnOrName, col3: ColumnOrName) => fn("nvl2", toExpr(col1), toExpr(col2), toExpr(col3));
export const equal_null = (col1: ColumnOrName, col2: ColumnOrName) => fn("equal_null", toExpr(col1), toExpr(col2));
export const zeroifnull = unary("zeroifnull");
export const nullifzero = unary("nullifzero");
/** The argument's type as Spark's simple string (`int`, `array<string>`, `decimal(10,2)`). */
const typeOf = unary("typeof");

export { typeOf as typeof };

// ---- aggregates
export const count_if = unary("count_if");
export const bool_and = unary("bool_and");
export const every = unary("every");
export const bool_or = unary("bool_or");
export const some = unary("some");
/**
 * The `col` of the row with the largest `ord` (the last such row among ties); NULL ords skipped.
 * With `k` (Spark 4.2): an array of the `col`s of the k rows with the largest ords, largest first.
 */
export const max_by = (col: ColumnOrName, ord: ColumnOrName, k?: number | Column) =>
  k === undefined ? fn("max_by", toExpr(col), toExpr(ord)) : fn("max_by", toExpr(col), toExpr(ord), lit(k).expr);
/** max_by's counterpart: the smallest `ord` (`k`: the k smallest, smallest first). */
export const min_by = (col: ColumnOrName, ord: ColumnOrName, k?: number | Column) =>
  k === undefined ? fn("min_by", toExpr(col), toExpr(ord)) : fn("min_by", toExpr(col), toExpr(ord), lit(k).expr);
export const any_value = (col: ColumnOrName, ignoreNulls?: boolean) =>
  ignoreNulls === undefined ? fn("any_value", toExpr(col)) : fn("any_value", toExpr(col), lit(ignoreNulls).expr);
export const product = unary("product");
/** Pearson correlation (NULL for fewer than two rows or a constant column); pairs with a NULL skipped. */
export const corr = (col1: ColumnOrName, col2: ColumnOrName) => fn("corr", toExpr(col1), toExpr(col2));
export const covar_pop = (col1: ColumnOrName, col2: ColumnOrName) => fn("covar_pop", toExpr(col1), toExpr(col2));
/**
 * The exact percentile(s) of a numeric column, interpolated linearly; a list gives an array.
 * `frequency` (an integral column or number, default 1): how many times each row counts.
 */
export const percentile = (col: ColumnOrName, percentage: number | readonly number[] | Column, frequency?: number | Column) =>
  fn(
    "percentile",
    toExpr(col),
    percentage instanceof Column
      ? percentage.expr
      : typeof percentage === "number"
        ? lit(percentage).expr
        : call(
            "array",
            percentage.map((p) => lit(p).expr),
          ),
    ...(frequency === undefined ? [] : [frequency instanceof Column ? frequency.expr : lit(frequency).expr]),
  );
export const median = unary("median");
export const covar_samp = (col1: ColumnOrName, col2: ColumnOrName) => fn("covar_samp", toExpr(col1), toExpr(col2));
