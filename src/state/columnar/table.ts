/**
 * The live state of a columnar aggregation: one entry per group key, stored in growable typed
 * arrays (docs/state.md, "typed-array state tables").
 *
 * - Keys are split into int lanes (dictionary ids of STRING and STRUCT keys, INT/DATE/BOOLEAN
 *   values) and f64 lanes (BIGINT/DOUBLE/TIMESTAMP values); a lane of a nullable numeric key
 *   gets a validity byte column on its first NULL. Coding a batch's keys into lanes, and hashing
 *   and comparing them, lives in key-codes.ts.
 * - Buffer columns (the aggregation buffers) are Float64Arrays, Uint8Arrays for BOOLEAN, each
 *   with a validity byte column when nullable. The aggregation operator merges into them in
 *   place, by entry id.
 * - The index is open addressing with linear probing over an Int32Array of entry ids
 *   (power-of-two capacity, load <= 0.75, backward-shift deletion); each entry keeps its key's
 *   hash, so growing the index rehashes nothing and a probe past other keys compares hashes
 *   before keys. No JS object per entry.
 *
 * Change tracking for one batch at a time (`beginBatch` ... `commitBatch` / `abortBatch`): a
 * flag byte per entry marks it touched / inserted / removed this batch; the touched list is the
 * delta's puts, the removed list its removes. The first touch of an entry that existed before
 * the batch saves the buffer values of its page of 4096 entries (undo log), so abort restores
 * them, drops the inserted entries and puts the removed ones back. Removed ids are reused only after the batch ends, so
 * their keys stay readable for the delta.
 */
import { makeVector, type Vector } from "../../columnar/vector.js";
import type { StructType } from "../../types/datatypes.js";
import { gatherF64, gatherI32, gatherU8, grown, IntList, MIN_CAPACITY, nextCapacity } from "./arrays.js";
import type { StringDict, TupleDict } from "./dictionary.js";
import { fmix, hashNumber, mix, NULL_HASH, SEED } from "./hash.js";
import { type Codes, entryMatches, KeyCoder, type LaneRef, simpleKeys } from "./key-codes.js";
import type { ColumnarSchema } from "./schema.js";

const LIVE = 1;
const TOUCHED = 2;
const INSERTED = 4;
const REMOVED = 8;

/** Undo granularity: the first touch of an entry saves the buffer values of its page of entries. */
const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;

/** Field f of the tuples with the given codes (0 for NULL tuples and NULL fields). */
function tupleField(dict: TupleDict, f: number, codes: Int32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  const vals = dict.vals;
  const w = dict.width;
  for (let i = 0; i < n; i++) {
    const code = codes[i]!;
    out[i] = code >= 0 ? vals[code * w + f]! : 0;
  }
  return out;
}

export class ColumnarTable {
  readonly schema: ColumnarSchema;
  /** Turns a batch's key vectors into lane codes and hashes (key-codes.ts). */
  private readonly coder: KeyCoder;
  private readonly lanes: readonly LaneRef[];
  private readonly nInt: number;
  private readonly nF64: number;
  /** Dictionary of int lane j (STRING / STRUCT keys), or null for inline values. */
  private readonly strDicts: readonly (StringDict | null)[];
  private readonly tupleDicts: readonly (TupleDict | null)[];
  /** Live entries whose int lane j holds a NULL dictionary code (-1). */
  private readonly nullCodes: number[];

  // ---- entries
  private capacity = 0;
  /** Ids below this have been handed out. */
  private hwm = 0;
  numLive = 0;
  private flags = new Uint8Array(0);
  /** Hash of each entry's key (index placement without rehashing). */
  private eh = new Int32Array(0);
  ik: Int32Array[];
  fk: Float64Array[];
  /** Validity per lane (ints then f64s), allocated on the first NULL. */
  kv: (Uint8Array | null)[];
  /** Buffer values and validity (nullable columns only). */
  bv: (Float64Array | Uint8Array)[];
  bvalid: (Uint8Array | null)[];
  private freeIds = new IntList();

