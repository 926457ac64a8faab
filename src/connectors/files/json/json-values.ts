/**
 * Parsed-JSON value → internal value for a schema type, with Spark's JacksonParser rules:
 * INT/BIGINT need integral numbers in range, DOUBLE takes numbers and "NaN"/"Infinity" strings,
 * STRING keeps strings and takes the JSON text of anything else, TIMESTAMP parses strings in the
 * session zone (integers are epoch seconds), BINARY is base64. Integer columns refuse a number
 * written as a fraction or with an exponent (`1.0`), as Jackson does. A mismatch yields FAIL
 * (malformed).
 */

import { canonical } from "../../../columnar/int64.js";
import { setField } from "../../../common/row-object.js";
import type { DataType } from "../../../types/datatypes.js";
import { parseDecimal, toLane } from "../../../types/decimal.js";
import type { DateTimeText } from "../datetime-text.js";
import { type Converted, FAIL } from "../text-values.js";
import { isJsonObject, NON_NUMERIC_NUMBERS, NumberText, regeneratedText, sourceTextOf } from "./json-text.js";

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
 * `JSON.parse` of a line, with integers of 16+ digits and long fractions (outside strings) kept
 * as NumberText, so their exact value decides the BIGINT range check (9223372036854775807 is
 * valid) and a DECIMAL column reads every digit.
 */
export function parseJsonExact(line: string): unknown {
  if (!BIG_INTEGER.test(line)) return JSON.parse(line);
  const marked = line.replace(BIG_INTEGER_TOKEN, (m, digits: string | undefined, num: string | undefined) =>
    digits || (num !== undefined && num.length > 17 && /[.eE]/.test(num)) ? `{"\\u0000long":"${digits ?? num}"}` : m,
  );
  return JSON.parse(marked, (_k, v) =>
    typeof v === "object" && v !== null && typeof (v as Record<string, unknown>)["\u0000long"] === "string"
      ? numberText((v as Record<string, string>)["\u0000long"]!)
      : v,
  );
}

/** The strings a DOUBLE or FLOAT column reads as special values: the non-numeric tokens, and a bare "INF". */
const SPECIAL_DOUBLES: Readonly<Record<string, number>> = { ...NON_NUMERIC_NUMBERS, INF: Number.POSITIVE_INFINITY };

const LONG_LIMIT = 2 ** 63;

/** Own-property read that ignores Object.prototype members (`toString`, `constructor`, ...). */
export function fieldReader(name: string): (o: Record<string, unknown>) => unknown {
  if (!(name in Object.prototype)) return (o) => o[name];
  return (o) => (Object.hasOwn(o, name) ? o[name] : undefined);
}

const numberText = (text: string): NumberText => new NumberText(text, /[.eE]/.test(text));

/**
 * How a STRING column reads a non-string value: Spark's file source keeps the value's source
 * text (`{"x" : 1.0}` stays as written), from_json regenerates it through Jackson's generator
 * (`{"x":1.0}`, `1e5` → `100000.0`).
 */
export type ValueText = "source" | "regenerated";

/**
 * Thrown by a STRING converter given a value from `JSON.parse` whose text it needs (a number, an
 * object, an array): the reader parses the line again with json-text.ts, which keeps the text.
 */
export const NEEDS_TEXT = new Error("a STRING column needs the value's JSON text");

/**
 * Does a column of this type care whether a number was written as an integer (Jackson refuses
 * `1.0` for INT, BIGINT, SMALLINT, TINYINT and TIMESTAMP)? `JSON.parse` cannot tell `1.0` from
 * `1`, so a line with a fraction or exponent is read again by json-text.ts for such a schema.
 */
export function needsNumberKinds(type: DataType): boolean {
  switch (type.kind) {
    case "int":
    case "bigint":
    case "smallint":
    case "tinyint":
    case "timestamp":
      return true;
    case "array":
      return needsNumberKinds(type.elementType);
    case "map":
      return needsNumberKinds(type.valueType);
    case "struct":
      return type.fields.some((f) => needsNumberKinds(f.type));
    default:
      return false;
  }
}

/**
 * A STRUCT (or an ARRAY / MAP holding one) some of whose fields did not convert: Spark keeps the
 * fields that did, NULLs the others, and still calls the record malformed (the corrupt-record
 * column, DROPMALFORMED, FAILFAST) — its partial results. An ARRAY or MAP element that fails
 * outright fails the whole ARRAY or MAP.
 */
export class PartialValue {
  constructor(readonly value: unknown) {}
}

/** An integer token's value if it lies in [lo, hi], else FAIL (a fraction never converts). */
function integerOf(v: unknown, lo: number, hi: number): Converted {
  const n = typeof v === "number" ? v : v instanceof NumberText && !v.float ? v.value() : Number.NaN;
  return Number.isInteger(n) && n >= lo && n <= hi ? n + 0 : FAIL; // + 0: never -0
}

/** How values convert beyond their types: the read's date formats, STRING texts and NaN strings. */
export interface JsonConvertSettings {
  readonly dateTime: DateTimeText;
  readonly valueText?: ValueText;
  /** `allowNonNumericNumbers`: do DOUBLE and FLOAT columns take the strings "NaN", "Infinity"...? (default true) */
  readonly nonNumericNumbers?: boolean;
}

