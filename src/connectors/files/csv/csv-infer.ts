/**
 * CSV schema inference (Spark's CSVInferSchema): per column, each token climbs the ladder
 * int → bigint → decimal (an integer beyond bigint) → double → date (preferDate) → timestamp → boolean → string from the type seen
 * so far; date and timestamp mixed give string; an all-null column is string. Column names come
 * from the header (blank → `_cN`, duplicates get their index appended) or are `_c0.._cN`.
 */

import { widerNumeric } from "../../../types/coercion.js";
import {
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  NullType,
  StringType,
  StructOf,
  type StructType,
  TimestampType,
} from "../../../types/datatypes.js";
import { DecimalOf, MAX_PRECISION } from "../../../types/decimal.js";
import type { DateTimeText } from "../datetime-text.js";
import { bigDecimalParts, mergeInferredDecimal } from "../infer-decimal.js";
import { parseJavaBoolean, parseJavaDouble, parseJavaInt, parseJavaLong } from "../text-values.js";
import type { CsvReadOptions } from "./csv-options.js";
import { tokenValue } from "./csv-options.js";
import { CsvTokenizer } from "./csv-tokenizer.js";

/** The rungs; the DECIMAL one stands for any DECIMAL(p, 0) (`decimalOf` gives a token's). */
const LADDER: readonly DataType[] = [IntegerType, LongType, DecimalOf(38, 0), DoubleType, DateType, TimestampType, BooleanType, StringType];
const STRICT_DATE = /^[+-]?\d{4,}-\d{2}-\d{2}$/;

/**
 * Spark's tryParseDecimal: a number Java's BigDecimal reads with no fraction left (an integer
 * beyond BIGINT, or `1.5e1`) is DECIMAL(its precision, 0); a negative scale (`1e3`), a fraction
 * or more than 38 digits go on to DOUBLE.
 */
function decimalOf(s: string): DataType | null {
  const parts = bigDecimalParts(s);
  return parts && parts.scale === 0 && parts.precision <= MAX_PRECISION ? DecimalOf(parts.precision, 0) : null;
}

function fits(t: DataType, s: string, o: CsvReadOptions, dt: DateTimeText): boolean {
  switch (t.kind) {
    case "decimal":
      return decimalOf(s) !== null;
    case "int":
      return parseJavaInt(s) !== null;
    case "bigint":
      return parseJavaLong(s) !== null;
    case "double":
      return parseJavaDouble(s) !== null || s === o.nanValue || s === o.positiveInf || s === o.negativeInf;
    case "date":
      return o.preferDate && (o.customDateFormat || STRICT_DATE.test(s)) && dt.parseDate(s) !== null;
    case "timestamp":
      return dt.parseTimestamp(s) !== null;
    case "boolean":
      return parseJavaBoolean(s) !== null;
    default:
      return true;
  }
}

/** Spark's CSV compatibleType: numeric types widen (types/coercion.ts; DECIMALs as infer-decimal.ts), anything else mixed is STRING. */
function compatible(a: DataType, b: DataType): DataType {
  if (a.kind === "null") return b;
  if (b.kind === "null") return a;
  const decimal = mergeInferredDecimal(a, b);
  if (decimal) return decimal;
  if (a.kind === b.kind) return a;
  return widerNumeric(a, b) ?? StringType;
}

function inferToken(soFar: DataType, s: string, o: CsvReadOptions, dt: DateTimeText): DataType {
  if (soFar.kind === "string") return soFar;
  let i = soFar.kind === "null" ? 0 : LADDER.findIndex((t) => t.kind === soFar.kind);
  while (!fits(LADDER[i]!, s, o, dt)) i++;
  const t = LADDER[i]!.kind === "decimal" ? decimalOf(s)! : LADDER[i]!;
  return compatible(soFar, t);
}

/** Spark's makeSafeHeader. */
export function headerNames(tokens: readonly string[]): string[] {
  const names = tokens.map((t, i) => (t === "" ? `_c${i}` : t));
  const lower = names.map((n) => n.toLowerCase());
  return names.map((n, i) => (lower.indexOf(lower[i]!) !== lower.lastIndexOf(lower[i]!) ? `${n}${i}` : n));
}

export function inferCsvSchema(texts: readonly string[], o: CsvReadOptions, inferTypes: boolean, dt: DateTimeText): StructType {
  let names: string[] | null = null;
  let types: DataType[] = [];
  for (const text of texts) {
    const tk = new CsvTokenizer(text, o.syntax);
    let first = true;
    while (tk.next()) {
      const isHeaderLine = first && o.header;
      if (names === null) {
        const toks = tk.fields.slice(0, tk.count);
        names = o.header ? headerNames(toks) : toks.map((_, i) => `_c${i}`);
        types = names.map(() => NullType);
      }
      first = false;
      if (isHeaderLine) continue;
      if (!inferTypes) break;
      const m = Math.min(tk.count, types.length);
      for (let c = 0; c < m; c++) {
        const v = tokenValue(tk.fields[c]!, tk.quoted[c]!, o);
        if (v !== null) types[c] = inferToken(types[c]!, v, o, dt);
      }
    }
    if (!inferTypes && names !== null) break;
  }
  return StructOf((names ?? []).map((n, i) => field(n, types[i]!.kind === "null" ? StringType : types[i]!)));
}
