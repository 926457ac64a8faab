/**
 * Conversions between user values (Date, numbers, plain objects) and internal values
 * (micros, days, ...), in both directions.
 */

import type { Batch } from "../columnar/batch.js";
import { canonical, LONG_MAX, LONG_MIN } from "../columnar/int64.js";
import { getValue, type Vector } from "../columnar/vector.js";
import { dateFromMicros, MICROS_PER_DAY, MILLIS_PER_DAY, parseDate, parseTimestamp } from "../common/datetime/index.js";
import { IllegalArgumentException } from "../common/errors.js";
import { getField, setField } from "../common/row-object.js";
import {
  ArrayOf,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  IntegerType,
  LongType,
  NullType,
  StringType,
  TimestampType,
} from "../types/datatypes.js";
import { DecimalOf, digitCount, parseDecimal, toLane, truncToInteger, unscaledOf } from "../types/decimal.js";
import { Decimal } from "../types/decimal-value.js";

/** A result row: plain object keyed by column name. */
export type Row = Record<string, unknown>;

/** User value → internal value of `type`. Numbers for TIMESTAMP are epoch milliseconds. */
export function toInternal(v: unknown, type: DataType, tz: string, where = "value"): unknown {
  if (v === null || v === undefined) return null;
  switch (type.kind) {
    case "timestamp":
      if (v instanceof Date) return (v as Date & { micros?: number | bigint }).micros ?? v.getTime() * 1000;
      if (typeof v === "number") return v * 1000;
      if (typeof v === "bigint") return canonical(v * 1000n);
      if (typeof v === "string") {
        const m = parseTimestamp(v, tz);
        if (m === null) throw new IllegalArgumentException(`Cannot convert "${v}" to TIMESTAMP for ${where}.`);
        return m;
      }
      break;
    case "date":
      if (v instanceof Date) return Math.floor(v.getTime() / MILLIS_PER_DAY);
      if (typeof v === "string") {
        const d = parseDate(v);
        if (d === null) throw new IllegalArgumentException(`Cannot convert "${v}" to DATE for ${where}.`);
        return d;
      }
      if (typeof v === "number") return v;
      break;
    case "int":
    case "bigint":
    case "double":
      if (typeof v === "number") return type.kind === "double" ? v : Math.trunc(v);
      if (typeof v === "bigint") {
        if (type.kind !== "bigint") return Number(v);
        if (v > LONG_MAX || v < LONG_MIN) throw new IllegalArgumentException(`[CANNOT_CONVERT] ${where}: ${v} is out of the BIGINT range.`);
        return canonical(v); // exact: a bigint stays one beyond ±2^53 − 1
      }
      if (v instanceof Decimal) return type.kind === "double" ? v.toNumber() : Number(truncToInteger(v.unscaled, v.scale));
      break;
    case "tinyint":
    case "smallint":
    case "float": {
      const x = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v instanceof Decimal ? v.toNumber() : null;
      if (x === null) break;
      if (type.kind === "float") return Math.fround(x);
      const lim = type.kind === "tinyint" ? 128 : 32768;
      const t = Math.trunc(x);
      if (t < -lim || t >= lim)
        throw new IllegalArgumentException(`[CANNOT_CONVERT] ${where}: ${x} is out of range for ${type.kind.toUpperCase()}.`);
      return t;
    }
    case "decimal": {
      // A Decimal, decimal text, a bigint or a number, rounded HALF_UP to the column's scale.
      const text = v instanceof Decimal || typeof v === "bigint" || typeof v === "number" || typeof v === "string" ? String(v) : null;
      if (text === null) break;
      const u = parseDecimal(text, type.precision, type.scale);
      if (u === undefined) break;
      if (u === null) {
        throw new IllegalArgumentException(
          `[NUMERIC_VALUE_OUT_OF_RANGE] ${where}: ${text} cannot be represented as Decimal(${type.precision}, ${type.scale}).`,
        );
      }
      return toLane(u, type);
    }
    case "boolean":
      if (typeof v === "boolean") return v ? 1 : 0;
      break;
    case "string":
      if (typeof v === "string") return v;
      break;
    case "binary":
      if (v instanceof Uint8Array) return v;
      if (typeof v === "string") return new TextEncoder().encode(v);
      break;
    case "interval":
      if (typeof v === "number") return v;
      break;
    case "array":
      if (Array.isArray(v)) return v.map((x) => toInternal(x, type.elementType, tz, where));
      break;
    case "map": {
      const entries = v instanceof Map ? [...v] : typeof v === "object" ? Object.entries(v as object) : null;
      if (entries)
        return new Map(entries.map(([k, x]) => [toInternal(k, type.keyType, tz, where), toInternal(x, type.valueType, tz, where)]));
      break;
    }
    case "struct": {
      if (typeof v === "object") {
        const o: Record<string, unknown> = {};
        type.fields.forEach((f, i) => {
          const x = Array.isArray(v) ? v[i] : getField(v as object, f.name);
          setField(o, f.name, toInternal(x, f.type, tz, `${where}.${f.name}`));
        });
        return o;
      }
      break;
    }
    case "null":
      return null;
  }
  throw new IllegalArgumentException(
    `[CANNOT_CONVERT] ${where}: cannot use ${typeof v === "object" ? JSON.stringify(v) : `${typeof v} ${String(v)}`} as ${type.kind.toUpperCase()}.`,
  );
}

