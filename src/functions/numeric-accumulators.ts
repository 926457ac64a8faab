/**
 * The accumulators with one Float64 slot per group: count (of rows, or of rows with no NULL
 * argument) and sum / avg in doubles (DOUBLE, FLOAT and avg(BIGINT), as Spark's Average). The
 * exact sums live apart: sum(BIGINT) in long-sum.ts, DECIMAL sum / avg in decimal-aggregates.ts.
 */
import { isWide } from "../columnar/int64.js";
import { makeVector, type Vector } from "../columnar/vector.js";
import { type DataType, DoubleType, LongType } from "../types/datatypes.js";
import { allValid, growF64, growU8 } from "./kernel-util.js";
import type { Accumulator } from "./registry.js";

export class CountAcc implements Accumulator {
  counts: Float64Array = new Float64Array(16);
  constructor(private readonly countStar: boolean) {}
  resize(n: number): void {
    this.counts = growF64(this.counts, n);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const c = this.counts;
    if (this.countStar || input.every((v) => v.validity === null)) {
      for (let i = 0; i < n; i++) c[g[i]!]!++;
    } else {
      for (let i = 0; i < n; i++) if (allValid(input, i)) c[g[i]!]!++;
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const b = buffers[0]!.values as Float64Array;
    const c = this.counts;
    for (let i = 0; i < n; i++) c[g[i]!]! += b[i]!;
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n)];
  }
  evaluate(n: number): Vector {
    return makeVector(LongType, this.counts.slice(0, n), null, n);
  }
}
export class SumAcc implements Accumulator {
  sums: Float64Array = new Float64Array(16);
  seen: Uint8Array = new Uint8Array(16);
  counts: Float64Array = new Float64Array(16);
  constructor(
    private readonly resultType: DataType,
    private readonly average: boolean,
  ) {}
  resize(n: number): void {
    this.sums = growF64(this.sums, n);
    this.seen = growU8(this.seen, n);
    this.counts = growF64(this.counts, n);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    // avg(BIGINT) sums in doubles, as Spark's Average does; a wide lane (columnar/int64.ts) converts.
    const x = isWide(v.values) ? Float64Array.from(v.values, Number) : (v.values as Float64Array);
    const { sums, seen, counts } = this;
    const valid = v.validity;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const gid = g[i]!;
      sums[gid]! += x[i]!;
      seen[gid] = 1;
      counts[gid]!++;
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const [s, c] = buffers as [Vector, Vector];
    const sv = s.values as Float64Array;
    const cv = c.values as Float64Array;
    for (let i = 0; i < n; i++) {
      if (s.validity !== null && s.validity[i] === 0) continue;
      const gid = g[i]!;
      this.sums[gid]! += sv[i]!;
      this.counts[gid]! += cv[i]!;
      this.seen[gid] = 1;
    }
  }
  buffers(n: number): Vector[] {
    const validity = this.seen.slice(0, n);
    return [
      makeVector(this.average ? DoubleType : this.resultType, this.sums.slice(0, n), validity, n),
      makeVector(LongType, this.counts.slice(0, n), null, n),
    ];
  }
  evaluate(n: number): Vector {
    const validity = this.seen.slice(0, n);
    if (!this.average) return makeVector(this.resultType, this.sums.slice(0, n), validity, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.sums[i]! / this.counts[i]!;
    return makeVector(DoubleType, out, validity, n);
  }
}
