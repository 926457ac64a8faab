/**
 * DECIMAL in JSON and CSV schema inference, by Spark's rules (JsonInferSchema, CSVInferSchema):
 * a number's type from its text read as a Java BigDecimal (an integer beyond BIGINT is
 * DECIMAL(digits, 0) — a DOUBLE would round it), and two inferred types merged — integral types
 * as the DECIMAL that holds them, a DOUBLE beside a DECIMAL is a DOUBLE, two DECIMALs the
 * DECIMAL holding both, or a DOUBLE past 38 digits.
 */
import { AnalysisException } from "../../common/errors.js";
import { type DataType, DoubleType } from "../../types/datatypes.js";
import { DecimalOf, decimalForIntegral, MAX_PRECISION } from "../../types/decimal.js";

const BIG_DECIMAL_TEXT = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,9}))?$/;

/** The precision and scale Java's `new BigDecimal(text)` gives, or undefined when it refuses the text. */
export function bigDecimalParts(text: string): { precision: number; scale: number } | undefined {
  const m = BIG_DECIMAL_TEXT.exec(text);
  if (!m) return undefined;
  const int = m[1] ?? "";
  const frac = m[2] ?? "";
  if (int === "" && frac === "") return undefined;
  const digits = (int + frac).replace(/^0+/, "");
  return { precision: Math.max(1, digits.length), scale: frac.length - Number(m[3] ?? 0) };
}

/**
 * Spark's `DecimalType(Math.max(precision, scale), scale)` for a JSON number read as a
 * BigDecimal: a DOUBLE past 38 digits; a negative scale (`1e3`) is Spark's error.
 */
export function jsonDecimalType(parts: { precision: number; scale: number }): DataType {
  if (parts.scale < 0) throw negativeScale(parts.scale);
  const precision = Math.max(parts.precision, parts.scale);
  return precision <= MAX_PRECISION ? DecimalOf(precision, parts.scale) : DoubleType;
}

export function negativeScale(scale: number): AnalysisException {
  return new AnalysisException(
    "NEGATIVE_SCALE_DISALLOWED",
    `[NEGATIVE_SCALE_DISALLOWED] Negative scale is not allowed: '${scale}'. Set the config "spark.sql.legacy.allowNegativeScaleOfDecimal" to "true" to allow it.`,
  );
}

/**
 * Two inferred types of which one is a DECIMAL merged as Spark's inference merges them, or
 * undefined when neither is numeric that way (the caller's rule applies).
 */
export function mergeInferredDecimal(a: DataType, b: DataType): DataType | undefined {
  if (a.kind !== "decimal" && b.kind !== "decimal") return undefined;
  if (a.kind === "double" || b.kind === "double") return DoubleType;
  const x = a.kind === "decimal" ? a : decimalForIntegral(a);
  const y = b.kind === "decimal" ? b : decimalForIntegral(b);
  if (!x || !y) return undefined;
  const scale = Math.max(x.scale, y.scale);
  const range = Math.max(x.precision - x.scale, y.precision - y.scale);
  return range + scale > MAX_PRECISION ? DoubleType : DecimalOf(range + scale, scale);
}