  // ---- index
  private slots = new Int32Array(0);
  private mask = -1;

  // ---- batch tracking
  private tracking = false;
  private touched = new IntList();
  private removed = new IntList();
  /** Pages (PAGE entries) whose buffer values this batch saved before changing them. */
  private pageSaved = new Uint8Array(0);
  private savedPages = new IntList();
  private savedVals: (Float64Array | Uint8Array)[][] = [];
  private savedValid: (Uint8Array | null)[][] = [];
  /** Per entry, its position in the touched list (valid for touched entries; dropped after the batch). */
  private ordinals: Int32Array | null = null;

  constructor(schema: ColumnarSchema) {
    this.schema = schema;
    const coder = new KeyCoder(schema.keys);
    this.coder = coder;
    // Aliases of the coder's layout and dictionaries (fixed for the table's life): the entry
    // loops below read them as fields of the table.
    this.lanes = coder.lanes;
    this.nInt = coder.nInt;
    this.nF64 = coder.nF64;
    this.strDicts = coder.strDicts;
    this.tupleDicts = coder.tupleDicts;
    const nInt = coder.nInt;
    const nF64 = coder.nF64;
    this.nullCodes = new Array(nInt).fill(0);
    this.ik = Array.from({ length: nInt }, () => new Int32Array(0));
    this.fk = Array.from({ length: nF64 }, () => new Float64Array(0));
    this.kv = new Array(nInt + nF64).fill(null);
    this.bv = schema.buffers.map((b) => (b.phys === "u8" ? new Uint8Array(0) : new Float64Array(0)));
    this.bvalid = schema.buffers.map((b) => (b.nullable ? new Uint8Array(0) : null));
    this.slots = new Int32Array(2 * MIN_CAPACITY).fill(-1);
    this.mask = 2 * MIN_CAPACITY - 1;
  }

  // ------------------------------------------------------------------ entries and index

  private ensureCapacity(need: number): void {
    if (need <= this.capacity) return;
    const cap = nextCapacity(this.capacity, need);
    this.flags = grown(this.flags, cap);
    this.eh = grown(this.eh, cap);
    for (let j = 0; j < this.nInt; j++) this.ik[j] = grown(this.ik[j]!, cap);
    for (let j = 0; j < this.nF64; j++) this.fk[j] = grown(this.fk[j]!, cap);
    for (let l = 0; l < this.kv.length; l++) if (this.kv[l]) this.kv[l] = grown(this.kv[l]!, cap, 1);
    for (let c = 0; c < this.bv.length; c++) {
      this.bv[c] = grown(this.bv[c]!, cap);
      if (this.bvalid[c]) this.bvalid[c] = grown(this.bvalid[c]!, cap);
    }
    this.capacity = cap;
  }

  /** Re-create the index with `cap` slots (entry hashes are stored, nothing is rehashed). */
  private growIndex(cap: number): void {
    const old = this.slots;
    const slots = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    const eh = this.eh;
    for (let o = 0; o < old.length; o++) {
      const e = old[o]!;
      if (e === -1) continue;
      let s = eh[e]! & mask;
      while (slots[s] !== -1) s = (s + 1) & mask;
      slots[s] = e;
    }
    this.slots = slots;
    this.mask = mask;
  }

  private indexInsert(e: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let s = this.eh[e]! & mask;
    while (slots[s] !== -1) s = (s + 1) & mask;
    slots[s] = e;
  }

