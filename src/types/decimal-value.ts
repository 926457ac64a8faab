/**
 * `Decimal`: what `collect()` returns for a DECIMAL value — exact, immutable, small.
 *
 * `String(d)` / `d.toString()` is Spark's text with the scale's digits (`"1.50"`), `d.unscaled`
 * the exact integer (value × 10^scale) as a bigint, `d.toNumber()` the nearest double (only
 * when the caller asks), and JSON.stringify writes the exact text. `createDataFrame` accepts a
 * Decimal, a decimal string, a bigint or a number for a DECIMAL column.
 */
import { formatUnscaled, parseDecimal, toDouble } from "./decimal.js";

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
  /** Same value and scale. */
  equals(other: unknown): boolean {
    return other instanceof Decimal && other.unscaled === this.unscaled && other.scale === this.scale;
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Decimal(${this.toString()})`;
  }
}
