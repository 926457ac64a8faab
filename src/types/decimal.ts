/**
 * DECIMAL(p, s): the type, Spark's result-type rules (DecimalPrecision / `DecimalType.adjustPrecisionScale`),
 * and the exact arithmetic on unscaled integers that every decimal kernel shares.
 *
 * Internal values (what vectors and kernels hold) are unscaled integers — value × 10^scale:
 * a `number` while precision <= 15 (every such integer is below 10^15 < 2^53, so doubles hold
 * it exactly and kernels run on a Float64Array), a `bigint` above (up to 38 digits). No object
 * per value; the user-facing `Decimal` class (src/types/decimal-value.ts) appears only in
 * `collect()`.
 */
import type { DataType, DecimalType } from "./datatypes.js";

export const MAX_PRECISION = 38;
export const MAX_SCALE = 38;
/** Spark's DecimalType.MINIMUM_ADJUSTED_SCALE. */
const MINIMUM_ADJUSTED_SCALE = 6;
/** The widest precision whose unscaled values are held as doubles (10^15 < 2^53). */
export const NUMBER_LANE_MAX_PRECISION = 15;

/**
 * `spark.sql.decimalOperations.allowPrecisionLoss` (default true). Process-wide: the session
 * conf writes it here (src/common/conf.ts) because result types are derived from it wherever a
 * plan's types are read.
 */
let allowPrecisionLoss = true;
export function setDecimalPrecisionLoss(allow: boolean): void {
  allowPrecisionLoss = allow;
}
export function getDecimalPrecisionLoss(): boolean {
  return allowPrecisionLoss;
}

const cache = new Map<number, DecimalType>();

/** DECIMAL(p, s); p in [1, 38], s in [0, p] (checked by the DDL parser and `T.DecimalType`). */
export function DecimalOf(precision = 10, scale = 0): DecimalType {
  const key = precision * 64 + scale;
  let t = cache.get(key);
  if (!t) {
    t = Object.freeze({ kind: "decimal", precision, scale }) as DecimalType;
    cache.set(key, t);
  }
  return t;
}

/** Checks DECIMAL(p, s)'s bounds, as Spark's DecimalType constructor; returns the message or null. */
export function decimalBoundsError(precision: number, scale: number): string | null {
  if (!Number.isInteger(precision) || !Number.isInteger(scale))
    return `DECIMAL precision and scale must be integers, got (${precision}, ${scale}).`;
  if (precision < 1 || precision > MAX_PRECISION)
    return `[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision ${precision} exceeds max precision 38.`;
  if (scale < 0) return `[NEGATIVE_SCALE_DISALLOWED] Negative scale is not allowed: ${scale}.`;
  if (scale > precision) return `Decimal scale (${scale}) cannot be greater than precision (${precision}).`;
  return null;
}

export function isDecimal(t: DataType): t is DecimalType {
  return t.kind === "decimal";
}

/** Does this decimal type keep its unscaled values as doubles (p <= 15)? */
export function usesNumberLane(t: DecimalType): boolean {
  return t.precision <= NUMBER_LANE_MAX_PRECISION;
}

/** DecimalType.bounded. */
export function bounded(precision: number, scale: number): DecimalType {
  return DecimalOf(Math.min(precision, MAX_PRECISION), Math.min(scale, MAX_SCALE));
}

/** DecimalType.adjustPrecisionScale (allowPrecisionLoss): keep the integral digits, shrink the scale down to 6. */
export function adjustPrecisionScale(precision: number, scale: number): DecimalType {
  if (precision <= MAX_PRECISION) return DecimalOf(precision, scale);
  const intDigits = precision - scale;
  const minScale = Math.min(scale, MINIMUM_ADJUSTED_SCALE);
  return DecimalOf(MAX_PRECISION, Math.max(MAX_PRECISION - intDigits, minScale));
}

/** The decimal type an integral type converts to (DecimalType.forType); null for others. */
export function decimalForIntegral(t: DataType): DecimalType | null {
  switch (t.kind) {
    case "tinyint":
      return DecimalOf(3, 0);
    case "smallint":
      return DecimalOf(5, 0);
    case "int":
      return DecimalOf(10, 0);
    case "bigint":
      return DecimalOf(20, 0);
    default:
      return null;
  }
}

export type DecimalOp = "+" | "-" | "*" | "/" | "%";

/** The result type of `a op b` for two decimals (Spark's DecimalPrecision rules). */
export function decimalResultType(op: DecimalOp, a: DecimalType, b: DecimalType, allowPrecisionLoss: boolean): DecimalType {
  const { precision: p1, scale: s1 } = a;
  const { precision: p2, scale: s2 } = b;
  const fit = allowPrecisionLoss ? adjustPrecisionScale : bounded;
  switch (op) {
    case "+":
    case "-": {
      const s = Math.max(s1, s2);
      return fit(Math.max(p1 - s1, p2 - s2) + s + 1, s);
    }
    case "*":
      return fit(p1 + p2 + 1, s1 + s2);
    case "/": {
      if (allowPrecisionLoss) {
        const scale = Math.max(MINIMUM_ADJUSTED_SCALE, s1 + p2 + 1);
        return adjustPrecisionScale(p1 - s1 + s2 + scale, scale);
      }
      let intDig = Math.min(MAX_SCALE, p1 - s1 + s2);
      let decDig = Math.min(MAX_SCALE, Math.max(6, s1 + p2 + 1));
      const diff = intDig + decDig - MAX_SCALE;
      if (diff > 0) {
        decDig -= Math.floor(diff / 2) + 1;
        intDig = MAX_SCALE - decDig;
      }
      return bounded(intDig + decDig, decDig);
    }
    case "%": {
      const s = Math.max(s1, s2);
      return fit(Math.min(p1 - s1, p2 - s2) + s, s);
    }
  }
}

