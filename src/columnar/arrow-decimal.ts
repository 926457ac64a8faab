/**
 * Arrow Decimal128 (and Decimal256 / 32 / 64 on read) ↔ our DECIMAL vectors: little-endian
 * two's-complement unscaled integers, 32-bit words per value = bitWidth / 32.
 */
import * as arrow from "apache-arrow";
import type { DecimalType } from "../types/datatypes.js";
import { toLane, usesNumberLane } from "../types/decimal.js";
import { allocValues, makeVector, type Vector } from "./vector.js";

const MASK32 = 0xffffffffn;

/** Our DECIMAL vector → the data buffer of an Arrow Decimal128 (4 words per value). */
export function decimalWords(v: Vector, n: number): Uint32Array {
  const words = new Uint32Array(4 * n);
  const vals = v.values as ArrayLike<number | bigint | null>;
  const valid = v.validity;
  const numberLane = usesNumberLane(v.type as DecimalType);
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const x = vals[i];
    if (numberLane) {
      // |x| < 10^15 < 2^53: low word and a sign-extended high part without a bigint.
      const num = x as number;
      const hi = Math.floor(num / 4294967296);
      words[4 * i] = num - hi * 4294967296;
      words[4 * i + 1] = hi >>> 0;
      const ext = num < 0 ? 0xffffffff : 0;
      words[4 * i + 2] = ext;
      words[4 * i + 3] = ext;
      continue;
    }
    let u = BigInt.asUintN(128, x as bigint);
    for (let k = 0; k < 4; k++) {
      words[4 * i + k] = Number(u & MASK32);
      u >>= 32n;
    }
  }
  return words;
}

export function toArrowDecimal(t: DecimalType): arrow.Decimal {
  return new arrow.Decimal(t.scale, t.precision, 128);
}

/** An Arrow Decimal data chunk → our vector of `type` (same precision and scale). */
export function arrowDecimalToVector(d: arrow.Data, type: DecimalType, validity: Uint8Array | null): Vector {
  const n = d.length;
  const bitWidth = (d.type as arrow.Decimal).bitWidth ?? 128;
  const stride = bitWidth / 32;
  const words = d.values as Uint32Array;
  const base = d.offset * stride;
  const out = allocValues(type, n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    let u = 0n;
    for (let k = stride - 1; k >= 0; k--) u = (u << 32n) | BigInt(words[base + i * stride + k]!);
    const signed = BigInt.asIntN(bitWidth, u);
    (out as unknown[] | Float64Array)[i] = toLane(signed, type) as number;
  }
  return makeVector(type, out, validity, n);
}
