/**
 * `Decimal`: what `collect()` returns for a DECIMAL value — exact, immutable, small.
 *
 * `String(d)` / `d.toString()` is Spark's text with the scale's digits (`"1.50"`), `d.unscaled`
 * the exact integer (value × 10^scale) as a bigint, `d.toNumber()` the nearest double (only
 * when the caller asks), and JSON.stringify writes the exact text. `createDataFrame` accepts a
 * Decimal, a decimal string, a bigint or a number for a DECIMAL column.
 *
 * Arithmetic is exact, with java.math.BigDecimal's scales (what a ported PySpark function gets
 * from Python's `decimal.Decimal`): `a.plus(b)` and `a.minus(b)` keep the larger scale,
 * `a.times(b)` adds the scales, `a.dividedBy(b, scale)` rounds HALF_UP to the scale asked for.
 * An operand may be a Decimal, a bigint, an integer number or decimal text; a fractional number
 * is refused (a double is not the decimal it prints as: pass its text).
 */
import { divHalfUp, formatUnscaled, parseDecimal, pow10, rescale, toDouble } from "./decimal.js";

/** What the arithmetic methods accept as the other operand. */
export type DecimalLike = Decimal | bigint | number | string;

export class Decimal {
  /** The exact value is unscaled × 10^-scale. */
  readonly unscaled: bigint;
  readonly scale: number;

  constructor(unscaled: bigint, scale: number) {
    this.unscaled = unscaled;
    this.scale = scale;
    Object.freeze(this);
  }

  /** Parse decimal text (`"12.50"`, `"-3"`, `"1.5E3"`), keeping its scale. */
  static fromString(text: string): Decimal {
    const m = /^\s*[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
    if (!m || (m[1] === "" && (m[2] ?? "") === "")) throw new RangeError(`Not a decimal number: "${text}".`);
    const scale = Math.max(0, (m[2] ?? "").length - (m[3] ? Number(m[3]) : 0));
    const u = parseDecimal(text, 1000, scale);
    if (u === undefined || u === null) throw new RangeError(`Not a decimal number: "${text}".`);
    return new Decimal(u, scale);
  }

  /** `x` as a Decimal: a bigint or an integer number at scale 0, text at its own scale. */
  static of(x: DecimalLike): Decimal {
    if (x instanceof Decimal) return x;
    if (typeof x === "bigint") return new Decimal(x, 0);
    if (typeof x === "string") return Decimal.fromString(x);
    if (Number.isSafeInteger(x)) return new Decimal(BigInt(x), 0);
    throw new RangeError(
      `Decimal arithmetic takes integers, bigints, decimal text or Decimals; ${x} is a double (pass its text, Decimal.of("${x}"), if that is the value meant).`,
    );
  }

  plus(other: DecimalLike): Decimal {
    const o = Decimal.of(other);
    const s = Math.max(this.scale, o.scale);
    return new Decimal(rescale(this.unscaled, this.scale, s) + rescale(o.unscaled, o.scale, s), s);
  }
  minus(other: DecimalLike): Decimal {
    return this.plus(Decimal.of(other).negate());
  }
  times(other: DecimalLike): Decimal {
    const o = Decimal.of(other);
    return new Decimal(this.unscaled * o.unscaled, this.scale + o.scale);
  }
  /** this ÷ other rounded HALF_UP (halves away from zero) to `scale` digits; a zero divisor throws. */
  dividedBy(other: DecimalLike, scale: number): Decimal {
    const o = Decimal.of(other);
    if (o.unscaled === 0n) throw new RangeError(`Division by zero: ${this} / ${o}.`);
    if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`dividedBy: the scale must be an integer >= 0, got ${scale}.`);
    // (u1·10^-s1) / (u2·10^-s2) at scale s is u1·10^(s + s2 - s1) / u2, shifted so both are integers
    const shift = scale + o.scale - this.scale;
    const num = shift >= 0 ? this.unscaled * pow10(shift) : this.unscaled;
    const den = shift >= 0 ? o.unscaled : o.unscaled * pow10(-shift);
    return new Decimal(divHalfUp(num, den), scale);
  }
  /** The same value at `scale` digits, rounded HALF_UP when digits drop. */
  setScale(scale: number): Decimal {
    if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`setScale: the scale must be an integer >= 0, got ${scale}.`);
    return new Decimal(rescale(this.unscaled, this.scale, scale), scale);
  }
  negate(): Decimal {
    return new Decimal(-this.unscaled, this.scale);
  }
  abs(): Decimal {
    return this.unscaled < 0n ? this.negate() : this;
  }
  /** -1, 0 or 1. */
  signum(): number {
    return this.unscaled < 0n ? -1 : this.unscaled > 0n ? 1 : 0;
  }
  /** -1, 0 or 1 by value, whatever the scales (`1.50` and `1.5` compare equal; `equals` tells them apart). */
  compareTo(other: DecimalLike): number {
    return this.minus(other).signum();
  }

  toString(): string {
    return formatUnscaled(this.unscaled, this.scale);
  }
  toJSON(): string {
    return this.toString();
  }
  /** The nearest double: loses digits beyond ~15-17 significant ones. */
  toNumber(): number {
    return toDouble(this.unscaled, this.scale);
  }
  /** Same value and scale (as BigDecimal.equals; compareTo for the value alone). */
  equals(other: unknown): boolean {
    return other instanceof Decimal && other.unscaled === this.unscaled && other.scale === this.scale;
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Decimal(${this.toString()})`;
  }
}
