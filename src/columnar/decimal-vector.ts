/**
 * Exact widenings into and out of DECIMAL vectors, for readers that accept a wider schema type
 * than the file's (Parquet, table appends): integral or narrower decimal → DECIMAL(p, s) (never
 * rounds: the caller checked the widening), DECIMAL → DOUBLE (nearest double).
 */
import type { DataType, DecimalType } from "../types/datatypes.js";
import { rescale, toDouble, toLane, unscaledOf } from "../types/decimal.js";
import { allocValues, makeVector, type Vector } from "./vector.js";

export function widenToDecimal(v: Vector, to: DecimalType): Vector {
  const fromScale = v.type.kind === "decimal" ? v.type.scale : 0;
  const out = allocValues(to, v.length);
  const src = v.values as ArrayLike<number | bigint>;
  for (let i = 0; i < v.length; i++) {
    if (v.validity !== null && v.validity[i] === 0) continue;
    (out as unknown[] | Float64Array)[i] = toLane(rescale(unscaledOf(src[i]), fromScale, to.scale), to) as number;
  }
  return makeVector(to, out, v.validity, v.length);
}

export function decimalToDouble(v: Vector, to: DataType): Vector {
  const scale = (v.type as DecimalType).scale;
  const out = new Float64Array(v.length);
  const src = v.values as ArrayLike<number | bigint>;
  for (let i = 0; i < v.length; i++) if (v.validity === null || v.validity[i] === 1) out[i] = toDouble(src[i] as number | bigint, scale);
  return makeVector(to, out, v.validity, v.length);
}
