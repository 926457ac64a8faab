/**
 * Text → internal value conversions with the JVM's parsing rules (Spark's CSV reader calls
 * `toInt`, `toLong`, `toDouble`, `toBoolean` on each token). Used by CSV and partition values.
 */
import { canonical } from "../../columnar/int64.js";
import type { DataType } from "../../types/datatypes.js";
import { parseDecimal, toLane } from "../../types/decimal.js";
import type { DateTimeText } from "./datetime-text.js";

/** Returned by converters when the text does not fit the type (the record is malformed). */
export const FAIL: unique symbol = Symbol("FAIL");
export type Converted = unknown | typeof FAIL;

const INT_RE = /^[+-]?\d+$/;
const DOUBLE_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?$/;

/** Java's Integer.parseInt: optional sign, digits only, 32-bit range. */
export function parseJavaInt(s: string): number | null {
  if (!INT_RE.test(s)) return null;
  const v = Number(s);
  return v >= -2147483648 && v <= 2147483647 ? v : null;
}

/** Java's Long.parseLong, exact (canonical: a bigint beyond ±2^53 − 1, columnar/int64.ts). */
export function parseJavaLong(s: string): number | bigint | null {
  if (!INT_RE.test(s)) return null;
  if (s.replace(/^[+-]?0*/, "").length > 19) return null;
  const b = BigInt(s);
  if (b < -9223372036854775808n || b > 9223372036854775807n) return null;
  return canonical(b);
}

/** Java's Double.parseDouble: trims, accepts `1e5`, `1.5d`, `NaN`, `Infinity`. */
export function parseJavaDouble(raw: string): number | null {
  const s = raw.trim();
  if (DOUBLE_RE.test(s)) return Number(/[fFdD]$/.test(s) ? s.slice(0, -1) : s);
  switch (s) {
    case "NaN":
    case "+NaN":
    case "-NaN":
      return Number.NaN;
    case "Infinity":
    case "+Infinity":
      return Number.POSITIVE_INFINITY;
    case "-Infinity":
      return Number.NEGATIVE_INFINITY;
  }
  return null;
}

/** Scala's `toBoolean`: "true"/"false" in any case. */
export function parseJavaBoolean(s: string): boolean | null {
  const l = s.toLowerCase();
  return l === "true" ? true : l === "false" ? false : null;
}

export interface TextConvertOptions {
  nanValue?: string;
  positiveInf?: string;
  negativeInf?: string;
}

/** A converter from one text token to the internal value of `type`, or FAIL. */
export function textConverter(type: DataType, dt: DateTimeText, o: TextConvertOptions = {}): (s: string) => Converted {
  switch (type.kind) {
    case "string":
      return (s) => s;
    case "int":
      return (s) => parseJavaInt(s) ?? FAIL;
    case "bigint":
      return (s) => parseJavaLong(s) ?? FAIL;
    case "tinyint":
    case "smallint": {
      const lim = type.kind === "tinyint" ? 128 : 32768;
      return (s) => {
        const v = parseJavaInt(s);
        return v === null || v < -lim || v >= lim ? FAIL : v;
      };
    }
    case "decimal":
      // Spark's decimalParser for the US locale: grouping commas dropped, then BigDecimal, HALF_UP.
      return (s) => {
        const u = parseDecimal(s.replaceAll(",", ""), type.precision, type.scale);
        return u === undefined || u === null ? FAIL : toLane(u, type);
      };
    case "float":
    case "double": {
      const nan = o.nanValue ?? "NaN";
      const pinf = o.positiveInf ?? "Inf";
      const ninf = o.negativeInf ?? "-Inf";
      return (s) => {
        if (s === nan) return Number.NaN;
        if (s === pinf) return Number.POSITIVE_INFINITY;
        if (s === ninf) return Number.NEGATIVE_INFINITY;
        const d = parseJavaDouble(s);
        return d === null ? FAIL : type.kind === "float" ? Math.fround(d) : d;
      };
    }
    case "boolean":
      return (s) => {
        const b = parseJavaBoolean(s);
        return b === null ? FAIL : b ? 1 : 0;
      };
    case "timestamp":
      return (s) => dt.parseTimestamp(s) ?? FAIL;
    case "date":
      return (s) => dt.parseDate(s) ?? FAIL;
    case "binary":
      return (s) => new TextEncoder().encode(s);
    case "null":
      return () => null;
    default:
      // Complex types have no text form in CSV or directory names.
      return () => FAIL;
  }
}
