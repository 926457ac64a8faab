/**
 * sum(BIGINT) with Spark's LONG semantics: exact over the whole 64-bit range. Groups add in
 * doubles while the running sum is a safe integer; a group whose sum leaves ±2^53 − 1 continues
 * in BigInt. A sum outside the long range is ARITHMETIC_OVERFLOW in ANSI mode and wraps as a
 * Java long otherwise (Spark's Add inside Sum).
 */
import { type Int64Lane, isWide, LONG_MAX, LONG_MIN, MAX_SAFE, narrow } from "../columnar/int64.js";
import { makeVector, type Vector } from "../columnar/vector.js";
import { type DataType, LongType } from "../types/datatypes.js";
import { longOverflow } from "./long-ops.js";
import type { Accumulator } from "./registry.js";

/** ANSI mode as the aggregation last saw it (AggregationSpec updates it from the EvalContext). */
export interface AggregateMode {
  ansi: boolean;
}

function grow<T extends Float64Array | Uint8Array | BigInt64Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(n, a.length * 2));
  b.set(a as never);
  return b;
}

export class LongSumAcc implements Accumulator {
  sums: Float64Array = new Float64Array(16);
  seen: Uint8Array = new Uint8Array(16);
  counts: Float64Array = new Float64Array(16);
  /** 1 where the group's sum lives in `big` (it left the safe range once). */
  wide: Uint8Array = new Uint8Array(16);
  big: BigInt64Array | null = null;

  constructor(
    private readonly resultType: DataType,
    private readonly mode: AggregateMode,
  ) {}

  resize(n: number): void {
    this.sums = grow(this.sums, n);
    this.seen = grow(this.seen, n);
    this.counts = grow(this.counts, n);
    this.wide = grow(this.wide, n);
    if (this.big) this.big = grow(this.big, n);
  }

  private addExact(gid: number, x: bigint): void {
    if (this.big === null || this.big.length < this.sums.length) this.big = grow(this.big ?? new BigInt64Array(16), this.sums.length);
    let r = (this.wide[gid] === 1 ? this.big[gid]! : BigInt(this.sums[gid]!)) + x;
    if (r > LONG_MAX || r < LONG_MIN) {
      if (this.mode.ansi) throw longOverflow("add");
      r = BigInt.asIntN(64, r);
    }
    this.big[gid] = r;
    this.wide[gid] = 1;
  }

  private add(g: Int32Array, n: number, v: Vector, counts: Float64Array | null): void {
    const valid = v.validity;
    const { sums, seen, counts: cnt } = this;
    const lane = v.values as Int64Lane;
    let i = 0;
    if (!isWide(lane) && this.big === null) {
      // The common case, as the double sum it always was: every group safe so far.
      for (; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        const gid = g[i]!;
        seen[gid] = 1;
        cnt[gid]! += counts === null ? 1 : counts[i]!;
        const s = sums[gid]! + lane[i]!;
        if (s <= MAX_SAFE && s >= -MAX_SAFE) sums[gid] = s;
        else {
          this.addExact(gid, BigInt(lane[i]!)); // this group leaves the safe range: exact from here on
          i++;
          break;
        }
      }
      if (i >= n) return;
    }
    const wide = this.wide;
    for (; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const gid = g[i]!;
      seen[gid] = 1;
      cnt[gid]! += counts === null ? 1 : counts[i]!;
      if (isWide(lane)) {
        this.addExact(gid, lane[i]!);
        continue;
      }
      const x = lane[i]!;
      if (wide[gid] === 1) {
        this.addExact(gid, BigInt(x));
        continue;
      }
      const s = sums[gid]! + x;
      if (s <= MAX_SAFE && s >= -MAX_SAFE) sums[gid] = s;
      else this.addExact(gid, BigInt(x));
    }
  }

  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    this.add(g, n, input[0]!, null);
  }

  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const [s, c] = buffers as [Vector, Vector];
    this.add(g, n, s, c.values as Float64Array);
  }

  private sumVector(n: number): Vector {
    const validity = this.seen.slice(0, n);
    if (this.big === null) return makeVector(this.resultType, this.sums.slice(0, n), validity, n);
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.wide[i] === 1 ? this.big[i]! : BigInt(this.sums[i]!);
    return makeVector(this.resultType, narrow(out, n), validity, n);
  }

  buffers(n: number): Vector[] {
    return [this.sumVector(n), makeVector(LongType, this.counts.slice(0, n), null, n)];
  }

  evaluate(n: number): Vector {
    return this.sumVector(n);
  }
}