/** Internal value → user value (Date for timestamps and dates, objects for structs). */
export function toExternal(v: unknown, type: DataType): unknown {
  if (v === null || v === undefined) return null;
  switch (type.kind) {
    case "timestamp": {
      // A Date holds milliseconds; the exact microseconds ride along as a non-enumerable
      // `micros` property (ignored by equality checks and JSON).
      const micros = v as number | bigint;
      const d = dateFromMicros(micros);
      Object.defineProperty(d, "micros", { value: micros, enumerable: false });
      return d;
    }
    case "date":
      return new Date((v as number) * MILLIS_PER_DAY);
    case "boolean":
      return v === true || v === 1;
    case "decimal":
      return new Decimal(unscaledOf(v), type.scale);
    case "array":
      return (v as unknown[]).map((x) => toExternal(x, type.elementType));
    case "map":
      return new Map([...(v as Map<unknown, unknown>)].map(([k, x]) => [toExternal(k, type.keyType), toExternal(x, type.valueType)]));
    case "struct": {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const f of type.fields) setField(out, f.name, toExternal(o[f.name], f.type));
      return out;
    }
    default:
      return v;
  }
}

export function vectorToExternal(v: Vector, i: number): unknown {
  return toExternal(getValue(v, i), v.type);
}

export function batchToRows(names: readonly string[], types: readonly DataType[], b: Batch): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < b.numRows; i++) {
    const r: Row = {};
    for (let c = 0; c < names.length; c++) setField(r, names[c]!, toExternal(getValue(b.columns[c]!, i), types[c]!));
    rows.push(r);
  }
  return rows;
}

/** The rows of `b` as arrays in column order (`toArray()`: names may repeat or look like numbers). */
export function batchToArrays(types: readonly DataType[], b: Batch): unknown[][] {
  const rows: unknown[][] = [];
  for (let i = 0; i < b.numRows; i++) rows.push(types.map((t, c) => toExternal(getValue(b.columns[c]!, i), t)));
  return rows;
}

/** Type of a JS literal, as `F.lit` infers it. */
export function inferLiteralType(v: unknown): DataType {
  if (v === null || v === undefined) return NullType;
  if (typeof v === "boolean") return BooleanType;
  if (typeof v === "number") return Number.isInteger(v) ? (v >= -2147483648 && v <= 2147483647 ? IntegerType : LongType) : DoubleType;
  if (typeof v === "bigint") return LongType;
  if (typeof v === "string") return StringType;
  if (v instanceof Date) return TimestampType;
  if (v instanceof Decimal) return DecimalOf(Math.max(digitCount(v.unscaled), v.scale, 1), v.scale);
  if (Array.isArray(v)) return ArrayOf(v.length ? inferLiteralType(v.find((x) => x != null)) : NullType);
  throw new IllegalArgumentException(`[UNSUPPORTED_LITERAL] Cannot make a literal from ${JSON.stringify(v)}.`);
}

export { DateType, MICROS_PER_DAY };
