/**
 * The values of window functions over rows already in window order (partition, then ORDER BY):
 * the ranking functions, lag/lead, first/last/nth_value by position, frame bounds (ROWS and
 * RANGE), and aggregates over frames (../frame-aggregate.ts). Every function is a pass or two
 * over typed arrays per window specification; nothing is recomputed per row and frame.
 */
import { concatVectors, makeVector, take, type Vector } from "../../columnar/vector.js";
import type { SortOrder, WindowFrame } from "../../plan/expressions.js";
import { DoubleType, IntegerType } from "../../types/datatypes.js";
import type { Frames } from "../frame-aggregate.js";

/** Row i's partition bounds [partStart, partEnd) and peer-group bounds [peerStart, peerEnd). */
export interface WindowLayout {
  readonly n: number;
  /** Partition number of each row, 0.. in row order. */
  readonly partition: Int32Array;
  readonly partStart: Int32Array;
  readonly partEnd: Int32Array;
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
}

/** Partitions and peer groups of sorted rows, from "same partition as the previous row" and "same order key as the previous row". */
export function windowLayout(n: number, samePartition: (i: number) => boolean, samePeer: (i: number) => boolean): WindowLayout {
  const partition = new Int32Array(n);
  const partStart = new Int32Array(n);
  const partEnd = new Int32Array(n);
  const peerStart = new Int32Array(n);
  const peerEnd = new Int32Array(n);
  let p = -1;
  let ps = 0;
  let qs = 0;
  for (let i = 0; i < n; i++) {
    const newPart = i === 0 || !samePartition(i);
    if (newPart) {
      p++;
      ps = i;
    }
    if (newPart || !samePeer(i)) qs = i;
    partition[i] = p;
    partStart[i] = ps;
    peerStart[i] = qs;
  }
  let pe = n;
  let qe = n;
  for (let i = n - 1; i >= 0; i--) {
    if (i === n - 1 || partStart[i + 1] !== partStart[i]) pe = i + 1;
    if (i === n - 1 || peerStart[i + 1] !== peerStart[i]) qe = i + 1;
    partEnd[i] = pe;
    peerEnd[i] = qe;
  }
  return { n, partition, partStart, partEnd, peerStart, peerEnd };
}

export function rankingValues(name: string, L: WindowLayout, buckets = 1): Vector {
  const { n, partStart, partEnd, peerStart, peerEnd } = L;
  if (name === "percent_rank" || name === "cume_dist") {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const size = partEnd[i]! - partStart[i]!;
      out[i] = name === "cume_dist" ? (peerEnd[i]! - partStart[i]!) / size : size === 1 ? 0 : (peerStart[i]! - partStart[i]!) / (size - 1);
    }
    return makeVector(DoubleType, out, null, n);
  }
  const out = new Int32Array(n);
  switch (name) {
    case "row_number":
      for (let i = 0; i < n; i++) out[i] = i - partStart[i]! + 1;
      break;
    case "rank":
      for (let i = 0; i < n; i++) out[i] = peerStart[i]! - partStart[i]! + 1;
      break;
    case "dense_rank": {
      let d = 0;
      for (let i = 0; i < n; i++) {
        if (i === partStart[i]) d = 1;
        else if (i === peerStart[i]) d++;
        out[i] = d;
      }
      break;
    }
    case "ntile":
      // Spark's NTile: the first (size % buckets) buckets hold one row more.
      for (let i = 0; i < n; i++) {
        const size = partEnd[i]! - partStart[i]!;
        const r = i - partStart[i]!;
        const per = Math.floor(size / buckets);
        const extra = size % buckets;
        const big = extra * (per + 1);
        out[i] = r < big ? Math.floor(r / (per + 1)) + 1 : extra + Math.floor((r - big) / per) + 1;
      }
      break;
    default:
      throw new Error(`unknown ranking function ${name}`);
  }
  return makeVector(IntegerType, out, null, n);
}

const isNull = (v: Vector, i: number) => v.validity !== null && v.validity[i] === 0;

/**
 * lag (offset < 0 here: rows back) / lead (offset > 0): the value `offset` rows away inside the
 * partition, or `dflt` (evaluated at the current row) when that row is outside it. With
 * ignoreNulls the rows counted are the non-null ones.
 */