  /** Take entry e out of the index (backward-shift deletion: no tombstones). */
  private indexRemove(e: number): void {
    const slots = this.slots;
    const mask = this.mask;
    const eh = this.eh;
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

  /** Drop the entries no longer live from the index (after a big removal). */
  private rebuildIndex(): void {
    this.slots.fill(-1);
    for (let e = 0; e < this.hwm; e++) if (this.flags[e]! & LIVE) this.indexInsert(e);
  }

  // ------------------------------------------------------------------ lookups

  /**
   * First passes over a batch: for probe distance 0, 1, 2, ..., whether the slot there holds
   * the row's key, for every row not settled yet. Rows are independent within a pass, so the
   * CPU overlaps the cache misses of many rows (one row at a time, each probe waits for the
   * last). Rows still unsettled (an empty slot: the key is absent; or a long probe) get -1 and
   * take the probing loop.
   */
  private probeHome(codes: Codes, hashes: Int32Array, n: number, out: Int32Array): void {
    const slots = this.slots;
    const mask = this.mask;
    const c0 = codes.ints[0]!;
    const k0 = this.ik[0]!;
    const two = this.nInt === 2;
    const c1 = two ? codes.ints[1]! : c0;
    const k1 = two ? this.ik[1]! : k0;
    let pending: Int32Array | null = null;
    let np = 0;
    for (let i = 0; i < n; i++) out[i] = slots[hashes[i]! & mask]!;
    for (let i = 0; i < n; i++) {
      const e = out[i]!;
      if (e === -1) continue;
      if (k0[e] !== c0[i] || k1[e] !== c1[i]) {
        out[i] = -1;
        pending ??= new Int32Array(n);
        pending[np++] = i;
      }
    }
    const eh = this.eh;
    for (let d = 1; d <= 3 && np > 0; d++) {
      const p = pending!;
      let next = 0;
      for (let j = 0; j < np; j++) {
        const i = p[j]!;
        const h = hashes[i]!;
        const e = slots[(h + d) & mask]!;
        if (e === -1) continue; // absent: the probing loop inserts it
        if (eh[e] === h && k0[e] === c0[i] && k1[e] === c1[i]) out[i] = e;
        else p[next++] = i;
      }
      np = next;
    }
  }

  /**
   * Entry id of each of the n rows of the key vectors, inserting new keys (empty buffers:
   * zeros, NULL where nullable). While a batch is open every returned entry is marked touched
   * (its buffer values saved on first touch, for abort), and `ordinals`, when given, receives
   * each row's entry's position in the batch's touched list (dense batch-local group ids, in
   * first-touch order: `touchedIds()[ordinal]` is the entry).
   */
  lookupOrInsert(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n), ordinals?: Int32Array): Int32Array {
    if (n === 0) return out;
    const codes = this.coder.codesOf(keys, n, true);
    const hashes = this.coder.rowHashes(codes, n);
    const simple = simpleKeys(codes, this.kv);
    if (simple) this.probeHome(codes, hashes, n, out);
    else out.fill(-1, 0, n);
    // Rows not settled by their home slot: probe on, insert when absent.
    const c0 = simple ? codes.ints[0]! : null;
    const c1 = simple && this.nInt > 1 ? codes.ints[1]! : null;
    for (let i = 0; i < n; i++) {
      if (out[i] !== -1) continue;
      const h = hashes[i]!;
      let slots = this.slots;
      let mask = this.mask;
      const eh = this.eh;
      let s = h & mask;
      let e: number;
      if (c0 !== null) {
        const a = c0[i]!;
        const k0 = this.ik[0]!;
        if (c1 === null) {
          for (;;) {
            e = slots[s]!;
            if (e === -1 || (eh[e] === h && k0[e] === a)) break;
            s = (s + 1) & mask;
          }
        } else {
          const b = c1[i]!;
          const k1 = this.ik[1]!;
          for (;;) {
            e = slots[s]!;
            if (e === -1 || (eh[e] === h && k0[e] === a && k1[e] === b)) break;
            s = (s + 1) & mask;
          }
        }
      } else {
        for (;;) {
          e = slots[s]!;
          if (e === -1 || (eh[e] === h && entryMatches(this.ik, this.fk, this.kv, e, codes, i))) break;
          s = (s + 1) & mask;
        }
      }
      if (e === -1) {
        if ((this.numLive + 1) * 4 > (mask + 1) * 3) {
          this.growIndex((mask + 1) * 2);
          slots = this.slots;
          mask = this.mask;
          s = h & mask;
          while (slots[s] !== -1) s = (s + 1) & mask;
        }
        e = this.newEntry(codes, i, h);
        slots[s] = e;
      }
      out[i] = e;
    }
    if (this.tracking) this.touch(out, n, ordinals);
    return out;
  }

