/**
 * Assigns a dense group id to every distinct key tuple: the core of hash aggregation, hash
 * joins, distinct and deduplication. Keys are flattened into "leaf" columns (struct fields
 * become separate leaves, nested values a canonical string; group-leaves.ts), hashed a column
 * at a time (group-hash.ts), and looked up in an open-addressing table of typed arrays against
 * each group's stored key (group-key-store.ts) — no JS object per row.
 */

import { MAX_SAFE } from "../columnar/int64.js";
import { ScratchInt32 } from "../columnar/scratch.js";
import { concatVectors, take, type Vector } from "../columnar/vector.js";
import type { DataType } from "../types/datatypes.js";
import { hashRows } from "./group-hash.js";
import { LeafStore } from "./group-key-store.js";
import { type Leaf, leavesOf, type NumArray } from "./group-leaves.js";
import { sameAsPrevious } from "./group-runs.js";

/** One or two numeric leaves, no NULLs, int64 values all safe: `probeNumeric` applies. */
function plainNumeric(leaves: readonly Leaf[], n: number): boolean {
  if (leaves.length === 0 || leaves.length > 2) return false;
  for (const leaf of leaves) {
    if (!leaf.numeric || leaf.validity !== null || leaf.wide !== undefined) return false;
    if (leaf.int64) {
      const v = leaf.values as Float64Array;
      for (let i = 0; i < n; i++) if (!(v[i]! <= MAX_SAFE && v[i]! >= -MAX_SAFE)) return false;
    }
  }
  return true;
}

/** Row hashes of one `assign` or `probe` call (synchronous, never kept: columnar/scratch.ts). */
const hashScratch = new ScratchInt32();

export class GroupIndex {
  private slots: Int32Array = new Int32Array(1024).fill(-1);
  private slotHashes: Int32Array = new Int32Array(1024);
  private mask = 1023;
  private stores: LeafStore[] | null = null;
  private keyChunks: Vector[][] = [];
  numGroups = 0;

  constructor(readonly keyTypes: readonly DataType[]) {}

  /** Group id for each of the n rows of `keys`; new keys get the next ids. */
  assign(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    if (keys.length === 0) {
      // Global aggregation: one group.
      if (this.numGroups === 0 && n > 0) {
        this.numGroups = 1;
        this.keyChunks.push([]);
      }
      out.fill(0, 0, n);
      return out;
    }
    const leaves: Leaf[] = [];
    for (const k of keys) leavesOf(k, n, leaves);
    if (!this.stores) this.stores = leaves.map((l) => new LeafStore(l.numeric));
    // a row repeating the key of the row before it joins that row's group unhashed
    const same = sameAsPrevious(leaves, n);
    const hashes = hashScratch.get(n);
    if (same === null) hashRows(leaves, n, hashes);
    else hashRows(leaves, n, hashes, same);
    const newRows: number[] = [];
    if (plainNumeric(leaves, n)) this.probeNumeric(leaves, n, hashes, same, out, newRows);
    else this.probeLeaves(leaves, n, hashes, same, out, newRows);
    if (newRows.length > 0) this.keyChunks.push(keys.map((k) => take(k, newRows)));
    return out;
  }

  /** `assign`'s probe loop for any leaves: each candidate group compared leaf by leaf (`rowEquals`). */
  private probeLeaves(
    leaves: readonly Leaf[],
    n: number,
    hashes: Int32Array,
    same: Uint8Array | null,
    out: Int32Array,
    newRows: number[],
  ): void {
    const stores = this.stores!;
    for (let i = 0; i < n; i++) {
      if (same !== null && same[i] === 1) {
        out[i] = out[i - 1]!;
        continue;
      }
      const h = hashes[i]!;
      let s = h & this.mask;
      for (;;) {
        const g = this.slots[s]!;
        if (g === -1) {
          const id = this.numGroups++;
          this.slots[s] = id;
          this.slotHashes[s] = h;
          for (let l = 0; l < leaves.length; l++) stores[l]!.push(id, leaves[l]!, i);
          newRows.push(i);
          out[i] = id;
          if (this.numGroups * 2 > this.mask) this.grow();
          break;
        }
        if (this.slotHashes[s] === h && this.rowEquals(g, leaves, i)) {
          out[i] = g;
          break;
        }
        s = (s + 1) & this.mask;
      }
    }
  }

