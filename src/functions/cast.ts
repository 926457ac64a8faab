/**
 * CAST between Spark types. Numeric casts run as typed loops; string and nested casts go row
 * by row. Invalid input gives NULL, or Spark's CAST_INVALID_INPUT error in ANSI mode.
 */

import { binaryOf } from "../columnar/binary.js";
import { binaryText, utf8FromBinary } from "../columnar/binary-utf8.js";
import { isInt64Type, laneFromValues } from "../columnar/int64.js";
import { utf8Vector } from "../columnar/utf8.js";
import { utf8Strings } from "../columnar/utf8-conf.js";
import { allocValues, getValue, makeVector, nullVector, type Vector, vectorFromValues } from "../columnar/vector.js";
import {
  formatDate,
  formatTimestamp,
  getZone,
  localToUtcMicros,
  MICROS_PER_DAY,
  MICROS_PER_SECOND,
  parseDate,
  parseTimestamp,
  SECONDS_PER_DAY,
  splitMicros,
  utcToLocalMicros,
} from "../common/datetime/index.js";
import { ArusError } from "../common/errors.js";
import { formatDouble } from "../common/number-format.js";
import { setField } from "../common/row-object.js";
import { javaFloatToString } from "../common/show.js";
import type { Expr } from "../plan/expressions.js";
import { type DataType, isIntegral, isNumeric, LongType, type StructType, sqlTypeName } from "../types/datatypes.js";
import { formatUnscaled, toLane } from "../types/decimal.js";
import { formatDayTimeInterval } from "../types/interval-text.js";
import { canCastDecimal, castFromDecimal, castToDecimal, decimalToValue, valueToDecimal } from "./decimal-cast.js";
import { doubleToInt, doubleToLong, longToInt, microsToSeconds, secondsToMicros, stringToLong } from "./long-ops.js";
import type { EvalContext } from "./registry.js";
import { wrapBits } from "./small-numeric.js";

export function invalidInput(value: unknown, from: DataType, to: DataType): ArusError {
  return new ArusError(
    "CAST_INVALID_INPUT",
    `[CAST_INVALID_INPUT] The value '${String(value)}' of the type "${sqlTypeName(from)}" cannot be cast to "${sqlTypeName(to)}" because it is malformed. ` +
      "Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.",
  );
}

