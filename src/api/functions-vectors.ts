/**
 * PySpark 4.2+'s vector functions over ARRAY<FLOAT> columns (embeddings) and the other Spark 4
 * additions with a function of their own here: randstr, collect_union, current_timezone,
 * to_timestamp_ltz and try_url_decode (the SQL side: src/functions/
 * vectors.ts, vector-aggregates.ts, random-string.ts, aggregates.ts, datetime.ts,
 * strings-more.ts). Re-exported by functions.ts, so they are
 * `F.vector_norm(...)` and so on.
 */
import { call, type Expr, literal } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";
import { Column, type ColumnOrName, lit, toExpr } from "./column.js";

const fn = (name: string, ...args: Expr[]) => new Column(call(name, args));
const unary = (name: string) => (c: ColumnOrName) => fn(name, toExpr(c));
const binary = (name: string) => (a: ColumnOrName, b: ColumnOrName) => fn(name, toExpr(a), toExpr(b));
/** A FLOAT degree: a number is a FLOAT literal (Spark takes no other type), a string a column name. */
const degreeArg = (d: ColumnOrName | number): Expr => (typeof d === "number" ? lit(d).cast("float").expr : toExpr(d));

/** The dot product of two ARRAY<FLOAT> vectors of one length (FLOAT). */
export const vector_inner_product = binary("vector_inner_product");
/** The Euclidean distance between two ARRAY<FLOAT> vectors of one length. */
export const vector_l2_distance = binary("vector_l2_distance");
/** The cosine similarity of two ARRAY<FLOAT> vectors of one length; NULL when either is all zeros. */
export const vector_cosine_similarity = binary("vector_cosine_similarity");
/** The L1, L2 (default) or infinity norm (`degree` 1, 2 or Infinity) of an ARRAY<FLOAT> vector. */
export const vector_norm = (vector: ColumnOrName, degree?: ColumnOrName | number) =>
  degree === undefined ? fn("vector_norm", toExpr(vector)) : fn("vector_norm", toExpr(vector), degreeArg(degree));
/** The vector divided by its norm (`degree` as vector_norm's); NULL for a zero vector. */
export const vector_normalize = (vector: ColumnOrName, degree?: ColumnOrName | number) =>
  degree === undefined ? fn("vector_normalize", toExpr(vector)) : fn("vector_normalize", toExpr(vector), degreeArg(degree));
/** Aggregate: the element-wise sum of a group's ARRAY<FLOAT> vectors. */
export const vector_sum = unary("vector_sum");
/** Aggregate: the element-wise mean of a group's ARRAY<FLOAT> vectors. */
export const vector_avg = unary("vector_avg");

/** A random string of `length` characters from 0-9, a-z, A-Z; with a seed, Spark's characters on a single-partition input. */
export const randstr = (length: ColumnOrName | number, seed?: number | bigint) =>
  fn("randstr", typeof length === "number" ? lit(length).expr : toExpr(length), ...(seed === undefined ? [] : [lit(seed).expr]));
/** Aggregate: the distinct elements of a group's arrays (NULLs left out). */
export const collect_union = unary("collect_union");
/** The session time zone. */
export const current_timezone = () => fn("current_timezone");
/** to_timestamp (arus's TIMESTAMP is Spark's TIMESTAMP_LTZ). */
export const to_timestamp_ltz = (c: ColumnOrName, format?: ColumnOrName) =>
  format === undefined
    ? fn("to_timestamp_ltz", toExpr(c))
    : fn("to_timestamp_ltz", toExpr(c), typeof format === "string" ? literal(format, StringType) : toExpr(format));
/** url_decode, NULL where the text is not valid URL encoding. */
export const try_url_decode = unary("try_url_decode");