  /**
   * `assign`'s probe loop for one or two numeric leaves without NULLs or unsafe int64 values
   * (`plainNumeric`; a window start and a BIGINT id, say): the stored keys compared inline, with
   * `LeafStore.equals`' rule (NaN equals NaN), instead of a call per leaf per candidate.
   */
  private probeNumeric(
    leaves: readonly Leaf[],
    n: number,
    hashes: Int32Array,
    same: Uint8Array | null,
    out: Int32Array,
    newRows: number[],
  ): void {
    const stores = this.stores!;
    const v0 = leaves[0]!.values as NumArray;
    const two = leaves.length === 2;
    const v1 = two ? (leaves[1]!.values as NumArray) : v0;
    const s0 = stores[0]!;
    const s1 = two ? stores[1]! : s0;
    let k0 = s0.num;
    let k1 = s1.num;
    let slots = this.slots;
    let slotHashes = this.slotHashes;
    let mask = this.mask;
    for (let i = 0; i < n; i++) {
      if (same !== null && same[i] === 1) {
        out[i] = out[i - 1]!;
        continue;
      }
      const h = hashes[i]!;
      const a = v0[i]!;
      const b = v1[i]!;
      let s = h & mask;
      for (;;) {
        const g = slots[s]!;
        if (g === -1) {
          const id = this.numGroups++;
          slots[s] = id;
          slotHashes[s] = h;
          for (let l = 0; l < leaves.length; l++) stores[l]!.push(id, leaves[l]!, i);
          k0 = s0.num;
          k1 = s1.num;
          newRows.push(i);
          out[i] = id;
          if (this.numGroups * 2 > mask) {
            this.grow();
            slots = this.slots;
            slotHashes = this.slotHashes;
            mask = this.mask;
          }
          break;
        }
        if (slotHashes[s] === h) {
          const x = k0[g]!;
          const y = k1[g]!;
          if ((x === a || (Number.isNaN(x) && Number.isNaN(a))) && (y === b || (Number.isNaN(y) && Number.isNaN(b)))) {
            out[i] = g;
            break;
          }
        }
        s = (s + 1) & mask;
      }
    }
  }

  /** Group id of each row without inserting; -1 when the key is unknown. */
  probe(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    if (keys.length === 0) return out.fill(this.numGroups > 0 ? 0 : -1, 0, n);
    const leaves: Leaf[] = [];
    for (const k of keys) leavesOf(k, n, leaves);
    const hashes = hashScratch.get(n);
    hashRows(leaves, n, hashes);
    for (let i = 0; i < n; i++) {
      const h = hashes[i]!;
      let s = h & this.mask;
      out[i] = -1;
      for (;;) {
        const g = this.slots[s]!;
        if (g === -1) break;
        if (this.slotHashes[s] === h && this.rowEquals(g, leaves, i)) {
          out[i] = g;
          break;
        }
        s = (s + 1) & this.mask;
      }
    }
    return out;
  }

  private rowEquals(g: number, leaves: readonly Leaf[], i: number): boolean {
    const stores = this.stores!;
    for (let l = 0; l < leaves.length; l++) if (!stores[l]!.equals(g, leaves[l]!, i)) return false;
    return true;
  }

  private grow(): void {
    const cap = (this.mask + 1) * 2;
    const slots = new Int32Array(cap).fill(-1);
    const hashes = new Int32Array(cap);
    const mask = cap - 1;
    for (let s = 0; s <= this.mask; s++) {
      const g = this.slots[s]!;
      if (g === -1) continue;
      const h = this.slotHashes[s]!;
      let t = h & mask;
      while (slots[t] !== -1) t = (t + 1) & mask;
      slots[t] = g;
      hashes[t] = h;
    }
    this.slots = slots;
    this.slotHashes = hashes;
    this.mask = mask;
  }

  /** The distinct keys, in group-id order. */
  keyVectors(): Vector[] {
    return this.keyTypes.map((t, k) =>
      concatVectors(
        t,
        this.keyChunks.map((c) => c[k]!),
      ),
    );
  }
}
