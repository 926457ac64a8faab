/**
 * round / bround / floor / ceil / abs over DECIMAL (Spark's RoundBase, Floor, Ceil, Abs on
 * DecimalType): computed on the unscaled integers. round(d, k) is DECIMAL(p - s + 1 + min(s, k),
 * min(s, k)) for k >= 0 (one more integral digit for the carry, `9.9` → `10`), floor/ceil are
 * DECIMAL(p - s + 1, 0).
 */
import { allocValues, makeVector, type Vector } from "../columnar/vector.js";
import type { DecimalType } from "../types/datatypes.js";
import { bounded, divHalfUp, pow10, toLane, unscaledOf } from "../types/decimal.js";

export type DecimalRounding = "half_up" | "half_even" | "floor" | "ceil";

/** round/bround's result type for a DECIMAL argument and a literal scale `k`. */
export function decimalRoundType(t: DecimalType, k: number): DecimalType {
  const newScale = Math.max(0, Math.min(t.scale, k));
  return bounded(t.precision - t.scale + 1 + newScale, newScale);
}
/** floor/ceil's result type for a DECIMAL argument. */
export function decimalFloorCeilType(t: DecimalType): DecimalType {
  return bounded(t.precision - t.scale + 1, 0);
}

/** u / 10^k (k > 0) rounded by `mode` to an integer. */
function roundDiv(u: bigint, k: number, mode: DecimalRounding): bigint {
  const d = pow10(k);
  if (mode === "half_up") return divHalfUp(u, d);
  const q = u / d;
  const r = u % d;
  if (r === 0n) return q;
  if (mode === "floor") return u < 0n ? q - 1n : q;
  if (mode === "ceil") return u > 0n ? q + 1n : q;
  // half_even
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > d || (twice === d && q % 2n !== 0n)) return u < 0n ? q - 1n : q + 1n;
  return q;
}

/**
 * Round a decimal vector to `k` fraction digits (k < 0 rounds to tens, hundreds, ...) into `to`
 * (whose scale is max(0, min(s, k))).
 */
export function roundDecimal(a: Vector, k: number, mode: DecimalRounding, to: DecimalType): Vector {
  const from = a.type as DecimalType;
  const out = allocValues(to, a.length);
  const src = a.values as ArrayLike<number | bigint>;
  const drop = from.scale - k; // digits to remove
  for (let i = 0; i < a.length; i++) {
    if (a.validity !== null && a.validity[i] === 0) continue;
    let u = unscaledOf(src[i]);
    if (drop > 0) {
      u = roundDiv(u, drop, mode);
      // k < 0: the rounded value counts tens/hundreds; back to scale 0.
      if (k < 0) u *= pow10(-k);
    }
    // Scale now max(k, 0) when it dropped digits, else unchanged (= to.scale).
    (out as unknown[] | Float64Array)[i] = toLane(u, to) as number;
  }
  return makeVector(to, out, a.validity, a.length);
}

/** |x| of a decimal vector (same type). */
export function absDecimal(a: Vector): Vector {
  const t = a.type as DecimalType;
  const out = allocValues(t, a.length);
  const src = a.values as ArrayLike<number | bigint>;
  for (let i = 0; i < a.length; i++) {
    if (a.validity !== null && a.validity[i] === 0) continue;
    const x = src[i]!;
    (out as unknown[] | Float64Array)[i] = (typeof x === "bigint" ? (x < 0n ? -x : x) : Math.abs(x)) as number;
  }
  return makeVector(t, out, a.validity, a.length);
}
