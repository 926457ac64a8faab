/**
 * Parsed-JSON value → internal value for a schema type, with Spark's JacksonParser rules:
 * INT/BIGINT need integral numbers in range, DOUBLE takes numbers and "NaN"/"Infinity" strings,
 * STRING keeps strings and re-serializes anything else, TIMESTAMP parses strings in the session
 * zone (integers are epoch seconds), BINARY is base64. A mismatch yields FAIL (malformed).
 */

import { canonical } from "../../../columnar/int64.js";
import { setField } from "../../../common/row-object.js";
import type { DataType } from "../../../types/datatypes.js";
import { parseDecimal, toLane } from "../../../types/decimal.js";
import type { DateTimeText } from "../datetime-text.js";
import { type Converted, FAIL } from "../text-values.js";

export type JsonConverter = (v: unknown) => Converted;

/**
 * Jackson's default `StreamReadConstraints.maxNestingDepth` (Spark 4 parses JSON with it): a
 * record nested deeper is malformed (a corrupt record, dropped, or FAILFAST's error), never a
 * stack overflow.
 */
export const MAX_JSON_NESTING = 1000;

/** Does `line` nest arrays/objects deeper than MAX_JSON_NESTING (strings skipped)? */
export function nestsTooDeep(line: string): boolean {
  if (line.length <= MAX_JSON_NESTING) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_NESTING) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * A JSON integer of 16 or more digits, kept as its text: a double rounds beyond 2^53 and cannot
 * tell 9223372036854775807 (a valid BIGINT) from 9223372036854775808 (out of range), so BIGINT
 * columns take the exact value of the text.
 * DOUBLE columns take its value, STRING columns its text.
 */
export class LongText {
  constructor(readonly text: string) {}
  toJSON(): number {
    return Number(this.text);
  }
  /** What a STRING column reads: an integer's own text, a fraction's double text (as JSON.parse gives). */
  stringText(): string {
    return /^-?\d+$/.test(this.text) ? this.text : JSON.stringify(Number(this.text));
  }
}

const LONG_MIN = -9223372036854775808n;
const LONG_MAX = 9223372036854775807n;
/** Largest |epoch seconds| whose microseconds fit a long (Spark: Math.multiplyExact overflows beyond). */
const MAX_EPOCH_SECONDS = 9223372036854;

/** Exact BIGINT of an integer's text (canonical: a bigint beyond ±2^53 − 1), or FAIL when outside Spark's long range. */
function longOfText(text: string): Converted {
  if (!/^-?\d+$/.test(text)) return FAIL; // a long fraction kept as text for DECIMAL columns
  const b = BigInt(text);
  return b < LONG_MIN || b > LONG_MAX ? FAIL : canonical(b);
}

const BIG_INTEGER = /\d{16}|[-\d.eE+]{18}/;
/**
 * Strings (skipped), integers of 16+ digits (the shortest that can exceed 2^53, which JSON.parse
 * would round), and fractions whose text is longer than 17 characters (a DECIMAL column reads
 * them exactly; the byte scanner keeps the same ones).
 */
const BIG_INTEGER_TOKEN =
  /"(?:[^"\\]|\\.)*"|(?<=^|[:[,\s])(-?\d{16,})(?![.eE\d])|(?<=^|[:[,\s])(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=[\s,\]}]|$)/g;

/**
 * `JSON.parse` of a line, with integers of 19+ digits (outside strings) kept as LongText, so
 * their exact value decides the BIGINT range check (issue: 9223372036854775807 is valid).
 */
export function parseJsonExact(line: string): unknown {
  if (!BIG_INTEGER.test(line)) return JSON.parse(line);
  const marked = line.replace(BIG_INTEGER_TOKEN, (m, digits: string | undefined, num: string | undefined) =>
    digits || (num !== undefined && num.length > 17 && /[.eE]/.test(num)) ? `{"\\u0000long":"${digits ?? num}"}` : m,
  );
  return JSON.parse(marked, (_k, v) =>
    typeof v === "object" && v !== null && typeof (v as Record<string, unknown>)["\u0000long"] === "string"
      ? new LongText((v as Record<string, string>)["\u0000long"]!)
      : v,
  );
}

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
      return (v) => {
        if (v instanceof LongText) return longOfText(v.text);
        return typeof v === "number" && Number.isInteger(v) && v > -LONG_LIMIT && v < LONG_LIMIT ? v : FAIL;
      };
    case "double":
      return (v) => {
        if (typeof v === "number") return v;
        if (v instanceof LongText) return Number(v.text);
        if (typeof v === "string") return SPECIAL_DOUBLES[v] ?? FAIL;
        return FAIL;
      };
    case "tinyint":
    case "smallint": {
      const lim = type.kind === "tinyint" ? 128 : 32768;
      return (v) => (typeof v === "number" && Number.isInteger(v) && v >= -lim && v < lim ? v : FAIL);
    }
    case "float":
      return (v) => {
        if (typeof v === "number") return Math.fround(v);
        if (v instanceof LongText) return Math.fround(Number(v.text));
        if (typeof v === "string") return SPECIAL_DOUBLES[v] ?? FAIL;
        return FAIL;
      };
    case "decimal":
      // Numbers (exactly, from their text when long) and numeric strings, HALF_UP to the scale;
      // a value beyond the precision is malformed, as Spark's Decimal(bigDecimal, p, s).
      return (v) => {
        const text = typeof v === "number" ? String(v) : v instanceof LongText ? v.text : typeof v === "string" && v.length > 0 ? v : null;
        if (text === null) return FAIL;
        const u = parseDecimal(text, type.precision, type.scale);
        return u === undefined || u === null ? FAIL : toLane(u, type);
      };
    case "string":
      return (v) => (typeof v === "string" ? v : v instanceof LongText ? v.stringText() : JSON.stringify(v));
    case "boolean":
      return (v) => (typeof v === "boolean" ? (v ? 1 : 0) : FAIL);
    case "timestamp":
      return (v) => {
        if (typeof v === "string") return v.length === 0 ? FAIL : (dt.parseTimestamp(v) ?? FAIL);
        if (typeof v === "number" && Number.isInteger(v) && Math.abs(v) <= MAX_EPOCH_SECONDS) return v * 1_000_000;
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
