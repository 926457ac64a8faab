/**
 * Implicit type coercion, following Spark's `TypeCoercion.findWiderTypeForTwo` closely enough
 * for the functions arus supports: numeric widening TINYINT < SMALLINT < INT < BIGINT < FLOAT <
 * DOUBLE, DATE < TIMESTAMP,
 * DECIMAL with an integral type is a DECIMAL wide enough for both, DECIMAL with DOUBLE a DOUBLE,
 * NULL widens to anything, and (for functions that allow it) STRING is promoted to the other
 * type as Spark 4's ANSI coercion does (`AnsiTypeCoercion.findWiderTypeForString`): with an
 * integral type to BIGINT, with FLOAT/DOUBLE/DECIMAL to DOUBLE, with any other atomic type
 * (DATE, TIMESTAMP, BOOLEAN, BINARY...) to that type; the string is then cast, and a malformed
 * one fails the query under ANSI. (Spark's legacy non-ANSI rule, where STRING wins, is not
 * followed with `spark.sql.ansi.enabled=false`: docs/differences.md.)
 */
import {
  ArrayOf,
  type DataType,
  DoubleType,
  field,
  isAtomic,
  isIntegral,
  isNumeric,
  LongType,
  MapOf,
  type StructField,
  StructOf,
  type StructType,
  TimestampType,
  typesEqual,
} from "./datatypes.js";
import { decimalForIntegral, widerDecimal } from "./decimal.js";

/** The one numeric widening rule (Spark's numericPrecedence): TINYINT < SMALLINT < INT < BIGINT < FLOAT < DOUBLE. */
const numericRank: Record<string, number> = { tinyint: 1, smallint: 2, int: 3, bigint: 4, float: 5, double: 6 };

/** Spark's ANSI widening (the default) or its legacy one (`spark.sql.ansi.enabled=false`), for the analysis running. */
let ansiWidening = true;

/** Runs `fn` (an analysis: synchronous) with ANSI or legacy numeric widening. */
export function withAnsiWidening<T>(ansi: boolean, fn: () => T): T {
  const outer = ansiWidening;
  ansiWidening = ansi;
  try {
    return fn();
  } finally {
    ansiWidening = outer;
  }
}

/**
 * The wider of two numeric types, or null unless both are numeric. Under ANSI coercion (Spark
 * 4's default) a FLOAT with an integral type is DOUBLE: a float cannot hold every INT or BIGINT
 * (`CAST(1 AS FLOAT) + 1` is a DOUBLE in Spark 4, as is `array(CAST(1 AS FLOAT), 2)`); the
 * legacy rule keeps FLOAT.
 */
export function widerNumeric(a: DataType, b: DataType): DataType | null {
  if (!isNumeric(a) || !isNumeric(b)) return null;
  if (a.kind === "decimal" || b.kind === "decimal") return widerWithDecimal(a, b);
  const floatWithInteger = (a.kind === "float" && numericRank[b.kind]! < 5) || (b.kind === "float" && numericRank[a.kind]! < 5);
  if (floatWithInteger && ansiWidening) return DoubleType;
  return numericRank[a.kind]! >= numericRank[b.kind]! ? a : b;
}

/** A decimal with another numeric: DOUBLE wins; an integral type becomes its decimal form first. */
function widerWithDecimal(a: DataType, b: DataType): DataType {
  if (a.kind === "double" || b.kind === "double" || a.kind === "float" || b.kind === "float") return DoubleType;
  const da = a.kind === "decimal" ? a : decimalForIntegral(a)!;
  const db = b.kind === "decimal" ? b : decimalForIntegral(b)!;
  return widerDecimal(da, db);
}

/**
 * Does `from` widen to `to` by the numeric rule (the same numeric type, INT → BIGINT/DOUBLE,
 * BIGINT → DOUBLE)? What Spark's Parquet reader and table appends accept without a cast.
 */
