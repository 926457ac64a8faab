/**
 * Day-time interval arithmetic beyond `±` (arithmetic.ts): `interval * n`, `n * interval` and
 * `interval / n` (Spark's MultiplyDTInterval / DivideDTInterval: an INTERVAL DAY TO SECOND, the
 * microseconds rounded half up — exactly for an integral or DECIMAL n, from the double product
 * for a DOUBLE; a zero divisor is INTERVAL_DIVIDED_BY_ZERO whatever the ANSI setting, an
 * overflow ARITHMETIC_OVERFLOW), and `date - date` (Spark's SubtractDates under ANSI: an
 * INTERVAL DAY).
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { MICROS_PER_DAY } from "../common/datetime/index.js";
import { ArusError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { type DataType, DayTimeIntervalOf, type DecimalType, IntervalType, isNumeric } from "../types/datatypes.js";
import { mapBinary } from "./kernel-util.js";
import type { Resolved } from "./registry.js";

export const DAY_INTERVAL = DayTimeIntervalOf("DAY");

const MAX_MICROS = 2n ** 63n - 1n;

/** `interval * n`, `n * interval`, `interval / n` when one side is a day-time interval and the other a number (or NULL); else null. */
export function resolveIntervalScaling(op: "*" | "/", args: readonly Expr[], types: readonly DataType[]): Resolved | null {
  const [a, b] = types as [DataType, DataType];
  const number = (t: DataType) => isNumeric(t) || t.kind === "null";
  if (a.kind === "interval" && number(b)) return { args, type: IntervalType };
  if (op === "*" && b.kind === "interval" && number(a)) return { args, type: IntervalType };
  return null;
}

/** Rounds the rational p / q (q > 0) half away from zero. */
function roundHalfUp(p: bigint, q: bigint): bigint {
  const whole = p / q;
  const rest = p - whole * q;
  const twice = 2n * (rest < 0n ? -rest : rest);
  return twice >= q ? whole + (p < 0n ? -1n : 1n) : whole;
}

/** The factor as a rational (numerator, denominator): exact for integers and DECIMALs, the double's value otherwise. */
function rational(value: unknown, type: DataType): [bigint, bigint] | number {
  if (type.kind === "decimal") return [BigInt(value as number | bigint), 10n ** BigInt((type as DecimalType).scale)];
  if (typeof value === "bigint") return [value, 1n];
  if (type.kind === "double" || type.kind === "float") return value as number;
  return [BigInt(value as number), 1n];
}

/** Spark's own words (a Java ArithmeticException there, without an error class): "long overflow", "input is infinite or NaN". */
function overflow(what: string): ArusError {
  return new ArusError("ARITHMETIC_OVERFLOW", `[ARITHMETIC_OVERFLOW] ${what} in interval arithmetic.`);
}

function checked(micros: bigint): number {
  if (micros > MAX_MICROS || micros < -MAX_MICROS - 1n) throw overflow("long overflow");
  return Number(micros);
}

/** A double product or quotient rounded half up (away from zero), as Guava's DoubleMath.roundToLong. */
function roundDouble(x: number): number {
  if (!Number.isFinite(x)) throw overflow("input is infinite or NaN");
  return checked(BigInt(x < 0 ? -Math.round(-x) : Math.round(x)));
}

/** The kernel of a resolved `resolveIntervalScaling`. */
export function scaleIntervals(op: "*" | "/", args: readonly Vector[], n: number): Vector {
  const intervalFirst = args[0]!.type.kind === "interval";
  const iv = intervalFirst ? args[0]! : args[1]!;
  const nv = intervalFirst ? args[1]! : args[0]!;
  const out = new Array<number | null>(n);
  for (let i = 0; i < n; i++) {
    const micros = getValue(iv, i) as number | null;
    const factor = getValue(nv, i);
    if (micros === null || factor === null) {
      out[i] = null;
      continue;
    }
    const r = rational(factor, nv.type);
    const m = BigInt(micros);
    if (typeof r === "number") {
      if (op === "/" && r === 0) throw dividedByZero();
      out[i] = roundDouble(op === "*" ? micros * r : micros / r);
      continue;
    }
    const [p, q] = r;
    if (op === "/" && p === 0n) throw dividedByZero();
    // m * (p / q) or m / (p / q) = m * q / p, with a positive denominator
    out[i] = op === "*" ? checked(roundHalfUp(m * p, q)) : checked(p < 0n ? roundHalfUp(-m * q, -p) : roundHalfUp(m * q, p));
  }
  return vectorFromValues(IntervalType, out);
}

function dividedByZero(): ArusError {
  return new ArusError(
    "INTERVAL_DIVIDED_BY_ZERO",
    "[INTERVAL_DIVIDED_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead.",
  );
}

/** `date - date`: the days between them as an INTERVAL DAY. */
export function subtractDates(a: Vector, b: Vector, n: number): Vector {
  return mapBinary(DAY_INTERVAL, a, b, n, (x, y) => (x - y) * MICROS_PER_DAY);
}
