/**
 * Parsed-JSON value → internal value for a schema type, with Spark's JacksonParser rules:
 * INT/BIGINT need integral numbers in range, DOUBLE takes numbers and "NaN"/"Infinity" strings,
 * STRING keeps strings and re-serializes anything else, TIMESTAMP parses strings in the session
 * zone (integers are epoch seconds), BINARY is base64. A mismatch yields FAIL (malformed).
 */

import { setField } from "../../common/row-object.js";
import type { DataType } from "../../types/datatypes.js";
import type { DateTimeText } from "./datetime-text.js";
import { type Converted, FAIL } from "./text-values.js";

export type JsonConverter = (v: unknown) => Converted;

const SPECIAL_DOUBLES: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  "+Infinity": Number.POSITIVE_INFINITY,
  "-Infinity": Number.NEGATIVE_INFINITY,
  INF: Number.POSITIVE_INFINITY,
  "+INF": Number.POSITIVE_INFINITY,
  "-INF": Number.NEGATIVE_INFINITY,
};

const LONG_LIMIT = 2 ** 63;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Own-property read that ignores Object.prototype members (`toString`, `constructor`, ...). */
export function fieldReader(name: string): (o: Record<string, unknown>) => unknown {
  if (!(name in Object.prototype)) return (o) => o[name];
  return (o) => (Object.hasOwn(o, name) ? o[name] : undefined);
}

/** Converter for a non-null parsed JSON value; callers map null/undefined to SQL NULL. */
export function jsonConverter(type: DataType, dt: DateTimeText): JsonConverter {
  switch (type.kind) {
    case "int":
      return (v) => (typeof v === "number" && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? v : FAIL);
    case "bigint":
      return (v) => (typeof v === "number" && Number.isInteger(v) && v >= -LONG_LIMIT && v < LONG_LIMIT ? v : FAIL);
    case "double":
      return (v) => {
        if (typeof v === "number") return v;
        if (typeof v === "string") return SPECIAL_DOUBLES[v] ?? FAIL;
        return FAIL;
      };
    case "string":
      return (v) => (typeof v === "string" ? v : JSON.stringify(v));
    case "boolean":
      return (v) => (typeof v === "boolean" ? (v ? 1 : 0) : FAIL);
    case "timestamp":
      return (v) => {
        if (typeof v === "string") return v.length === 0 ? FAIL : (dt.parseTimestamp(v) ?? FAIL);
        if (typeof v === "number" && Number.isInteger(v)) return v * 1_000_000;
        return FAIL;
      };
    case "date":
      return (v) => (typeof v === "string" && v.length > 0 ? (dt.parseDate(v) ?? FAIL) : FAIL);
    case "binary":
      return (v) => (typeof v === "string" ? new Uint8Array(Buffer.from(v, "base64")) : FAIL);
    case "null":
      return () => null;
    case "array": {
      const elem = jsonConverter(type.elementType, dt);
      return (v) => {
        if (!Array.isArray(v)) return FAIL;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const x = v[i];
          if (x === null) out[i] = null;
          else {
            const c = elem(x);
            if (c === FAIL) return FAIL;
            out[i] = c;
          }
        }
        return out;
      };
    }
    case "map": {
      if (type.keyType.kind !== "string") return () => FAIL;
      const val = jsonConverter(type.valueType, dt);
      return (v) => {
        if (!isPlainObject(v)) return FAIL;
        const m = new Map<string, unknown>();
        for (const k of Object.keys(v)) {
          const x = v[k];
          if (x === null) m.set(k, null);
          else {
            const c = val(x);
            if (c === FAIL) return FAIL;
            m.set(k, c);
          }
        }
        return m;
      };
    }
    case "struct": {
      const names = type.fields.map((f) => f.name);
      const readers = names.map(fieldReader);
      const convs = type.fields.map((f) => jsonConverter(f.type, dt));
      return (v) => {
        if (!isPlainObject(v)) return FAIL;
        const out: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) {
          const x = readers[i]!(v);
          if (x === null || x === undefined) setField(out, names[i]!, null);
          else {
            const c = convs[i]!(x);
            if (c === FAIL) return FAIL;
            setField(out, names[i]!, c);
          }
        }
        return out;
      };
    }
    default:
      return () => FAIL;
  }
}