  /**
   * Mark the entries touched by this batch. A first touch joins the touched list; the first
   * touch of an entry that existed before the batch in a page not saved yet copies that page's
   * buffer values (sequential copies, where saving entry by entry would mean random reads).
   */
  private touch(ids: Int32Array, n: number, ordinals: Int32Array | undefined): void {
    const flags = this.flags;
    const touched = this.touched;
    touched.reserve(touched.length + n);
    if (ordinals !== undefined && (this.ordinals === null || this.ordinals.length < this.capacity)) {
      const o = new Int32Array(this.capacity);
      if (this.ordinals !== null) o.set(this.ordinals);
      this.ordinals = o;
    }
    const pages = (this.capacity >>> PAGE_BITS) + 1;
    if (this.pageSaved.length < pages) this.pageSaved = grown(this.pageSaved, pages);
    const saved = this.pageSaved;
    const ord = ordinals !== undefined ? this.ordinals! : null;
    const td = touched.data;
    let tl = touched.length;
    for (let i = 0; i < n; i++) {
      const e = ids[i]!;
      const f = flags[e]!;
      if ((f & TOUCHED) === 0) {
        flags[e] = f | TOUCHED;
        if (ord !== null) ord[e] = tl;
        td[tl++] = e;
        // entries inserted this batch need no undo: abort drops them
        if ((f & INSERTED) === 0 && saved[e >>> PAGE_BITS] === 0) this.savePage(e >>> PAGE_BITS);
      }
      if (ord !== null) ordinals![i] = ord[e]!;
    }
    touched.length = tl;
  }

  private savePage(p: number): void {
    const start = p << PAGE_BITS;
    const end = Math.min(start + PAGE, this.hwm);
    this.pageSaved[p] = 1;
    this.savedPages.push(p);
    this.savedVals.push(this.bv.map((a) => a.slice(start, end)));
    this.savedValid.push(this.bvalid.map((a) => (a ? a.slice(start, end) : null)));
  }

  /** Entry id of each row, or -1 when the key is not in the table. Marks nothing. */
  lookup(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    if (n === 0) return out;
    const codes = this.coder.codesOf(keys, n, false);
    const hashes = this.coder.rowHashes(codes, n);
    const simple = simpleKeys(codes, this.kv);
    if (simple) this.probeHome(codes, hashes, n, out);
    else out.fill(-1, 0, n);
    const slots = this.slots;
    const mask = this.mask;
    for (let i = 0; i < n; i++) {
      if (out[i] !== -1) continue;
      let absent = false;
      for (let j = 0; j < this.nInt; j++) if (codes.ints[j]![i] === -2) absent = true;
      if (absent) continue;
      const h = hashes[i]!;
      let s = h & mask;
      for (;;) {
        const e = slots[s]!;
        if (e === -1) break;
        if (this.eh[e] === h && entryMatches(this.ik, this.fk, this.kv, e, codes, i)) {
          out[i] = e;
          break;
        }
        s = (s + 1) & mask;
      }
    }
    return out;
  }

