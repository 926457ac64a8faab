/**
 * PySpark's generator functions (explode, posexplode, inline and their _outer forms, json_tuple,
 * stack): each input row gives zero or more rows (functions/generators.ts, run by a Generate
 * node). Use one at the top of a `select` or `withColumn` item, named with `.alias("x")` or, for
 * several columns, `.alias("k", "v")`. Re-exported by functions.ts.
 */
import { call, type Expr, literal } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";
import { Column, type ColumnOrName, lit, toExpr } from "./column.js";

const fn = (name: string, ...args: Expr[]) => new Column(call(name, args));

/** One row per array element (column `col`) or map entry (`key`, `value`); NULL or empty gives no row. */
export const explode = (c: ColumnOrName) => fn("explode", toExpr(c));
/** explode, but a NULL or empty array/map gives one row of NULLs. */
export const explode_outer = (c: ColumnOrName) => fn("explode_outer", toExpr(c));
/** explode with the position: columns `pos`, `col` (or `pos`, `key`, `value` for a map). */
export const posexplode = (c: ColumnOrName) => fn("posexplode", toExpr(c));
/** posexplode, but a NULL or empty array/map gives one row of NULLs. */
export const posexplode_outer = (c: ColumnOrName) => fn("posexplode_outer", toExpr(c));
/** An array of structs: one row per element, one column per struct field. */
export const inline = (c: ColumnOrName) => fn("inline", toExpr(c));
/** inline, but a NULL or empty array gives one row of NULLs. */
export const inline_outer = (c: ColumnOrName) => fn("inline_outer", toExpr(c));
/** The top-level fields of a JSON object as strings, columns `c0`, `c1`, ...; NULL where absent or invalid. */
export const json_tuple = (c: ColumnOrName, ...fields: string[]) =>
  fn("json_tuple", toExpr(c), ...fields.map((f) => literal(f, StringType)));
/** `stack(n, ...values)`: n rows per input row, the values laid out row by row over columns `col0`, `col1`, ... (unpivot). */
export const stack = (n: Column | number, ...cols: ColumnOrName[]) =>
  fn("stack", typeof n === "number" ? lit(n).expr : n.expr, ...cols.map(toExpr));
