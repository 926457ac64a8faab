/**
 * sum / avg over DECIMAL (Spark's Sum and Average on DecimalType): sum is DECIMAL(p + 10, s),
 * avg DECIMAL(p + 4, s + 4) computed as sum / count with Spark's decimal division, both capped
 * at 38 digits. The running sums are exact and unbounded; the result is checked against its
 * precision at the end (an error in ANSI mode, NULL otherwise), as Spark's CheckOverflowInSum.
 *
 * Hot path (inputs with p <= 15): each group's running sum is a double while it stays within
 * ±2^52 — every addend is below 10^15 < 2^50, so the double sum is exact — and spills into a
 * bigint only when it would leave that range. No bigint per row.
 */
import { allocValues, makeVector, type Vector } from "../columnar/vector.js";
import type { DecimalType } from "../types/datatypes.js";
import { LongType } from "../types/datatypes.js";
import {
  bounded,
  DecimalOf,
  decimalResultType,
  divHalfUp,
  fitsPrecision,
  formatUnscaled,
  getDecimalPrecisionLoss,
  MAX_SCALE,
  pow10,
  rescale,
  toLane,
} from "../types/decimal.js";
import { decimalOverflow } from "./decimal-cast.js";
import { growF64, growU8 } from "./kernel-util.js";
import type { Accumulator } from "./registry.js";

/** sum's result (and buffer) type for a DECIMAL input. */
export function decimalSumType(t: DecimalType): DecimalType {
  return bounded(t.precision + 10, t.scale);
}
/** avg's result type for a DECIMAL input. */
export function decimalAvgType(t: DecimalType): DecimalType {
  return bounded(t.precision + 4, t.scale + 4);
}

/** |running double sum| above this spills into the bigint part (2^52: one more addend stays exact). */
const SPILL = 2 ** 52;

export class DecimalSumAcc implements Accumulator {
  /** Each group's sum = lo[g] + (hi[g] ?? 0n), unscaled at the input's scale. */
  private lo: Float64Array = new Float64Array(16);
  private hi: (bigint | undefined)[] = [];
  private seen: Uint8Array = new Uint8Array(16);
  private counts: Float64Array = new Float64Array(16);
  private readonly sumType: DecimalType;
  private readonly ansi: boolean;

  constructor(
    private readonly inType: DecimalType,
    private readonly average: boolean,
    mode: { readonly ansi: boolean } | undefined,
  ) {
    this.sumType = decimalSumType(inType);
    this.ansi = mode?.ansi ?? true;
  }

  resize(n: number): void {
    this.lo = growF64(this.lo, n);
    this.seen = growU8(this.seen, n);
    this.counts = growF64(this.counts, n);
  }

  /** Fold a column of unscaled values (either lane) into groups; `counts` adds 1 per row unless given. */
  private fold(g: Int32Array, n: number, v: Vector, addCounts: Float64Array | null): void {
    const { lo, hi, seen, counts } = this;
    const valid = v.validity;
    if (v.values instanceof Float64Array) {
      const x = v.values;
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        const gid = g[i]!;
        let s = lo[gid]! + x[i]!;
        if (s > SPILL || s < -SPILL) {
          hi[gid] = (hi[gid] ?? 0n) + BigInt(s);
          s = 0;
        }
        lo[gid] = s;
        seen[gid] = 1;
        counts[gid]! += addCounts === null ? 1 : addCounts[i]!;
      }
      return;
    }
    const x = v.values as unknown[];
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const gid = g[i]!;
      hi[gid] = (hi[gid] ?? 0n) + (x[i] as bigint);
      seen[gid] = 1;
      counts[gid]! += addCounts === null ? 1 : addCounts[i]!;
    }
  }

  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    this.fold(g, n, input[0]!, null);
  }

  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    this.fold(g, n, buffers[0]!, buffers[1]!.values as Float64Array);
  }

  private total(gid: number): bigint {
    return BigInt(this.lo[gid]!) + (this.hi[gid] ?? 0n);
  }

  buffers(n: number): Vector[] {
    const t = this.sumType;
    const out = allocValues(t, n);
    for (let i = 0; i < n; i++) if (this.seen[i] === 1) (out as unknown[] | Float64Array)[i] = toLane(this.total(i), t) as number;
    return [makeVector(t, out, this.seen.slice(0, n), n), makeVector(LongType, this.counts.slice(0, n), null, n)];
  }

  evaluate(n: number): Vector {
    const sumType = this.sumType;
    const resultType = this.average ? decimalAvgType(this.inType) : sumType;
    const out = allocValues(resultType, n);
    const validity = this.seen.slice(0, n);
    for (let i = 0; i < n; i++) {
      if (validity[i] === 0) continue;
      let u = this.total(i);
      if (!fitsPrecision(u, sumType.precision)) {
        if (this.ansi) throw decimalOverflow(formatUnscaled(u, sumType.scale), sumType);
        validity[i] = 0;
        continue;
      }
      if (this.average) u = averageOf(u, this.counts[i]!, sumType, resultType);
      (out as unknown[] | Float64Array)[i] = toLane(u, resultType) as number;
    }
    return makeVector(resultType, out, validity, n);
  }
}

/** Spark's Average: Divide(sum, CAST(count AS DECIMAL(20, 0))) under the division rules, then CAST to the result type. */
function averageOf(sum: bigint, count: number, sumType: DecimalType, resultType: DecimalType): bigint {
  const divType = decimalResultType("/", sumType, DecimalOf(20, 0), getDecimalPrecisionLoss());
  const q38 = divHalfUp(sum * pow10(MAX_SCALE - sumType.scale), BigInt(count));
  return rescale(rescale(q38, MAX_SCALE, divType.scale), divType.scale, resultType.scale);
}