  private newEntry(codes: Codes, i: number, h: number): number {
    let e: number;
    if (this.freeIds.length > 0) e = this.freeIds.data[--this.freeIds.length]!;
    else {
      e = this.hwm++;
      this.ensureCapacity(this.hwm);
    }
    this.eh[e] = h;
    for (let j = 0; j < this.nInt; j++) {
      const code = codes.ints[j]![i]!;
      this.ik[j]![e] = code;
      const sd = this.strDicts[j];
      const td = this.tupleDicts[j];
      if (sd !== null || td !== null) {
        if (code >= 0) (sd ?? td)!.ref(code);
        else this.nullCodes[j]!++;
      }
    }
    for (let j = 0; j < this.nF64; j++) this.fk[j]![e] = codes.f64s[j]![i]!;
    for (let l = 0; l < codes.valid.length; l++) {
      const rv = codes.valid[l];
      if (rv !== null && rv !== undefined && rv[i] === 0 && this.kv[l] === null) this.kv[l] = new Uint8Array(this.capacity).fill(1);
      const ev = this.kv[l];
      if (ev !== null) ev[e] = rv === null || rv === undefined ? 1 : rv[i]!;
    }
    for (let c = 0; c < this.bv.length; c++) {
      this.bv[c]![e] = 0;
      const v = this.bvalid[c];
      if (v !== null) v[e] = 0;
    }
    // Inserted entries join the touched list in `touch` (no undo needed: abort drops them).
    this.flags[e] = this.tracking ? LIVE | INSERTED : LIVE;
    this.numLive++;
    return e;
  }

  /** Remove live entries (ids repeated or already removed are skipped). */
  remove(ids: ArrayLike<number>, n: number = ids.length): void {
    let count = 0;
    for (let i = 0; i < n; i++) if (this.flags[ids[i]!]! & LIVE) count++;
    // Many at once (a window closing): rebuild the index instead of deleting slot by slot.
    const rebuild = count > 64 && count * 4 > this.numLive;
    for (let i = 0; i < n; i++) {
      const e = ids[i]!;
      const f = this.flags[e]!;
      if ((f & LIVE) === 0) continue;
      if (!rebuild) this.indexRemove(e);
      this.numLive--;
      if (this.tracking) {
        this.flags[e] = (f & ~LIVE) | REMOVED;
        this.removed.push(e);
      } else {
        this.flags[e] = f & ~LIVE;
        this.release(e);
      }
    }
    if (rebuild) this.rebuildIndex();
  }

  /** Give an entry's id and dictionary references back. */
  private release(e: number): void {
    for (let j = 0; j < this.nInt; j++) {
      const sd = this.strDicts[j];
      const td = this.tupleDicts[j];
      if (sd === null && td === null) continue;
      const code = this.ik[j]![e]!;
      if (code >= 0) (sd ?? td)!.unref(code);
      else this.nullCodes[j]!--;
    }
    this.flags[e] = 0;
    this.freeIds.push(e);
  }

  // ------------------------------------------------------------------ batches

  beginBatch(): void {
    this.tracking = true;
  }

  hasChanges(): boolean {
    return this.touched.length > 0 || this.removed.length > 0;
  }

  /** Entries changed this batch and still live (the delta's puts), in first-touch order. */
  changedIds(): Int32Array {
    const t = this.touched.view();
    const out = new Int32Array(t.length);
    let k = 0;
    for (let i = 0; i < t.length; i++) if (this.flags[t[i]!]! & LIVE) out[k++] = t[i]!;
    return out.subarray(0, k);
  }

  /** Entries that existed before this batch and were removed by it (the delta's removes). */
  removedIds(): Int32Array {
    const r = this.removed.view();
    const out = new Int32Array(r.length);
    let k = 0;
    for (let i = 0; i < r.length; i++) if ((this.flags[r[i]!]! & INSERTED) === 0) out[k++] = r[i]!;
    return out.subarray(0, k);
  }

  /** Entries touched (inserted or updated) this batch, in first-touch order, removed ones included. */
  touchedIds(): Int32Array {
    return this.touched.view();
  }

