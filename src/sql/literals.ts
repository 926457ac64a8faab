/**
 * Literal tokens → Literal expressions, with Spark's typing rules: an integer is INT when it
 * fits in 32 bits, else BIGINT, else DECIMAL; a fraction without exponent is a DECIMAL, one with
 * an exponent a DOUBLE; suffixes L/S/Y/D/F/BD force a type.
 */

import { yearMonthInterval } from "../analyzer/year-month.js";
import { canonical } from "../columnar/int64.js";
import { call, type Expr, literal, typedLiteralCast } from "../plan/expressions.js";
import {
  BinaryType,
  ByteType,
  DateType,
  DayTimeIntervalOf,
  DoubleType,
  FloatType,
  IntegerType,
  IntervalType,
  LongType,
  ShortType,
  StringType,
  TimestampType,
} from "../types/datatypes.js";
import { DecimalOf, digitCount, MAX_PRECISION, parseDecimal, toLane } from "../types/decimal.js";
import type { Cursor } from "./cursor.js";
import { readIntervalLiteral } from "./interval.js";
import type { Token } from "./lexer.js";

const INT_MIN = -(2n ** 31n);
const INT_MAX = 2n ** 31n - 1n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Range-checked integer types reached through a suffix. */
const SUFFIX_RANGES: Readonly<Record<string, { type: string; min: bigint; max: bigint }>> = {
  L: { type: "bigint", min: LONG_MIN, max: LONG_MAX },
  S: { type: "smallint", min: -32768n, max: 32767n },
  Y: { type: "tinyint", min: -128n, max: 127n },
};

/** A number token (optionally negated, since Spark's `number` rule owns its minus sign). */
export function numberLiteral(cur: Cursor, tok: Token, negative: boolean): Expr {
  const m = /^(\d*\.?\d*(?:[eE][+-]?\d+)?)(BD|[LSYDF])?$/i.exec(tok.text);
  if (!m) throw cur.error(tok);
  const body = m[1]!;
  const suffix = m[2]?.toUpperCase() ?? "";
  const isIntegral = /^\d+$/.test(body);
  const range = SUFFIX_RANGES[suffix];
  if (range) {
    if (!isIntegral) throw cur.error(tok);
    const v = negative ? -BigInt(body) : BigInt(body);
    if (v < range.min || v > range.max) {
      throw cur.fail(
        `[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal ${v} is outside the valid range for ${range.type} ` +
          `with minimum value of ${range.min} and maximum value of ${range.max}. Please adjust the value accordingly.`,
        tok,
      );
    }
    return suffix === "L" ? literal(canonical(v), LongType) : literal(Number(v), suffix === "S" ? ShortType : ByteType);
  }
  if (isIntegral && suffix === "") {
    const v = negative ? -BigInt(body) : BigInt(body);
    if (v >= INT_MIN && v <= INT_MAX) return literal(Number(v), IntegerType);
    if (v >= LONG_MIN && v <= LONG_MAX) return literal(canonical(v), LongType); // exact: a bigint beyond ±2^53 − 1
    // Beyond BIGINT: a DECIMAL(digits, 0), as Spark.
    return decimalLiteral(cur, tok, negative ? `-${body}` : body);
  }
  // Without an exponent (or with BD), a fractional number is an exact DECIMAL, as in Spark.
  if (suffix === "BD" || (suffix === "" && !/[eE]/.test(body))) return decimalLiteral(cur, tok, negative ? `-${body}` : body);
  const d = Number(body);
  if (Number.isNaN(d)) throw cur.error(tok);
  const value = suffix === "F" ? Math.fround(negative ? -d : d) : negative ? -d : d;
  if (!Number.isFinite(value)) {
    const max = suffix === "F" ? "3.4028234663852886E+38" : "1.7976931348623157E+308";
    throw cur.fail(
      `[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal ${negative ? "-" : ""}${body} is outside the valid range for ${suffix === "F" ? "float" : "double"} ` +
        `with minimum value of -${max} and maximum value of ${max}. Please adjust the value accordingly.`,
      tok,
    );
  }
  return literal(value, suffix === "F" ? FloatType : DoubleType);
}

/** A DECIMAL literal of the text's own precision and scale (`1.50` is DECIMAL(3,2)). */
function decimalLiteral(cur: Cursor, tok: Token, text: string): Expr {
  const m = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const frac = m[2] ?? "";
  const scale = Math.max(0, frac.length - (m[3] ? Number(m[3]) : 0));
  const u = scale > MAX_PRECISION ? null : parseDecimal(text, MAX_PRECISION, scale);
  if (u === undefined || u === null) {
    // Spark's precision of the literal: its digits, and the places a negative scale adds
    const digits = (m[1]! + frac).replace(/^0+/, "").length || 1;
    const exactScale = frac.length - (m[3] ? Number(m[3]) : 0);
    const precision = exactScale >= 0 ? Math.max(digits, exactScale) : digits - exactScale;
    throw cur.fail(`[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision ${precision} exceeds max precision 38.`, tok);
  }
  const t = DecimalOf(Math.max(digitCount(u), scale, 1), scale);
  return literal(toLane(u, t), t);
}

/** One or more adjacent string tokens: Spark concatenates `'a' 'b'` into `'ab'`. */
export function stringLiteral(cur: Cursor): Expr {
  let s = "";
  while (cur.peek().kind === "string") s += cur.next().value;
  return literal(s, StringType);
}

export function binaryLiteral(tok: Token): Expr {
  const hex = tok.value.length % 2 === 1 ? `0${tok.value}` : tok.value;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return literal(bytes, BinaryType);
}

/** Keywords that introduce a typed literal (`DATE '2026-01-01'`) or an interval. */
export function isTypedLiteralStart(cur: Cursor): boolean {
  const t = cur.peek();
  if (t.kind !== "ident") return false;
  const kw = t.value.toUpperCase();
  const nx = cur.peek(1);
  if (kw === "INTERVAL") {
    return nx.kind === "string" || nx.kind === "number" || ((nx.value === "-" || nx.value === "+") && nx.kind === "op");
  }
  return (kw === "DATE" || kw === "TIMESTAMP" || kw === "TIMESTAMP_LTZ") && nx.kind === "string";
}

/**
 * `TIMESTAMP '...'` / `DATE '...'` stay casts of a string literal so the session time zone
 * applies when the analyzer folds them; `INTERVAL ...` becomes a literal in microseconds.
 */
export function typedLiteral(cur: Cursor): Expr {
  const kw = cur.next().value.toUpperCase();
  if (kw === "INTERVAL") {
    const iv = readIntervalLiteral(cur);
    // a year-month interval only ever meets + or - with a DATE / TIMESTAMP (analyzer/year-month.ts)
    if (iv.months !== 0) return yearMonthInterval(iv.months);
    return literal(iv.micros, iv.fields ? DayTimeIntervalOf(iv.fields[0], iv.fields[1]) : IntervalType);
  }
  const str = stringLiteral(cur);
  return typedLiteralCast(str, kw === "DATE" ? DateType : TimestampType);
}

/** Keywords Spark accepts as zero-argument function calls without parentheses. */
const NILADIC = new Set(["CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_USER"]);
export function niladicCall(cur: Cursor): Expr | null {
  const t = cur.peek();
  if (t.kind !== "ident" || !NILADIC.has(t.value.toUpperCase()) || cur.isOp("(", 1)) return null;
  cur.next();
  return call(t.value, []);
}