export function widensNumerically(from: DataType, to: DataType): boolean {
  if (from.kind === "decimal" || to.kind === "decimal") {
    if (to.kind === "double") return isNumeric(from);
    if (to.kind !== "decimal") return false;
    const f = from.kind === "decimal" ? from : decimalForIntegral(from);
    return f !== null && f.scale <= to.scale && f.precision - f.scale <= to.precision - to.scale;
  }
  return isNumeric(from) && isNumeric(to) && numericRank[from.kind]! <= numericRank[to.kind]!;
}

/** Wider type of two, or null when none exists. */
export function widerType(a: DataType, b: DataType, allowStringPromotion = true): DataType | null {
  if (typesEqual(a, b)) return a;
  if (a.kind === "null") return b;
  if (b.kind === "null") return a;
  const n = widerNumeric(a, b);
  if (n) return n;
  const pair = new Set([a.kind, b.kind]);
  if (pair.has("date") && pair.has("timestamp")) return TimestampType;
  if (a.kind === "array" && b.kind === "array") {
    const e = widerType(a.elementType, b.elementType, allowStringPromotion);
    return e ? ArrayOf(e, a.containsNull || b.containsNull) : null;
  }
  if (a.kind === "map" && b.kind === "map") {
    const k = widerType(a.keyType, b.keyType, allowStringPromotion);
    const v = widerType(a.valueType, b.valueType, allowStringPromotion);
    return k && v ? MapOf(k, v, a.valueContainsNull || b.valueContainsNull) : null;
  }
  // structs of the same field names (case-insensitively, as Spark's resolver)
  if (a.kind === "struct" && b.kind === "struct") return widerStruct(a, b, allowStringPromotion, true);
  if (allowStringPromotion) return promotedString(a, b) ?? promotedString(b, a);
  return null;
}

/** Two structs' common type field by field, with the left's names; `sameNames`: the names must match too. */
function widerStruct(a: StructType, b: StructType, allowStringPromotion: boolean, sameNames: boolean): StructType | null {
  if (a.fields.length !== b.fields.length) return null;
  const fields: StructField[] = [];
  for (let i = 0; i < a.fields.length; i++) {
    const fa = a.fields[i]!;
    const fb = b.fields[i]!;
    if (sameNames && fa.name.toLowerCase() !== fb.name.toLowerCase()) return null;
    const t = widerType(fa.type, fb.type, allowStringPromotion);
    if (t === null) return null;
    fields.push(field(fa.name, t, fa.nullable || fb.nullable));
  }
  return StructOf(fields);
}

/** STRING `s` with another type `other` under ANSI coercion; null when there is none. */
function promotedString(s: DataType, other: DataType): DataType | null {
  if (s.kind !== "string" || other.kind === "string" || !isAtomic(other) || other.kind === "interval") return null;
  if (isIntegral(other)) return LongType;
  if (isNumeric(other)) return DoubleType;
  return other;
}

export function widerTypeOfAll(types: readonly DataType[], allowStringPromotion = true): DataType | null {
  let acc: DataType | null = types[0] ?? null;
  for (let i = 1; i < types.length && acc; i++) acc = widerType(acc, types[i]!, allowStringPromotion);
  return acc;
}

/**
 * The common type for a binary comparison (`=`, `<`, ...). Spark compares a string with a
 * numeric as numbers, and a string with a timestamp/date as timestamps/dates.
 */
export function comparisonType(a: DataType, b: DataType): DataType | null {
  if (a.kind === "string" && isNumeric(b)) return isIntegral(b) ? LongType : DoubleType;
  if (b.kind === "string" && isNumeric(a)) return comparisonType(b, a);
  if (a.kind === "string" && (b.kind === "timestamp" || b.kind === "date")) return b;
  if (b.kind === "string" && (a.kind === "timestamp" || a.kind === "date")) return a;
  // structs compare field by field whatever their names (Spark: named_struct('a', 1) = named_struct('b', 1) is true)
  if (a.kind === "struct" && b.kind === "struct") return widerStruct(a, b, false, false);
  return widerType(a, b, false);
}