  commitBatch(): void {
    const t = this.touched.view();
    for (let i = 0; i < t.length; i++) this.flags[t[i]!]! &= ~(TOUCHED | INSERTED);
    const r = this.removed.view();
    for (let i = 0; i < r.length; i++) this.release(r[i]!);
    this.endBatch();
  }

  abortBatch(): void {
    const t = this.touched.view();
    // 1. drop the entries this batch inserted (live or already removed again)
    for (let i = 0; i < t.length; i++) {
      const e = t[i]!;
      const f = this.flags[e]!;
      if ((f & INSERTED) === 0) continue;
      if (f & LIVE) {
        this.indexRemove(e);
        this.numLive--;
      }
      this.release(e);
    }
    // 2. put back the entries it removed
    const r = this.removed.view();
    for (let i = 0; i < r.length; i++) {
      const e = r[i]!;
      if (this.flags[e] === 0) continue; // inserted this batch: released above
      this.flags[e] = (this.flags[e]! & ~REMOVED) | LIVE;
      this.numLive++;
      if ((this.numLive + 1) * 4 > (this.mask + 1) * 3) this.growIndex((this.mask + 1) * 2);
      else this.indexInsert(e);
    }
    // 3. restore the buffer values it changed
    const pages = this.savedPages.view();
    for (let k = 0; k < pages.length; k++) {
      const start = pages[k]! << PAGE_BITS;
      for (let c = 0; c < this.bv.length; c++) {
        (this.bv[c] as Float64Array).set(this.savedVals[k]![c] as Float64Array, start);
        const v = this.bvalid[c];
        if (v !== null) v.set(this.savedValid[k]![c]!, start);
      }
    }
    for (let i = 0; i < t.length; i++) if (this.flags[t[i]!] !== 0) this.flags[t[i]!]! &= ~(TOUCHED | INSERTED);
    this.endBatch();
  }

  private endBatch(): void {
    this.tracking = false;
    this.ordinals = null;
    this.touched.reset();
    this.removed.reset();
    const pages = this.savedPages.view();
    for (let k = 0; k < pages.length; k++) this.pageSaved[pages[k]!] = 0;
    this.savedPages.reset();
    this.savedVals = [];
    this.savedValid = [];
  }

  // ------------------------------------------------------------------ scans

  /** Live entry ids, ascending. */
  liveIds(): Int32Array {
    const out = new Int32Array(this.numLive);
    let k = 0;
    for (let e = 0; e < this.hwm; e++) if (this.flags[e]! & LIVE) out[k++] = e;
    return out;
  }

  /**
   * Live entries whose event time is <= micros, ascending: key column `col` is a timestamp
   * (its value) or a window struct (field 1, its end). NULL event times count as -infinity.
   */
  expired(col: number, micros: number): Int32Array {
    const ref = this.lanes[col]!;
    const k = this.schema.keys[col]!;
    const out = new IntList();
    const flags = this.flags;
    if (ref.lane === "f") {
      const vals = this.fk[ref.index]!;
      const valid = this.kv[this.nInt + ref.index];
      for (let e = 0; e < this.hwm; e++) {
        if ((flags[e]! & LIVE) === 0) continue;
        if (vals[e]! <= micros || (valid !== null && valid[e] === 0)) out.push(e);
      }
      return out.view().slice();
    }
    if (ref.lane === "i" && k.kind === "struct") {
      const dict = this.tupleDicts[ref.index]!;
      const f = k.fields.length > 1 ? 1 : 0;
      const dead = new Uint8Array(dict.highWater + 1);
      let any = this.nullCodes[ref.index]! > 0;
      for (let t = 0; t < dict.highWater; t++) {
        if (dict.refs[t]! <= 0) continue;
        const v = dict.field(t, f);
        if (v === null || v <= micros) {
          dead[t] = 1;
          any = true;
        }
      }
      if (!any) return new Int32Array(0);
      const codes = this.ik[ref.index]!;
      for (let e = 0; e < this.hwm; e++) {
        if ((flags[e]! & LIVE) === 0) continue;
        const c = codes[e]!;
        if (c < 0 || dead[c] === 1) out.push(e);
      }
      return out.view().slice();
    }
    if (ref.lane === "i") {
      const vals = this.ik[ref.index]!;
      const valid = this.kv[ref.index];
      for (let e = 0; e < this.hwm; e++) {
        if ((flags[e]! & LIVE) === 0) continue;
        if (vals[e]! <= micros || (valid !== null && valid[e] === 0)) out.push(e);
      }
      return out.view().slice();
    }
    // A NULL-typed key: always NULL.
    return this.liveIds();
  }

