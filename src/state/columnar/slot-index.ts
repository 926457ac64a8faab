/**
 * The columnar state table's index (table.ts): open addressing with linear probing over an
 * Int32Array of entry ids, -1 for an empty slot. Capacity is a power of two (`mask` =
 * capacity - 1) and the table keeps the load at or below 0.75. Every entry keeps its key's hash
 * (`eh`, owned by the table), so growing the index rehashes nothing and a probe past other keys
 * compares hashes before keys. Deletion shifts the following entries back: no tombstones.
 *
 * Free functions over the table's arrays: the table owns `slots`, `mask` and `eh`, and its
 * lookup loops read them directly.
 */
import { ScratchInt32 } from "../../columnar/scratch.js";
import type { LaneValues } from "./key-codes.js";

/** An index of `cap` slots holding the non-empty slots of `old` (placed by their stored hashes). */
export function regrownSlots(old: Int32Array, cap: number, eh: Int32Array): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(cap).fill(-1);
  const mask = cap - 1;
  for (let o = 0; o < old.length; o++) {
    const e = old[o]!;
    if (e !== -1) slotInsert(slots, mask, eh, e);
  }
  return slots;
}

/** Put entry e in the first empty slot from its home slot on. */
export function slotInsert(slots: Int32Array, mask: number, eh: Int32Array, e: number): void {
  let s = eh[e]! & mask;
  while (slots[s] !== -1) s = (s + 1) & mask;
  slots[s] = e;
}

/** Take entry e out of the index (backward-shift deletion: no tombstones). */
export function slotRemove(slots: Int32Array, mask: number, eh: Int32Array, e: number): void {
  let i = eh[e]! & mask;
  while (slots[i] !== e) {
    if (slots[i] === -1) throw new Error(`columnar state: entry ${e} is not in the index`);
    i = (i + 1) & mask;
  }
  let j = i;
  for (;;) {
    j = (j + 1) & mask;
    const f = slots[j]!;
    if (f === -1) break;
    const k = eh[f]! & mask;
    // Move f back into the hole at i unless its home slot k lies cyclically in (i, j].
    if (i <= j ? k <= i || k > j : k <= i && k > j) {
      slots[i] = f;
      i = j;
    }
  }
  slots[i] = -1;
}

/**
 * First passes over a batch whose keys are one or two lanes matched by value (`simpleLanes`,
 * key-codes.ts; `lanes` the batch's, `stored` the table's columns of the same lanes): for
 * probe distance 0, 1, 2, 3, whether the slot there holds the row's key, for every row not
 * settled yet. Rows are independent within a pass, so the CPU overlaps the cache misses of many
 * rows (one row at a time, each probe waits for the last). Rows still unsettled (an empty slot:
 * the key is absent; a long probe; a NaN, which `===` never matches) get -1 and take the
 * table's probing loop.
 */
export function probeHome(
  slots: Int32Array,
  mask: number,
  eh: Int32Array,
  stored: readonly LaneValues[],
  lanes: readonly LaneValues[],
  hashes: Int32Array,
  n: number,
  out: Int32Array,
): void {
  const c0 = lanes[0]!;
  const k0 = stored[0]!;
  const two = lanes.length === 2;
  const c1 = two ? lanes[1]! : c0;
  const k1 = two ? stored[1]! : k0;
  homeSlots(slots, mask, hashes, n, out);
  const pending = pendingScratch.get(n);
  let np = checkHome(k0, k1, c0, c1, n, out, pending);
  for (let d = 1; d <= 3 && np > 0; d++) np = probeAt(d, slots, mask, eh, k0, k1, c0, c1, hashes, pending, np, out);
}

/** Rows probeHome has not settled yet (read within one call only: columnar/scratch.ts). */
const pendingScratch = new ScratchInt32();

// probeHome's passes, one loop per function: a pass optimized on the stack (OSR) before the
// next pass had run deopted on reaching it, call after call (docs/architecture.md, "Hot path rules").
function homeSlots(slots: Int32Array, mask: number, hashes: Int32Array, n: number, out: Int32Array): void {
  for (let i = 0; i < n; i++) out[i] = slots[hashes[i]! & mask]!;
}

/** Unsettles (-1) the rows whose home entry holds another key, listing them in `pending`; returns how many. */
function checkHome(
  k0: LaneValues,
  k1: LaneValues,
  c0: LaneValues,
  c1: LaneValues,
  n: number,
  out: Int32Array,
  pending: Int32Array,
): number {
  let np = 0;
  for (let i = 0; i < n; i++) {
    const e = out[i]!;
    if (e === -1) continue;
    if (k0[e] !== c0[i] || k1[e] !== c1[i]) {
      out[i] = -1;
      pending[np++] = i;
    }
  }
  return np;
}

/** Probe distance d for the np pending rows: settles the matches, keeps the rest pending; returns how many. */
function probeAt(
  d: number,
  slots: Int32Array,
  mask: number,
  eh: Int32Array,
  k0: LaneValues,
  k1: LaneValues,
  c0: LaneValues,
  c1: LaneValues,
  hashes: Int32Array,
  p: Int32Array,
  np: number,
  out: Int32Array,
): number {
  let next = 0;
  for (let j = 0; j < np; j++) {
    const i = p[j]!;
    const h = hashes[i]!;
    const e = slots[(h + d) & mask]!;
    if (e === -1) continue; // absent: the probing loop inserts it
    if (eh[e] === h && k0[e] === c0[i] && k1[e] === c1[i]) out[i] = e;
    else p[next++] = i;
  }
  return next;
}