export function offsetValues(x: Vector, dflt: Vector, offset: number, ignoreNulls: boolean, L: WindowLayout): Vector {
  const { n, partStart, partEnd } = L;
  const idx = new Int32Array(n);
  if (!ignoreNulls || offset === 0) {
    for (let i = 0; i < n; i++) {
      const j = i + offset;
      idx[i] = j >= partStart[i]! && j < partEnd[i]! ? j : n + i;
    }
  } else {
    const { pos, before } = nonNullIndex(x, n);
    for (let i = 0; i < n; i++) {
      const k = offset < 0 ? before[i]! + offset : before[i + 1]! + offset - 1;
      const j = k >= 0 && k < pos.length ? pos[k]! : -1;
      idx[i] = j >= partStart[i]! && j < partEnd[i]! ? j : n + i;
    }
  }
  return take(concatVectors(x.type, [x, dflt.type === x.type ? dflt : { ...dflt, type: x.type }]), idx);
}

/**
 * The value at the k-th row (1-based) of each frame — first (k = 1), nth_value — or the last
 * row (`fromEnd`), skipping NULL values when `ignoreNulls`. NULL for frames that are too short.
 */
export function positionalValues(x: Vector, frames: Frames, k: number, fromEnd: boolean, ignoreNulls: boolean, n: number): Vector {
  const { lo, hi } = frames;
  const idx = new Int32Array(n);
  if (!ignoreNulls) {
    for (let i = 0; i < n; i++) {
      const j = fromEnd ? hi[i]! - k + 1 : lo[i]! + k - 1;
      idx[i] = hi[i]! >= lo[i]! && j >= lo[i]! && j <= hi[i]! ? j : -1;
    }
    return take(x, idx);
  }
  const { pos, before } = nonNullIndex(x, n);
  for (let i = 0; i < n; i++) {
    idx[i] = -1;
    if (hi[i]! < lo[i]!) continue;
    const first = before[lo[i]!]!;
    const end = before[hi[i]! + 1]!; // non-null rows in the frame: pos[first .. end)
    const at = fromEnd ? end - k : first + k - 1;
    if (at >= first && at < end) idx[i] = pos[at]!;
  }
  return take(x, idx);
}

/**
 * Each row's frame as row indices [lo, hi]. ROWS bounds count rows; RANGE bounds are
 * distances on the single ORDER BY key (CURRENT ROW: the row's peers). A NULL key's value
 * bounds are its peers (the NULL rows), as Spark's bound ordering gives.
 */
export function frameBounds(frame: WindowFrame, L: WindowLayout, key: Vector | null, order: SortOrder | null): Frames {
  const { n, partStart, partEnd, peerStart, peerEnd } = L;
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const rows = frame.type === "rows";
  for (let i = 0; i < n; i++) {
    const ps = partStart[i]!;
    const pe = partEnd[i]!;
    const { lower, upper } = frame;
    if (lower === null) lo[i] = ps;
    else if (rows) lo[i] = Math.min(pe, Math.max(ps, i + lower));
    else if (lower === 0) lo[i] = peerStart[i]!;
    else lo[i] = rangeIndex(key!, order!, i, lower, ps, pe, L, true);
    if (upper === null) hi[i] = pe - 1;
    else if (rows) hi[i] = Math.max(ps - 1, Math.min(pe - 1, i + upper));
    else if (upper === 0) hi[i] = peerEnd[i]! - 1;
    else hi[i] = rangeIndex(key!, order!, i, upper, ps, pe, L, false);
  }
  return { lo, hi };
}

/** Lower: the first row whose key is at or past value+offset; upper: the last row at or before it. */
function rangeIndex(
  key: Vector,
  order: SortOrder,
  i: number,
  offset: number,
  ps: number,
  pe: number,
  L: WindowLayout,
  lower: boolean,
): number {
  if (isNull(key, i)) return lower ? L.peerStart[i]! : L.peerEnd[i]! - 1;
  const vals = key.values as Float64Array | Int32Array;
  const dir = order.ascending ? 1 : -1;
  const target = vals[i]! + dir * offset;
  const nullSide = order.nullsFirst ? -1 : 1;
  // Sign of (row j) - target in the window's order.
  const cmp = (j: number): number => {
    if (isNull(key, j)) return nullSide;
    const d = vals[j]! - target;
    return d === 0 ? 0 : d < 0 ? -dir : dir;
  };
  // First j in [ps, pe) with cmp(j) >= 0 (lower) or > 0 (upper; the answer is one before it).
  let a = ps;
  let b = pe;
  while (a < b) {
    const m = (a + b) >>> 1;
    const c = cmp(m);
    if (lower ? c >= 0 : c > 0) b = m;
    else a = m + 1;
  }
  return lower ? a : a - 1;
}

/** Positions of `x`'s non-null rows, and for each row i how many of them come before it (`before[n]`: all). */
function nonNullIndex(x: Vector, n: number): { pos: number[]; before: Int32Array } {
  const pos: number[] = [];
  const before = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    before[i] = pos.length;
    if (!isNull(x, i)) pos.push(i);
  }
  before[n] = pos.length;
  return { pos, before };
}
