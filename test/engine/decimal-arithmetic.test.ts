/**
 * Decimal's exact arithmetic (what a ported flatMapGroupsWithState or foreachBatch function does
 * with Python's decimal.Decimal): BigDecimal's scales, HALF_UP division, value comparison.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Decimal } from "../../src/index.js";

const decimal = fc
  .record({ u: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), s: fc.integer({ min: 0, max: 12 }) })
  .map(({ u, s }) => new Decimal(u, s));
/** The value as a fraction num / 10^s. */
const at = (d: Decimal, s: number) => d.unscaled * 10n ** BigInt(s - d.scale);

describe("Decimal arithmetic", () => {
  it("adds, subtracts and multiplies exactly, with BigDecimal's result scales", () => {
    assert.equal(String(Decimal.of("1.50").plus("2.125")), "3.625");
    assert.equal(String(Decimal.of("1.50").minus(2)), "-0.50");
    assert.equal(String(Decimal.of("1.50").times("0.2")), "0.300");
    // a sum past 2^53 stays exact (a double would round it)
    assert.equal(String(Decimal.of("9007199254740993.01").plus("0.01")), "9007199254740993.02");
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const s = Math.max(a.scale, b.scale);
        const sum = a.plus(b);
        assert.equal(sum.scale, s);
        assert.equal(sum.unscaled, at(a, s) + at(b, s));
        assert.equal(a.minus(b).unscaled, at(a, s) - at(b, s));
        const prod = a.times(b);
        assert.equal(prod.scale, a.scale + b.scale);
        assert.equal(prod.unscaled, a.unscaled * b.unscaled);
      }),
    );
  });

  it("divides to the scale asked for, rounding halves away from zero", () => {
    assert.equal(String(Decimal.of(1).dividedBy(3, 4)), "0.3333");
    assert.equal(String(Decimal.of(2).dividedBy(3, 2)), "0.67");
    assert.equal(String(Decimal.of("0.125").dividedBy(1, 2)), "0.13");
    assert.equal(String(Decimal.of("-0.125").dividedBy(1, 2)), "-0.13");
    assert.throws(() => Decimal.of(1).dividedBy("0.00", 2), /Division by zero: 1 \/ 0.00/);
    fc.assert(
      fc.property(decimal, decimal, fc.integer({ min: 0, max: 10 }), (a, b, scale) => {
        fc.pre(b.unscaled !== 0n);
        const q = a.dividedBy(b, scale);
        assert.equal(q.scale, scale);
        // a / b - q·10^-scale, as one fraction over a common denominator: its size is at most half a unit
        const s = Math.max(a.scale, b.scale);
        const [num, den] = [at(a, s), at(b, s)];
        const err = num * 10n ** BigInt(scale) - q.unscaled * den; // (a/b - q) · den · 10^scale
        const absDen = den < 0n ? -den : den;
        const absErr = err < 0n ? -err : err;
        assert.ok(2n * absErr <= absDen, `${a} / ${b} at ${scale}: ${q}`);
        // an exact half rounds away from zero: the error then has the opposite sign of the quotient
        if (2n * absErr === absDen) assert.ok(err * den < 0n === q.signum() > 0 || q.signum() === 0);
      }),
    );
  });

  it("compares by value whatever the scales, and rescales HALF_UP", () => {
    assert.equal(Decimal.of("1.50").compareTo("1.5"), 0);
    assert.equal(Decimal.of("1.50").equals(Decimal.of("1.5")), false);
    assert.equal(Decimal.of("-2").compareTo("1.999"), -1);
    assert.equal(String(Decimal.of("2.345").setScale(2)), "2.35");
    assert.equal(String(Decimal.of("-2.345").setScale(2)), "-2.35");
    assert.equal(String(Decimal.of("2.3").setScale(3)), "2.300");
    assert.equal(String(Decimal.of("-4.20").abs()), "4.20");
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        assert.equal(a.compareTo(b) + b.compareTo(a), 0); // antisymmetric (and no -0 from negating a 0)
        const s = Math.max(a.scale, b.scale);
        const d = at(a, s) - at(b, s);
        assert.equal(a.compareTo(b), d < 0n ? -1 : d > 0n ? 1 : 0);
      }),
    );
  });

  it("takes integers, bigints and text, and refuses a fractional double by name", () => {
    assert.equal(String(Decimal.of("10.00").plus(5n)), "15.00");
    assert.throws(() => Decimal.of("1").plus(0.1), /0\.1 is a double \(pass its text, Decimal\.of\("0\.1"\)/);
    assert.throws(() => Decimal.of("1").dividedBy(3, -1), /the scale must be an integer >= 0, got -1/);
  });
});