/** The wider of two decimals (a union / CASE / coalesce branch): max integral digits + max scale, bounded. */
export function widerDecimal(a: DecimalType, b: DecimalType): DecimalType {
  const s = Math.max(a.scale, b.scale);
  const range = Math.max(a.precision - a.scale, b.precision - b.scale);
  return bounded(range + s, s);
}

// ------------------------------------------------------------------ unscaled integer math

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 2 * MAX_PRECISION + 2; i++, p *= 10n) POW10.push(p);
/** 10^k as a bigint (k <= 78). */
export function pow10(k: number): bigint {
  return POW10[k] ?? 10n ** BigInt(k);
}
/** 10^k as a double, exact for k <= 22. */
export const POW10_NUM: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Does an unscaled value fit `precision` digits? */
export function fitsPrecision(unscaled: bigint, precision: number): boolean {
  const lim = pow10(precision);
  return unscaled < lim && unscaled > -lim;
}

/** a / b rounded HALF_UP (away from zero at exactly one half), b != 0. */
export function divHalfUp(a: bigint, b: bigint): bigint {
  const q = a / b;
  const r = a % b;
  if (r === 0n) return q;
  const r2 = (r < 0n ? -r : r) * 2n;
  const babs = b < 0n ? -b : b;
  if (r2 >= babs) return a < 0n !== b < 0n ? q - 1n : q + 1n;
  return q;
}

/** Rescale an unscaled value from scale `from` to scale `to`, rounding HALF_UP when digits drop. */
export function rescale(unscaled: bigint, from: number, to: number): bigint {
  if (to === from) return unscaled;
  if (to > from) return unscaled * pow10(to - from);
  return divHalfUp(unscaled, pow10(from - to));
}

/** The internal value (number lane or bigint lane) for an unscaled bigint of type `t`. */
export function toLane(unscaled: bigint, t: DecimalType): number | bigint {
  return t.precision <= NUMBER_LANE_MAX_PRECISION ? Number(unscaled) : unscaled;
}

/** An internal decimal value (number or bigint) as a bigint. */
export function unscaledOf(v: unknown): bigint {
  return typeof v === "bigint" ? v : BigInt(v as number);
}

/** Number of decimal digits of |x| (0 has 1). */
export function digitCount(x: bigint): number {
  const a = x < 0n ? -x : x;
  return a === 0n ? 1 : a.toString().length;
}

/**
 * Plain text of unscaled × 10^-scale with exactly `scale` fraction digits, as Spark prints a
 * decimal (`1.50`, `-0.05`, `12`).
 */
export function formatUnscaled(unscaled: bigint | number, scale: number): string {
  let u = typeof unscaled === "bigint" ? unscaled : BigInt(unscaled);
  const neg = u < 0n;
  if (neg) u = -u;
  let digits = u.toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = digits.padStart(scale + 1, "0");
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return neg ? `-${digits}` : digits;
}

/** Java's BigDecimal.toString: scientific once the adjusted exponent is below -6 (`0E-10`). */
export function javaBigDecimalString(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString();
  const adjusted = -scale + (digits.length - 1);
  if (scale === 0 || adjusted >= -6) return formatUnscaled(unscaled, scale);
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${unscaled < 0n ? "-" : ""}${mant}E${adjusted}`;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Parse decimal text (Java BigDecimal syntax: sign, digits, optional fraction and exponent) to
 * an unscaled value at `scale`, rounding HALF_UP. Returns undefined for malformed text, null
 * when the value does not fit `precision` (overflow).
 */
export function parseDecimal(text: string, precision: number, scale: number): bigint | null | undefined {
  const m = DECIMAL_TEXT.exec(text.trim());
  if (!m) return undefined;
  const intPart = m[2] ?? "";
  const frac = m[3] ?? "";
  if (intPart === "" && frac === "") return undefined;
  const exp = m[4] ? Number(m[4]) : 0;
  if (!Number.isFinite(exp) || Math.abs(exp) > 10000) return exp > 0 ? null : 0n;
  // digits × 10^(exp - frac.length)
  const digits = BigInt((intPart + frac).replace(/^0+(?=\d)/, "") || "0");
  const srcScale = frac.length - exp;
  let u = srcScale >= 0 ? rescale(digits, srcScale, scale) : digits * pow10(-srcScale + scale);
  if (m[1] === "-") u = -u;
  return fitsPrecision(u, precision) ? u : null;
}

/**
 * Unscaled value at `scale` of a double, rounding HALF_UP on the double's exact decimal
 * expansion of its shortest text (Spark's Decimal.set(Double) goes through BigDecimal(d.toString)).
 * null when it does not fit `precision` or is not finite.
 */
export function fromDouble(d: number, precision: number, scale: number): bigint | null {
  if (!Number.isFinite(d)) return null;
  const r = parseDecimal(String(d), precision, scale);
  return r ?? null;
}

/** The double nearest to unscaled × 10^-scale. */
export function toDouble(unscaled: bigint | number, scale: number): number {
  if (typeof unscaled === "number" && scale <= 22 && Math.abs(unscaled) < 2 ** 53) return unscaled / POW10_NUM[scale]!;
  return Number(formatUnscaled(unscaled, scale));
}

/** Truncating conversion to an integer (toward zero), as Spark's decimal → integral cast. */
export function truncToInteger(unscaled: bigint, scale: number): bigint {
  return scale === 0 ? unscaled : unscaled / pow10(scale);
}
