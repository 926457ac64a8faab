/**
 * An aggregate function over a window frame per row, for any frame, in O(n log n) merges:
 * a segment tree of the aggregate's own partial buffers (the `update` / `merge` / `buffers`
 * every accumulator already has for partial aggregation and streaming state).
 *
 * Rows are in window order; row i's frame is rows [lo[i], hi[i]] (empty when hi < lo). Leaves
 * are the rows, node k merges nodes 2k and 2k+1 (left first, so order-sensitive aggregates —
 * first, last, collect_list — see rows in order). Each frame is the merge of at most
 * 2·log2(n) nodes, taken left to right; all rows' t-th nodes are merged in one vectorized call.
 * Frames that are whole partitions take one grouped pass instead.
 */
import { take, type Vector } from "../columnar/vector.js";
import type { Accumulator } from "../functions/index.js";

export interface Frames {
  readonly lo: Int32Array;
  readonly hi: Int32Array;
}

/**
 * The aggregate of each row's frame. `partition[i]` numbers the partitions 0.. in row order;
 * `partStart`/`partEnd` are each row's partition bounds (for the whole-partition pass).
 */
export function frameAggregate(
  newAcc: () => Accumulator,
  inputs: readonly Vector[],
  n: number,
  frames: Frames,
  partition: Int32Array,
  partStart: Int32Array,
  partEnd: Int32Array,
): Vector {
  const { lo, hi } = frames;
  let whole = true;
  for (let i = 0; i < n && whole; i++) whole = lo[i] === partStart[i] && hi[i] === partEnd[i]! - 1;
  if (whole) return wholePartitions(newAcc, inputs, n, partition);

  const tree = newAcc();
  tree.resize(2 * n);
  const leaves = new Int32Array(n);
  for (let i = 0; i < n; i++) leaves[i] = n + i;
  tree.update(leaves, n, inputs);
  // Nodes [a, b) whose children (>= 2a >= b) are all built: one snapshot and two merges per level.
  for (let b = n; b > 1; ) {
    const a = Math.ceil(b / 2);
    const count = b - a;
    const ids = new Int32Array(count);
    const left = new Int32Array(count);
    const right = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      ids[k] = a + k;
      left[k] = 2 * (a + k);
      right[k] = 2 * (a + k) + 1;
    }
    const snap = tree.buffers(2 * n);
    tree.merge(
      ids,
      count,
      snap.map((v) => take(v, left)),
    );
    tree.merge(
      ids,
      count,
      snap.map((v) => take(v, right)),
    );
    b = a;
  }
  const nodes = tree.buffers(2 * n);

  // Each row's nodes, left to right, in a flat list (at most `width` per row).
  const width = 2 * Math.ceil(Math.log2(n + 1)) + 2;
  const list = new Int32Array(n * width);
  const len = new Int32Array(n);
  const rights = new Int32Array(width);
  let rounds = 0;
  for (let i = 0; i < n; i++) {
    if (hi[i]! < lo[i]!) continue;
    let l = lo[i]! + n;
    let r = hi[i]! + 1 + n;
    let c = 0;
    let nr = 0;
    const base = i * width;
    while (l < r) {
      if (l & 1) list[base + c++] = l++;
      if (r & 1) rights[nr++] = --r;
      l >>= 1;
      r >>= 1;
    }
    while (nr > 0) list[base + c++] = rights[--nr]!;
    len[i] = c;
    if (c > rounds) rounds = c;
  }
  const out = newAcc();
  out.resize(n);
  const rows = new Int32Array(n);
  const picks = new Int32Array(n);
  for (let t = 0; t < rounds; t++) {
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (len[i]! > t) {
        rows[m] = i;
        picks[m++] = list[i * width + t]!;
      }
    }
    out.merge(
      rows,
      m,
      nodes.map((v) => take(v, picks, m)),
    );
  }
  return out.evaluate(n);
}

function wholePartitions(newAcc: () => Accumulator, inputs: readonly Vector[], n: number, partition: Int32Array): Vector {
  const acc = newAcc();
  const parts = n === 0 ? 0 : partition[n - 1]! + 1;
  acc.resize(parts);
  acc.update(partition, n, inputs);
  return take(acc.evaluate(parts), partition);
}