  /** Event time (micros) of every live entry, as `expired` reads it. */
  eventTimes(col: number): number[] {
    const ids = this.liveIds();
    const out: number[] = new Array(ids.length);
    const v = this.keyVectors(ids)[col]!;
    const src = v.children ? v.children[v.children.length > 1 ? 1 : 0]! : v;
    for (let i = 0; i < ids.length; i++) {
      const isNull = (v.validity !== null && v.validity[i] === 0) || (src.validity !== null && src.validity[i] === 0);
      out[i] = isNull ? Number.NEGATIVE_INFINITY : (src.values as Float64Array)[i]!;
    }
    return out;
  }

  // ------------------------------------------------------------------ vectors out

  /** Key columns of the given entries, as vectors of the key types. */
  keyVectors(ids: Int32Array, n: number = ids.length): Vector[] {
    return this.schema.keys.map((k, c) => {
      const ref = this.lanes[c]!;
      if (k.kind === "null" || ref.lane === "none") return makeVector(k.type, new Array(n).fill(null), new Uint8Array(n), n);
      const laneValid = this.kv[ref.lane === "i" ? ref.index : this.nInt + ref.index];
      if (k.kind === "num") {
        const validity = laneValid !== null ? gatherU8(laneValid, ids, n) : null;
        if (ref.lane === "f") return makeVector(k.type, gatherF64(this.fk[ref.index]!, ids, n), validity, n);
        const vals = gatherI32(this.ik[ref.index]!, ids, n);
        return makeVector(k.type, k.phys === "u8" ? Uint8Array.from(vals) : vals, validity, n);
      }
      const codes = gatherI32(this.ik[ref.index]!, ids, n);
      let validity: Uint8Array | null = null;
      if (this.nullCodes[ref.index]! > 0) {
        validity = new Uint8Array(n);
        for (let i = 0; i < n; i++) validity[i] = codes[i]! >= 0 ? 1 : 0;
      }
      if (k.kind === "str") {
        const strings = this.strDicts[ref.index]!.strings;
        const values: (string | null)[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const code = codes[i]!;
          values[i] = code >= 0 ? strings[code]! : null;
        }
        return makeVector(k.type, values, validity, n);
      }
      const dict = this.tupleDicts[ref.index]!;
      const st = k.type as StructType;
      const children = k.fields.map((phys, f) => {
        const vals = tupleField(dict, f, codes, n);
        let fvalid: Uint8Array | null = null;
        if (this.nullCodes[ref.index]! > 0 || dict.anyNullField(f)) {
          fvalid = new Uint8Array(n);
          for (let i = 0; i < n; i++) {
            const code = codes[i]!;
            fvalid[i] = code >= 0 && ((dict.masks[code]! >>> f) & 1) === 0 ? 1 : 0;
          }
        }
        const values = phys === "f64" ? vals : phys === "i32" ? Int32Array.from(vals) : Uint8Array.from(vals);
        return makeVector(st.fields[f]!.type, values, fvalid, n);
      });
      return makeVector(k.type, [], validity, n, children);
    });
  }

