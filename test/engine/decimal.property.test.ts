// Decimal arithmetic against a BigInt reference: random DECIMAL(p, s) operands (both lanes:
// p <= 15 and above), every operator, HALF_UP to the result scale, overflow → NULL (ANSI off)
// or an error (ANSI on). The reference works on exact rationals, independently of the kernels.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { decimalKernel } from "../../src/functions/decimal-arithmetic.js";
import type { EvalContext } from "../../src/functions/registry.js";
import type { DecimalType } from "../../src/types/datatypes.js";
import { DecimalOf, type DecimalOp, decimalResultType, toLane } from "../../src/types/decimal.js";

const ctx = (ansi: boolean): EvalContext => ({ timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi });

/** num/den rounded HALF_UP (away from zero on a tie) to an integer. */
function roundRational(num: bigint, den: bigint): bigint {
  if (den < 0n) return roundRational(-num, -den);
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = a / den;
  const r = a % den;
  const up = 2n * r >= den ? q + 1n : q;
  return neg ? -up : up;
}
const p10 = (k: number) => 10n ** BigInt(k);

/** Reference: the exact result of x·10^-sx op y·10^-sy at scale `s` (HALF_UP), or "zero". */
function reference(op: DecimalOp, x: bigint, sx: number, y: bigint, sy: number, s: number): bigint | "zero" {
  // Bring both to a common denominator 10^m.
  const m = Math.max(sx, sy);
  const a = x * p10(m - sx);
  const b = y * p10(m - sy);
  switch (op) {
    case "+":
      return roundRational((a + b) * p10(s), p10(m));
    case "-":
      return roundRational((a - b) * p10(s), p10(m));
    case "*":
      return roundRational(a * b * p10(s), p10(2 * m));
    case "/": {
      if (b === 0n) return "zero";
      // Spark rounds the quotient at 38 fraction digits first (BigDecimal.divide(y, 38, HALF_UP)).
      const q38 = roundRational(a * p10(38), b);
      return roundRational(q38 * p10(s), p10(38));
    }
    case "%": {
      if (b === 0n) return "zero";
      const r = a % b; // truncated remainder, sign of the dividend
      return roundRational(r * p10(s), p10(m));
    }
  }
}

const decType = fc.integer({ min: 1, max: 38 }).chain((p) => fc.integer({ min: 0, max: p }).map((s) => DecimalOf(p, s)));
const unscaledValues = (t: DecimalType) => {
  const max = p10(t.precision) - 1n;
  const small = max < 1000n ? max : 1000n;
  // Favour small values too, so products and sums often stay in range.
  return fc.oneof(fc.bigInt({ min: -max, max }), fc.bigInt({ min: -small, max: small }), fc.constant(0n));
};
const operand = decType.chain((t) =>
  fc.array(fc.option(unscaledValues(t), { nil: null }), { minLength: 1, maxLength: 8 }).map((vs) => ({ t, vs })),
);
const ops: DecimalOp[] = ["+", "-", "*", "/", "%"];

describe("decimal arithmetic vs a BigInt reference", () => {
  for (const op of ops) {
    for (const loss of [true, false]) {
      it(`${op} (allowPrecisionLoss=${loss})`, () => {
        fc.assert(
          fc.property(operand, operand, (A, B) => {
            const n = Math.min(A.vs.length, B.vs.length);
            const type = decimalResultType(op, A.t, B.t, loss);
            const a = vectorFromValues(
              A.t,
              A.vs.slice(0, n).map((v) => (v === null ? null : toLane(v, A.t))),
            );
            const b = vectorFromValues(
              B.t,
              B.vs.slice(0, n).map((v) => (v === null ? null : toLane(v, B.t))),
            );
            const out = decimalKernel(op, a, b, type, n, ctx(false));
            let anyError = false;
            for (let i = 0; i < n; i++) {
              const x = A.vs[i]!;
              const y = B.vs[i]!;
              const got = out.validity !== null && out.validity[i] === 0 ? null : BigInt(out.values[i] as number | bigint);
              if (x === null || y === null) {
                assert.equal(got, null);
                continue;
              }
              let want: bigint | "zero" | null = reference(op, x, A.t.scale, y, B.t.scale, type.scale);
              // Multiplication first rounds the exact product to 38 significant digits; the
              // reference agrees whenever the exact product has at most 38.
              if (op === "*" && (x * y < 0n ? -(x * y) : x * y).toString().length > 38) continue;
              if (want === "zero") want = null;
              else if (want >= p10(type.precision) || want <= -p10(type.precision)) want = null;
              if (want === null) anyError = true;
              assert.equal(got, want, `${x}e-${A.t.scale} ${op} ${y}e-${B.t.scale} as ${type.precision},${type.scale}`);
            }
            // ANSI mode: the same inputs throw exactly when some row overflowed or divided by 0.
            if (op !== "*") {
              let threw = false;
              try {
                decimalKernel(op, a, b, type, n, ctx(true));
              } catch {
                threw = true;
              }
              assert.equal(threw, anyError);
            }
          }),
          { numRuns: 200 },
        );
      });
    }
  }
});