/**
 * Converter for a non-null parsed JSON value; callers map null/undefined to SQL NULL. A plain
 * JS number is an integer token unless the column takes fractions (the reader sees to it).
 */
export function jsonConverter(type: DataType, how: JsonConvertSettings): JsonConverter {
  const dt = how.dateTime;
  const valueText = how.valueText ?? "source";
  const specialDoubles = how.nonNumericNumbers === false ? {} : SPECIAL_DOUBLES;
  switch (type.kind) {
    case "int":
      return (v) => integerOf(v, -2147483648, 2147483647);
    case "bigint":
      return (v) => {
        if (v instanceof NumberText) return v.float ? FAIL : longOfText(v.text);
        return typeof v === "number" && Number.isInteger(v) && v > -LONG_LIMIT && v < LONG_LIMIT ? v + 0 : FAIL;
      };
    case "double":
      return (v) => {
        if (typeof v === "number") return v;
        if (v instanceof NumberText) return v.value();
        if (typeof v === "string") return specialDoubles[v] ?? FAIL;
        return FAIL;
      };
    case "tinyint":
      return (v) => integerOf(v, -128, 127);
    case "smallint":
      return (v) => integerOf(v, -32768, 32767);
    case "float":
      return (v) => {
        if (typeof v === "number") return Math.fround(v);
        if (v instanceof NumberText) return Math.fround(v.value());
        if (typeof v === "string") return specialDoubles[v] ?? FAIL;
        return FAIL;
      };
    case "decimal":
      // Numbers (exactly, from their text when long) and numeric strings, HALF_UP to the scale;
      // a value beyond the precision is malformed, as Spark's Decimal(bigDecimal, p, s).
      return (v) => {
        const text =
          typeof v === "number" ? String(v) : v instanceof NumberText ? v.text : typeof v === "string" && v.length > 0 ? v : null;
        if (text === null) return FAIL;
        const u = parseDecimal(text, type.precision, type.scale);
        return u === undefined || u === null ? FAIL : toLane(u, type);
      };
    case "string":
      return (v) => {
        if (typeof v === "string") return v;
        if (typeof v === "boolean") return v ? "true" : "false";
        if (v instanceof NumberText) return valueText === "source" ? v.text : regeneratedText(v);
        const source = typeof v === "object" && v !== null ? sourceTextOf(v) : undefined;
        if (source === undefined) throw NEEDS_TEXT;
        return valueText === "source" ? source : regeneratedText(v);
      };
    case "boolean":
      return (v) => (typeof v === "boolean" ? (v ? 1 : 0) : FAIL);
    case "timestamp":
      return (v) => {
        if (typeof v === "string") return v.length === 0 ? FAIL : (dt.parseTimestamp(v) ?? FAIL);
        const seconds = integerOf(v, -MAX_EPOCH_SECONDS, MAX_EPOCH_SECONDS);
        return seconds === FAIL ? FAIL : (seconds as number) * 1_000_000;
      };
    case "date":
      return (v) => (typeof v === "string" && v.length > 0 ? (dt.parseDate(v) ?? FAIL) : FAIL);
    case "binary":
      return (v) => (typeof v === "string" ? new Uint8Array(Buffer.from(v, "base64")) : FAIL);
    case "null":
      return () => null;
    case "array": {
      const elem = jsonConverter(type.elementType, how);
      return (v) => {
        if (!Array.isArray(v)) return FAIL;
        const out = new Array<unknown>(v.length);
        let partial = false;
        for (let i = 0; i < v.length; i++) {
          const x = v[i];
          if (x === null) out[i] = null;
          else {
            const c = elem(x);
            if (c === FAIL) return FAIL;
            partial ||= c instanceof PartialValue;
            out[i] = c instanceof PartialValue ? c.value : c;
          }
        }
        return partial ? new PartialValue(out) : out;
      };
    }
    case "map": {
      if (type.keyType.kind !== "string") return () => FAIL;
      const val = jsonConverter(type.valueType, how);
      return (v) => {
        if (!isJsonObject(v)) return FAIL;
        const m = new Map<string, unknown>();
        let partial = false;
        for (const k of Object.keys(v)) {
          const x = v[k];
          if (x === null) m.set(k, null);
          else {
            const c = val(x);
            if (c === FAIL) return FAIL;
            partial ||= c instanceof PartialValue;
            m.set(k, c instanceof PartialValue ? c.value : c);
          }
        }
        return partial ? new PartialValue(m) : m;
      };
    }
    case "struct": {
      const names = type.fields.map((f) => f.name);
      const readers = names.map(fieldReader);
      const convs = type.fields.map((f) => jsonConverter(f.type, how));
      return (v) => {
        if (!isJsonObject(v)) return FAIL;
        const out: Record<string, unknown> = {};
        let partial = false;
        for (let i = 0; i < names.length; i++) {
          const x = readers[i]!(v);
          if (x === null || x === undefined) setField(out, names[i]!, null);
          else {
            const c = convs[i]!(x);
            partial ||= c === FAIL || c instanceof PartialValue;
            setField(out, names[i]!, c === FAIL ? null : c instanceof PartialValue ? c.value : c);
          }
        }
        return partial ? new PartialValue(out) : out;
      };
    }
    default:
      return () => FAIL;
  }
}
