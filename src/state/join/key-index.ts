/**
 * The join table's index from a key's text to its key id (table.ts), by a 32-bit hash the
 * caller already has: the FNV-1a of the text (`keyTextHash`, common/hash.ts) that also picks the key's state
 * partition, computed from the key's columns by whoever made the text (join-key-text.ts,
 * possibly on a decode thread). A `Map` keyed by the text hashed every fresh (concatenated)
 * key string again and flattened it, and its entries were scattered over the heap: on q8 the
 * lookups were a third of a state thread's time (bench/RESULTS.md, session 19).
 *
 * Open addressing with linear probing over an Int32Array of (hash, key id) pairs: a probe reads
 * the hash beside the id, in the same cache line, and compares texts only on equal hashes (with
 * the hashes in an array by id, each probe of a large table cost one more cache miss). Each id's
 * hash is also kept by id, so growing rehashes without the texts. Keys are only added: a table
 * drops keys by compaction or an aborted batch, and rebuilds the index.
 */
import { fmix } from "../../common/hash.js";

const EMPTY = -1;

export class KeyIndex {
  /** Per slot its key's hash, then its key id (EMPTY where free); a power of two slots, at most half full. */
  private slots = emptySlots(64);
  private mask = 63;
  /** Each key id's hash. */
  private hashes = new Int32Array(64);
  private size = 0;

  /** The id of the key `text` (its hash `hash`; `texts[id]` is each stored key's text), or -1. */
  find(hash: number, text: string, texts: readonly string[]): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let s = fmix(hash) & mask; ; s = (s + 1) & mask) {
      const id = slots[2 * s + 1]!;
      if (id === EMPTY) return -1;
      if (slots[2 * s] === hash && texts[id] === text) return id;
    }
  }

  /** Adds key id `id` with hash `hash`: ids come in order, 0, 1, 2, … (a table's key ids). */
  add(id: number, hash: number): void {
    if (id !== this.size) throw new Error(`join key index: key id ${id} added after ${this.size} keys`);
    if (id >= this.hashes.length) {
      const grown = new Int32Array(Math.max(id + 1, this.hashes.length * 2));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = hash;
    if (++this.size * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    else this.place(id, hash);
  }

  /** The hash of key id `id`. */
  hashOf(id: number): number {
    return this.hashes[id]!;
  }

  /** Keeps keys 0 .. n - 1 only, their hashes given by `hashOf` (after compaction renumbered them, or an abort dropped the rest). */
  rebuild(n: number, hashOf: (id: number) => number): void {
    const hashes = new Int32Array(Math.max(64, n));
    for (let id = 0; id < n; id++) hashes[id] = hashOf(id);
    this.hashes = hashes;
    this.size = n;
    let cap = 64;
    while (cap < n * 2) cap *= 2;
    this.rehash(cap);
  }

  private rehash(cap: number): void {
    this.slots = emptySlots(cap);
    this.mask = cap - 1;
    for (let id = 0; id < this.size; id++) this.place(id, this.hashes[id]!);
  }

  private place(id: number, hash: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let s = fmix(hash) & mask;
    while (slots[2 * s + 1] !== EMPTY) s = (s + 1) & mask;
    slots[2 * s] = hash;
    slots[2 * s + 1] = id;
  }

  bytes(): number {
    return this.slots.byteLength + this.hashes.byteLength;
  }
}

/** `cap` free slots: (0, EMPTY) pairs. */
function emptySlots(cap: number): Int32Array {
  const slots = new Int32Array(2 * cap);
  for (let s = 1; s < slots.length; s += 2) slots[s] = EMPTY;
  return slots;
}
