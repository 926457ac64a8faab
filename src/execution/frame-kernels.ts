/**
 * Typed-array kernels for the common aggregates over window frames, used before the general
 * segment tree (./frame-aggregate.ts) when the input is a plain numeric column:
 *
 * - `count`: prefix counts, O(n).
 * - `sum` / `avg` of integers: prefix sums, O(n) — exact while every prefix stays below 2^53
 *   (otherwise the caller falls back to the tree).
 * - `sum` / `avg` of DOUBLEs: a left fold over each frame in row order, the order Spark's frames
 *   add in (a growing frame continues its previous fold; a frame that moved is folded again,
 *   as Spark's sliding frame does), so results are bit-identical to Spark's.
 * - `min` / `max`: a monotonic deque over frames whose bounds only move forward within a
 *   partition (every ROWS and RANGE frame does), O(n); NaN is the largest value.
 *
 * Each returns null when it does not apply.
 */
import { makeVector, type Vector } from "../columnar/vector.js";
import { DoubleType, LongType } from "../types/datatypes.js";
import type { Frames } from "./frame-aggregate.js";

type Numbers = Float64Array | Int32Array;

function numeric(v: Vector): Numbers | null {
  return v.values instanceof Float64Array || v.values instanceof Int32Array ? v.values : null;
}

/** Row i is non-null: 1, else 0, as prefix counts over [0, i). */
function validPrefix(v: Vector, n: number): Float64Array {
  const p = new Float64Array(n + 1);
  const valid = v.validity;
  for (let i = 0; i < n; i++) p[i + 1] = p[i]! + (valid === null || valid[i] === 1 ? 1 : 0);
  return p;
}

export function countFrames(inputs: readonly Vector[], n: number, f: Frames): Vector | null {
  if (inputs.length !== 1) return null;
  const p = validPrefix(inputs[0]!, n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = f.hi[i]! >= f.lo[i]! ? p[f.hi[i]! + 1]! - p[f.lo[i]!]! : 0;
  return makeVector(LongType, out, null, n);
}

/** sum (avg = false, result type `resultType`) or avg (DOUBLE) of one numeric column over each frame. */
export function sumFrames(x: Vector, n: number, f: Frames, avg: boolean): Vector | null {
  const vals = numeric(x);
  if (vals === null) return null;
  const valid = x.validity;
  const counts = validPrefix(x, n);
  const out = new Float64Array(n);
  const has = new Uint8Array(n);
  if (x.type.kind === "double") {
    // Left folds in row order; a frame that only grew at its end continues the previous fold.
    let acc = 0;
    let prevLo = -1;
    let prevHi = -2;
    for (let i = 0; i < n; i++) {
      const lo = f.lo[i]!;
      const hi = f.hi[i]!;
      if (hi < lo) {
        prevLo = -1;
        continue;
      }
      let from = lo;
      if (lo === prevLo && hi >= prevHi) from = prevHi + 1;
      else acc = 0;
      for (let j = from; j <= hi; j++) if (valid === null || valid[j] === 1) acc += vals[j]!;
      prevLo = lo;
      prevHi = hi;
      const c = counts[hi + 1]! - counts[lo]!;
      if (c > 0) {
        has[i] = 1;
        out[i] = avg ? acc / c : acc;
      }
    }
    return makeVector(DoubleType, out, has, n);
  }
  if (x.type.kind !== "int" && x.type.kind !== "bigint") return null;
  const p = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    p[i + 1] = p[i]! + (valid === null || valid[i] === 1 ? vals[i]! : 0);
    if (Math.abs(p[i + 1]!) >= 2 ** 53) return null;
  }
  for (let i = 0; i < n; i++) {
    const lo = f.lo[i]!;
    const hi = f.hi[i]!;
    if (hi < lo) continue;
    const c = counts[hi + 1]! - counts[lo]!;
    if (c === 0) continue;
    has[i] = 1;
    const s = p[hi + 1]! - p[lo]!;
    out[i] = avg ? s / c : s;
  }
  return makeVector(avg ? DoubleType : x.type, out, has, n);
}

/** min (dir -1) / max (dir 1) of a numeric column over frames whose bounds never move back within a partition. */
export function extremumFrames(x: Vector, n: number, f: Frames, partStart: Int32Array, dir: 1 | -1): Vector | null {
  const vals = numeric(x);
  if (vals === null) return null;
  const valid = x.validity;
  // a better than b in the extremum's sense (NaN is the largest value, as in Spark's ordering).
  const better = (a: number, b: number): boolean => {
    const c = a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
    return c * dir > 0;
  };
  const out = vals instanceof Int32Array ? new Int32Array(n) : new Float64Array(n);
  const has = new Uint8Array(n);
  const deque = new Int32Array(n);
  let head = 0;
  let tail = 0;
  let next = 0; // first row not yet pushed
  let part = -1;
  for (let i = 0; i < n; i++) {
    const lo = f.lo[i]!;
    const hi = f.hi[i]!;
    if (partStart[i] !== part || lo < (i > 0 ? f.lo[i - 1]! : 0) || next > hi + 1) {
      // A new partition, or bounds that moved back: start over.
      part = partStart[i]!;
      head = tail = 0;
      next = lo;
    }
    if (hi < lo) continue;
    if (next < lo) next = lo;
    for (; next <= hi; next++) {
      if (valid !== null && valid[next] === 0) continue;
      const v = vals[next]!;
      while (tail > head && !better(vals[deque[tail - 1]!]!, v)) tail--;
      deque[tail++] = next;
    }
    while (tail > head && deque[head]! < lo) head++;
    if (tail > head) {
      has[i] = 1;
      out[i] = vals[deque[head]!]!;
    }
  }
  return makeVector(x.type, out, has, n);
}