  /** Buffer columns of the given entries, as vectors of the buffer types. */
  bufferVectors(ids: Int32Array, n: number = ids.length): Vector[] {
    return this.schema.buffers.map((b, c) => {
      const src = this.bv[c]!;
      let values: Float64Array | Int32Array | Uint8Array;
      if (src instanceof Uint8Array) values = gatherU8(src, ids, n);
      else {
        const f = gatherF64(src, ids, n);
        values = b.phys === "i32" ? Int32Array.from(f) : f;
      }
      const sv = this.bvalid[c];
      return makeVector(b.type, values, sv !== null ? gatherU8(sv, ids, n) : null, n);
    });
  }

  /** Write buffer values (from a file) into entries: `ids[i]` gets row i of each column. */
  setBuffers(ids: ArrayLike<number>, n: number, values: readonly ArrayLike<number>[], validity: readonly (Uint8Array | null)[]): void {
    for (let c = 0; c < this.bv.length; c++) {
      const dst = this.bv[c]!;
      const src = values[c]!;
      for (let i = 0; i < n; i++) dst[ids[i]!] = src[i]!;
      const dv = this.bvalid[c];
      if (dv !== null) {
        const sv = validity[c];
        for (let i = 0; i < n; i++) dv[ids[i]!] = sv ? sv[i]! : 1;
      }
    }
  }

  // ------------------------------------------------------------------ partitions and size

  /** Partition of each entry (a hash of its key values, stable across processes). */
  partitionsOf(ids: Int32Array, numPartitions: number, n: number = ids.length): Int32Array {
    const out = new Int32Array(n);
    if (numPartitions <= 1) return out;
    const h = new Int32Array(n).fill(SEED);
    this.schema.keys.forEach((k, c) => {
      const ref = this.lanes[c]!;
      if (ref.lane === "none") {
        for (let i = 0; i < n; i++) h[i] = mix(h[i]!, NULL_HASH);
        return;
      }
      const valid = this.kv[ref.lane === "i" ? ref.index : this.nInt + ref.index];
      if (ref.lane === "f") {
        const vals = this.fk[ref.index]!;
        for (let i = 0; i < n; i++) {
          const e = ids[i]!;
          h[i] = mix(h[i]!, valid !== null && valid[e] === 0 ? NULL_HASH : hashNumber(vals[e]!));
        }
        return;
      }
      const codes = this.ik[ref.index]!;
      if (k.kind === "num") {
        for (let i = 0; i < n; i++) {
          const e = ids[i]!;
          h[i] = mix(h[i]!, valid !== null && valid[e] === 0 ? NULL_HASH : hashNumber(codes[e]!));
        }
        return;
      }
      const hashes = (this.strDicts[ref.index] ?? this.tupleDicts[ref.index])!.hashes;
      for (let i = 0; i < n; i++) {
        const code = codes[ids[i]!]!;
        h[i] = mix(h[i]!, code < 0 ? NULL_HASH : hashes[code]!);
      }
    });
    for (let i = 0; i < n; i++) out[i] = (fmix(h[i]!) >>> 0) % numPartitions;
    return out;
  }

  /** Bytes the table holds: every typed array at its capacity, plus the dictionaries. */
  bytes(): number {
    let n = this.flags.byteLength + this.eh.byteLength + this.slots.byteLength + this.freeIds.data.byteLength;
    for (const a of this.ik) n += a.byteLength;
    for (const a of this.fk) n += a.byteLength;
    for (const a of this.kv) if (a) n += a.byteLength;
    for (const a of this.bv) n += a.byteLength;
    for (const a of this.bvalid) if (a) n += a.byteLength;
    for (const d of this.strDicts) if (d) n += d.bytes();
    for (const d of this.tupleDicts) if (d) n += d.bytes();
    n += this.touched.data.byteLength + this.removed.data.byteLength + this.pageSaved.byteLength + this.savedPages.data.byteLength;
    for (const page of this.savedVals) for (const a of page) n += a.byteLength;
    for (const page of this.savedValid) for (const a of page) if (a) n += a.byteLength;
    return n;
  }
}
