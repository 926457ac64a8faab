/**
 * Which expressions Spark marks NullIntolerant (a NULL input gives a NULL result), by arus call
 * name, and the columns a filter conjunct therefore proves non-NULL. Every entry was checked
 * against PySpark 4.3 (`df.filter("f(c) > ...")` gets `isnotnull(c)` in its optimized plan);
 * left out because Spark infers nothing through them: trim / ltrim / rtrim, concat, round,
 * bround, right, nvl / coalesce, unix_timestamp, to_unix_timestamp, isnan, IN, array builders.
 */

import { lookupFunction } from "../functions/index.js";
import type { Attribute, Expr } from "../plan/expressions.js";

const NULL_INTOLERANT = new Set([
  // comparison, logic, arithmetic
  ...["=", "!=", "<", "<=", ">", ">=", "not", "like", "rlike"],
  ...["+", "-", "*", "/", "%", "div", "pmod", "negative", "positive", "abs", "signum"],
  ...["&", "|", "^", "~", "shiftleft", "shiftright"],
  // math
  ...["sqrt", "exp", "ln", "log10", "pow", "cos", "sin", "tan"],
  // strings
  ...["length", "octet_length", "bit_length", "upper", "lower", "initcap", "reverse", "substring", "left"],
  ...["startswith", "endswith", "contains", "instr", "ascii", "lpad", "rpad", "hex", "md5", "crc32", "base64"],
  ...["regexp_replace", "translate", "replace"],
  // dates and times
  ...["year", "quarter", "month", "weekofyear", "dayofmonth", "dayofyear", "dayofweek", "weekday"],
  ...["hour", "minute", "second", "date_add", "date_sub", "datediff", "add_months", "months_between"],
  ...["last_day", "next_day", "date_trunc", "trunc", "date_format", "from_unixtime", "make_date", "timestamp_seconds"],
]);

/**
 * Null-intolerant only in their one-argument form: to_date(s) / to_timestamp(s) are Spark casts,
 * with a format they are GetTimestamp (not null-intolerant); floor(x, d) / ceil(x, d) round.
 */
const ONE_ARGUMENT_ONLY = new Set(["to_date", "to_timestamp", "floor", "ceil"]);

function isNullIntolerant(e: Expr & { kind: "call" }): boolean {
  if (e.distinct) return false;
  // An alias called by its own name (ceiling, char_length, power...) is its function.
  const name = lookupFunction(e.name)?.name ?? e.name;
  return NULL_INTOLERANT.has(name) || (ONE_ARGUMENT_ONLY.has(name) && e.args.length === 1);
}

/** Spark's scanNullIntolerantAttribute: the attributes reached through null-intolerant nodes only. */
export function nullIntolerantAttributes(e: Expr): Attribute[] {
  if (e.kind === "attribute") return [e];
  if (e.kind === "cast") return nullIntolerantAttributes(e.child);
  if (e.kind === "call" && isNullIntolerant(e)) return e.args.flatMap(nullIntolerantAttributes);
  return [];
}

/**
 * Spark's inferIsNotNullConstraints: the columns a conjunct that holds proves non-NULL. Under
 * `isnotnull(f(x))` too when f is null-intolerant: f(x) is not NULL, so neither is x.
 */
export function notNullColumnsOf(conjunct: Expr): Attribute[] {
  if (conjunct.kind === "call" && conjunct.name === "isnotnull") return nullIntolerantAttributes(conjunct.args[0]!);
  return nullIntolerantAttributes(conjunct);
}