/** Can `from` be cast to `to` at all? (Spark's Cast.canCast, simplified.) */
export function canCast(from: DataType, to: DataType): boolean {
  if (from.kind === "decimal" || to.kind === "decimal") return canCastDecimal(from, to);
  if (from.kind === to.kind && from.kind !== "struct" && from.kind !== "array" && from.kind !== "map") return true;
  if (from.kind === "null") return true;
  if (to.kind === "string") return true;
  if (from.kind === "struct" && to.kind === "struct") {
    return from.fields.length === to.fields.length && from.fields.every((f, i) => canCast(f.type, to.fields[i]!.type));
  }
  if (from.kind === "array" && to.kind === "array") return canCast(from.elementType, to.elementType);
  if (from.kind === "map" && to.kind === "map") return canCast(from.keyType, to.keyType) && canCast(from.valueType, to.valueType);
  const scalar = ["boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "timestamp", "string"];
  if (isNumeric(to) || to.kind === "boolean") return scalar.includes(from.kind);
  if (to.kind === "timestamp") return [...scalar, "date"].includes(from.kind);
  if (to.kind === "date") return ["string", "timestamp", "date"].includes(from.kind);
  if (to.kind === "binary") return from.kind === "string";
  if (to.kind === "interval") return from.kind === "string";
  return false;
}

/**
 * A number cast to TINYINT/SMALLINT: truncated toward zero; out of range is CAST_OVERFLOW in
 * ANSI mode and wraps otherwise (Java's (byte) / (short) of the int value).
 */
function narrowInteger(x: number, from: DataType, to: DataType, ctx: EvalContext): number | undefined {
  if (!Number.isFinite(x)) {
    if (ctx.ansi) throw castOverflow(x, from, to);
    return 0;
  }
  const t = Math.trunc(x);
  const bits = to.kind === "tinyint" ? 8 : 16;
  const w = wrapBits(t, bits);
  if (w !== t) {
    if (ctx.ansi) throw castOverflow(x, from, to);
    // Java narrows a long/double to int first, then to byte/short.
    return wrapBits(Number(BigInt.asIntN(32, BigInt(t))), bits);
  }
  return t;
}

function castOverflow(x: number, from: DataType, to: DataType): ArusError {
  const text =
    from.kind === "double" || from.kind === "float"
      ? `${formatDouble(x)}${from.kind === "float" ? "F" : "D"}`
      : from.kind === "bigint"
        ? `${x}L`
        : `${x}`;
  return new ArusError(
    "CAST_OVERFLOW",
    `[CAST_OVERFLOW] The value ${text} of the type "${sqlTypeName(from)}" cannot be cast to "${sqlTypeName(to)}" due to an overflow. ` +
      `Use \`try_cast\` to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

/**
 * A struct field's, array element's or map entry's value, cast: NULL stays NULL; invalid input
 * is CAST_INVALID_INPUT under ANSI, as at the top level (it once became NULL silently); with
 * `tolerant` (TRY_CAST) an invalid or overflowing element is NULL, the rest kept, as Spark's.
 */
function nestedValue(x: unknown, from: DataType, to: DataType, ctx: EvalContext, tolerant: boolean): unknown {
  if (x === null || x === undefined) return null;
  if (tolerant) {
    try {
      return castValue(x, from, to, ctx, true) ?? null;
    } catch (e) {
      if (e instanceof ArusError && (e.errorClass === "CAST_OVERFLOW" || e.errorClass === "CAST_INVALID_INPUT")) return null;
      throw e;
    }
  }
  const r = castValue(x, from, to, ctx);
  if (r === undefined && ctx.ansi && from.kind === "string") throw invalidInput(x, from, to);
  return r ?? null;
}

/** One non-null internal value, cast; undefined marks invalid input (→ NULL or error). `tolerant`: TRY_CAST's nested elements. */
export function castValue(v: unknown, from: DataType, to: DataType, ctx: EvalContext, tolerant = false): unknown {
  if (to.kind === "decimal") {
    const u = valueToDecimal(v, from, to);
    return u === undefined || u === null ? u : toLane(u, to);
  }
  if (from.kind === "decimal") return decimalToValue(v, from, to, ctx.ansi);
  if (to.kind === "string") return valueToString(v, from, ctx.timeZone);
  switch (from.kind) {
    case "string":
      return fromString(v as string, to, ctx);
    case "boolean":
      if (to.kind === "timestamp") return v ? 1 : 0;
      return isNumeric(to) ? (v ? 1 : 0) : undefined;
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
    case "float":
    case "double": {
      // BIGINT beyond ±2^53 − 1 (a bigint) and every cast into BIGINT/INT: Spark's LONG rules (long-ops.ts).
      if (from.kind === "bigint") {
        const l = v as number | bigint;
        if (to.kind === "int") return longToInt(l, ctx.ansi, from, to);
        if (to.kind === "double") return Number(l);
        if (to.kind === "timestamp") return secondsToMicros(l);
        if (to.kind === "boolean") return l !== 0 && l !== 0n ? 1 : 0;
      }
      const x = v as number;
      if (from.kind === "double" && to.kind === "bigint") return doubleToLong(x, ctx.ansi, from, to);
      if (from.kind === "double" && to.kind === "int") return doubleToInt(x, ctx.ansi, from, to);
      if (from.kind === "double" && to.kind === "timestamp") {
        if (!Number.isFinite(x)) return undefined;
        return doubleToLong(x * MICROS_PER_SECOND, false, from, to);
      }
      if (to.kind === "boolean") return x !== 0 ? 1 : 0;
      if (to.kind === "tinyint" || to.kind === "smallint") return narrowInteger(x, from, to, ctx);
      if (to.kind === "float") return Math.fround(x);
      if (to.kind === "int") return Number.isFinite(x) ? Math.trunc(x) | 0 : undefined;
      if (to.kind === "bigint") return Number.isFinite(x) ? Math.trunc(x) : undefined;
      if (to.kind === "double") return x;
      if (to.kind === "timestamp") return Number.isFinite(x) ? Math.trunc(x * MICROS_PER_SECOND) : undefined;
      return undefined;
    }
    case "timestamp": {
      const m = v as number;
      if (typeof m === "bigint") {
        // Beyond ±2^53 µs: exact through whole seconds (safe numbers).
        const [sec] = splitMicros(m);
        if (to.kind === "date") return Math.floor((sec + getZone(ctx.timeZone).offsetSeconds(sec)) / SECONDS_PER_DAY);
        if (to.kind === "bigint") return microsToSeconds(m);
        if (to.kind === "int") return longToInt(microsToSeconds(m), ctx.ansi, LongType, to);
        if (to.kind === "double") return Number(m) / MICROS_PER_SECOND;
        if (to.kind === "boolean") return 1;
        return undefined;
      }
      if (to.kind === "date") return Math.floor(utcToLocalMicros(ctx.timeZone, m) / MICROS_PER_DAY);
      if (isIntegral(to)) return Math.floor(m / MICROS_PER_SECOND);
      if (to.kind === "double") return m / MICROS_PER_SECOND;
      if (to.kind === "boolean") return m !== 0 ? 1 : 0;
      return undefined;
    }
    case "date":
      if (to.kind === "timestamp") return localToUtcMicros(ctx.timeZone, (v as number) * MICROS_PER_DAY);
      return undefined;
    case "struct": {
      if (to.kind !== "struct") return undefined;
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      from.fields.forEach((f, i) => {
        const tf = to.fields[i]!;
        setField(out, tf.name, nestedValue(o[f.name], f.type, tf.type, ctx, tolerant));
      });
      return out;
    }
    case "array":
      if (to.kind !== "array") return undefined;
      return (v as unknown[]).map((x) => nestedValue(x, from.elementType, to.elementType, ctx, tolerant));
    case "map": {
      // (a MAP cast once had no case here: every map came out NULL)
      if (to.kind !== "map") return undefined;
      const out = new Map<unknown, unknown>();
      for (const [k, x] of v as Map<unknown, unknown>) {
        const key = nestedValue(k, from.keyType, to.keyType, ctx, tolerant);
        if (key === null) {
          if (tolerant) return null;
          throw new ArusError("NULL_MAP_KEY", "[NULL_MAP_KEY] Cannot use null as map key.");
        }
        out.set(key, nestedValue(x, from.valueType, to.valueType, ctx, tolerant));
      }
      return out;
    }
    default:
      return undefined;
  }
}

function fromString(s: string, to: DataType, ctx: EvalContext): unknown {
  const t = s.trim();
  switch (to.kind) {
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint": {
      // ANSI casts accept integer syntax only ("3.9" is malformed); legacy casts truncate.
      if (to.kind === "bigint") return stringToLong(t, ctx.ansi);
      if (!(ctx.ansi ? /^[+-]?\d+$/ : /^[+-]?\d+(\.\d*)?$/).test(t)) return undefined;
      const x = Math.trunc(Number(t));
      const lim = to.kind === "int" ? 2147483648 : to.kind === "smallint" ? 32768 : to.kind === "tinyint" ? 128 : Infinity;
      if (x >= lim || x < -lim) return undefined;
      return x;
    }
    case "float":
    case "double": {
      const round = to.kind === "float" ? Math.fround : (d: number) => d;
      if (/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)[dDfF]?$/.test(t)) return round(Number(t.replace(/[dDfF]$/, "")));
      const l = t.toLowerCase();
      if (l === "nan") return Number.NaN;
      if (l === "infinity" || l === "+infinity" || l === "inf") return Infinity;
      if (l === "-infinity" || l === "-inf") return -Infinity;
      return undefined;
    }
    case "boolean": {
      const l = t.toLowerCase();
      if (["t", "true", "y", "yes", "1"].includes(l)) return 1;
      if (["f", "false", "n", "no", "0"].includes(l)) return 0;
      return undefined;
    }
    case "timestamp":
      return parseTimestamp(s, ctx.timeZone) ?? undefined;
    case "date":
      return parseDate(s) ?? undefined;
    case "binary":
      return new TextEncoder().encode(s);
    default:
      return undefined;
  }
}

/** Spark's cast-to-string text (also used for nested values in show()). */
export function valueToString(v: unknown, type: DataType, tz: string): string {
  switch (type.kind) {
    case "string":
      return v as string;
    case "boolean":
      return v ? "true" : "false";
    case "double":
      return formatDouble(v as number);
    case "float":
      return javaFloatToString(v as number);
    case "decimal":
      return formatUnscaled(v as number | bigint, type.scale);
    case "timestamp":
      return formatTimestamp(v as number | bigint, tz);
    case "date":
      return formatDate(v as number);
    case "binary":
      return binaryText.decode(v as Uint8Array);
    case "interval":
      return formatDayTimeInterval(v as number, type);
    case "array":
      return `[${(v as unknown[]).map((x) => (x == null ? "null" : valueToString(x, type.elementType, tz))).join(", ")}]`;
    case "map":
      return `{${[...(v as Map<unknown, unknown>)].map(([k, x]) => `${valueToString(k, type.keyType, tz)} -> ${x == null ? "null" : valueToString(x, type.valueType, tz)}`).join(", ")}}`;
    case "struct": {
      const o = v as Record<string, unknown>;
      return `{${type.fields.map((f) => (o[f.name] == null ? "null" : valueToString(o[f.name], f.type, tz))).join(", ")}}`;
    }
    default:
      return String(v);
  }
}

/** castValue, with an overflow error turned into NULL (TRY_CAST). */
function tryCastValue(v: unknown, from: DataType, to: DataType, ctx: EvalContext): unknown {
  try {
    return castValue(v, from, to, ctx, true);
  } catch (e) {
    if (e instanceof ArusError && e.errorClass === "CAST_OVERFLOW") return null;
    throw e;
  }
}

/** `onError: "null"` is TRY_CAST: ANSI syntax rules, but NULL instead of an error. */
export function castVector(v: Vector, to: DataType, n: number, ctx: EvalContext, onError: "throw" | "null" = "throw"): Vector {
  const from = v.type;
  if (from.kind === to.kind && from.kind !== "struct" && from.kind !== "array" && from.kind !== "map" && from.kind !== "decimal")
    return { ...v, type: to };
  if (from.kind === "null") return nullVector(to, n);
  // Contiguous BINARY bytes (the Kafka source's) cast to a UTF-8 vector: no string per row.
  const bin = from.kind === "binary" && to.kind === "string" && utf8Strings() ? binaryOf(v) : undefined;
  if (bin !== undefined) return utf8Vector(to, utf8FromBinary(bin, n), v.validity, n);
  if (to.kind === "decimal") return castToDecimal(v, to, n, ctx, onError);
  if (from.kind === "decimal") return castFromDecimal(v, to, n, ctx, onError);
  // Fast numeric paths.
  if (isNumeric(from) && (to.kind === "double" || to.kind === "bigint") && from.kind !== "double" && from.kind !== "float") {
    const src = v.values as Int32Array | Float64Array | BigInt64Array;
    if (src instanceof BigInt64Array) return makeVector(to, Float64Array.from(src.subarray(0, n), Number), v.validity, n);
    return makeVector(to, Float64Array.from(src as Int32Array), v.validity, n);
  }
  // BIGINT/TIMESTAMP results are gathered as values and laid out once (a bigint needs the wide lane).
  const int64 = isInt64Type(to);
  const out = int64 ? new Array<unknown>(n).fill(null) : allocValues(to, n);
  let validity: Uint8Array | null = v.validity ? v.validity.slice(0, n) : null;
  const isStruct = to.kind === "struct";
  const structVals: unknown[] = isStruct ? new Array(n).fill(null) : [];
  for (let i = 0; i < n; i++) {
    if (v.validity !== null && v.validity[i] === 0) continue;
    const r = onError === "null" ? tryCastValue(getValue(v, i), from, to, ctx) : castValue(getValue(v, i), from, to, ctx);
    if (r === undefined || r === null) {
      if (ctx.ansi && onError === "throw" && r === undefined && from.kind === "string") throw invalidInput(getValue(v, i), from, to);
      validity ??= new Uint8Array(n).fill(1);
      validity[i] = 0;
    } else if (isStruct) structVals[i] = r;
    else if (out instanceof Uint8Array) out[i] = r ? 1 : 0;
    else (out as unknown[])[i] = r;
  }
  if (isStruct) {
    const st = to as StructType;
    const children = st.fields.map((f) => {
      const vals = structVals.map((o) => (o == null ? null : (o as Record<string, unknown>)[f.name]));
      return vectorFromValues(f.type, vals);
    });
    return makeVector(to, [], validity, n, children);
  }
  return makeVector(to, int64 ? laneFromValues(out as unknown[]) : out, validity, n);
}

/** A chain of implicit casts (try_divide('x', 2): STRING to BIGINT, then to DOUBLE) made try-casts, for the try_ functions. */
export function tolerantCasts(a: Expr): Expr {
  return a.kind === "cast" && a.implicit ? ({ ...a, child: tolerantCasts(a.child), tryCast: true } as Expr) : a;
}
