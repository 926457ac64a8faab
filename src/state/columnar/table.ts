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
 *   (slot-index.ts); each entry keeps its key's hash, so growing the index rehashes nothing.
 *   No JS object per entry.
 *
 * Change tracking for one batch at a time (`beginBatch` ... `commitBatch` / `abortBatch`): a
 * flag byte per entry marks it touched / inserted / removed this batch; the touched list is the
 * delta's puts, the removed list its removes. The first touch of an entry that existed before
 * the batch saves the buffer values of its page of 4096 entries (undo-pages.ts), so abort
 * restores them, drops the inserted entries and puts the removed ones back. Removed ids are
 * reused only after the batch ends, so their keys stay readable for the delta.
 *
 * Reading entries out (key and buffer vectors, partitions) is in vectors.ts, the event-time
 * scans for watermark eviction in event-time.ts.
 */
import { isWide, widen } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import { grown, IntList, MIN_CAPACITY, nextCapacity } from "./arrays.js";
import type { StringDict, TupleDict } from "./dictionary.js";
import { eventTimes, expiredIds } from "./event-time.js";
import { INSERTED, LIVE, REMOVED, TOUCHED } from "./flags.js";
import { type Codes, entryMatches, KeyCoder, type LaneRef, type LaneValues, laneEquals, simpleLanes } from "./key-codes.js";
import type { ColumnarSchema } from "./schema.js";
import { probeHome, regrownSlots, slotInsert, slotRemove } from "./slot-index.js";
import { PAGE_BITS, UndoPages } from "./undo-pages.js";
import { bufferVectors, keyVector, partitionsOf } from "./vectors.js";

export class ColumnarTable {
  readonly schema: ColumnarSchema;
  /** Turns a batch's key vectors into lane codes and hashes (key-codes.ts). */
  private readonly coder: KeyCoder;
  // The fields below without `private` are read by vectors.ts and event-time.ts; only the
  // aggregation operator writes to the table from outside (buffer values, in place).
  readonly lanes: readonly LaneRef[];
  readonly nInt: number;
  private readonly nF64: number;
  /** Dictionary of int lane j (STRING / STRUCT keys), or null for inline values. */
  readonly strDicts: readonly (StringDict | null)[];
  readonly tupleDicts: readonly (TupleDict | null)[];
  /** Does int lane j hold dictionary codes (STRING / STRUCT keys) rather than values? */
  private readonly lanesDictionary: readonly boolean[];
  /** Live entries whose int lane j holds a NULL dictionary code (-1). */
  readonly nullCodes: number[];

  // ---- entries (capacity: the length of every per-entry array)
  /** Ids below this have been handed out. */
  hwm = 0;
  numLive = 0;
  flags = new Uint8Array(0);
  /** Hash of each entry's key (index placement without rehashing). */
  private eh = new Int32Array(0);
  ik: Int32Array[];
  /** BIGINT/TIMESTAMP lanes move to the wide lane (columnar/int64.ts) on their first unsafe value, for good. */
  fk: (Float64Array | BigInt64Array)[];
  /** Validity per lane (ints then f64s), allocated on the first NULL. */
  kv: (Uint8Array | null)[];
  /** Buffer values and validity (nullable columns only); BIGINT ones may be wide (columnar/int64.ts). */
  bv: (Float64Array | Uint8Array | BigInt64Array)[];
  bvalid: (Uint8Array | null)[];
  private freeIds = new IntList();
  /** Did the last `lookupOrInsert` insert more than half of its rows? (Then the next one skips `probeHome`.) */
  private mostlyNew = false;
  /** Per entry, 1 + its partition among `partsFor` partitions once `partitionsOf` computed it (0: not yet). */
  private parts = new Int32Array(0);
  private partsFor = 0;

  // ---- index
  private slots = new Int32Array(0);
  private mask = -1;

  // ---- batch tracking
  private tracking = false;
  private touched = new IntList();
  private removed = new IntList();
  private readonly undo = new UndoPages();
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
    this.lanesDictionary = coder.strDicts.map((d, j) => d !== null || coder.tupleDicts[j] !== null);
    this.ik = Array.from({ length: nInt }, () => new Int32Array(0));
    this.fk = Array.from({ length: nF64 }, () => new Float64Array(0));
    this.kv = new Array(nInt + nF64).fill(null);
    this.bv = schema.buffers.map((b) => (b.phys === "u8" ? new Uint8Array(0) : new Float64Array(0)));
    this.bvalid = schema.buffers.map((b) => (b.nullable ? new Uint8Array(0) : null));
    this.slots = new Int32Array(2 * MIN_CAPACITY).fill(-1);
    this.mask = 2 * MIN_CAPACITY - 1;
  }

  // ------------------------------------------------------------------ entries and index

  private get capacity(): number {
    return this.flags.length;
  }

  private ensureCapacity(need: number): void {
    if (need <= this.capacity) return;
    const cap = nextCapacity(this.capacity, need);
    this.flags = grown(this.flags, cap);
    this.eh = grown(this.eh, cap);
    if (this.partsFor > 0) this.parts = grown(this.parts, cap);
    for (let j = 0; j < this.nInt; j++) this.ik[j] = grown(this.ik[j]!, cap);
    for (let j = 0; j < this.nF64; j++) this.fk[j] = grown(this.fk[j]!, cap);
    for (let l = 0; l < this.kv.length; l++) if (this.kv[l]) this.kv[l] = grown(this.kv[l]!, cap, 1);
    for (let c = 0; c < this.bv.length; c++) {
      this.bv[c] = grown(this.bv[c]!, cap);
      if (this.bvalid[c]) this.bvalid[c] = grown(this.bvalid[c]!, cap);
    }
  }

  /** Re-create the index with `cap` slots (entry hashes are stored, nothing is rehashed). */
  private growIndex(cap: number): void {
    this.slots = regrownSlots(this.slots, cap, this.eh);
    this.mask = cap - 1;
  }

  /** Drop the entries no longer live from the index (after a big removal). */
  private rebuildIndex(): void {
    this.slots.fill(-1);
    for (let e = 0; e < this.hwm; e++) if (this.flags[e]! & LIVE) slotInsert(this.slots, this.mask, this.eh, e);
  }

  // ------------------------------------------------------------------ lookups

  /**
   * Entry id of each of the n rows of the key vectors, inserting new keys (empty buffers:
   * zeros, NULL where nullable). While a batch is open every returned entry is marked touched
   * (its buffer values saved on first touch, for abort), and `ordinals`, when given, receives
   * each row's entry's position in the batch's touched list (dense batch-local group ids, in
   * first-touch order: `touchedIds()[ordinal]` is the entry).
   */
  lookupOrInsert(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n), ordinals?: Int32Array): Int32Array {
    if (n === 0) return out;
    const live = this.numLive;
    this.probeOrInsert(keys, n, out);
    this.mostlyNew = (this.numLive - live) * 2 > n;
    if (this.tracking) this.touch(out, n, ordinals);
    return out;
  }

  /**
   * `lookupOrInsert`'s probing loop, a method of its own that ends with the loop: V8 optimizes
   * the loop on the stack (OSR), and the marking that followed it in the same function, inlined
   * into that OSR code before any entry had been touched twice, deopted on every later call
   * (docs/architecture.md, "Hot path rules").
   */
  private probeOrInsert(keys: readonly Vector[], n: number, out: Int32Array): void {
    const codes = this.alignLanes(this.coder.codesOf(keys, n, true));
    const hashes = this.coder.rowHashes(codes, n);
    const lanes = simpleLanes(codes, this.kv);
    // The passes pay when most keys are found; when most are new (the last call inserted more
    // than it found: a sliding window's fresh windows) they would only repeat the loop's probes.
    if (lanes && !this.mostlyNew) probeHome(this.slots, this.mask, this.eh, this.storedLanes(), lanes, hashes, n, out);
    else out.fill(-1, 0, n);
    // Rows not settled by their home slot: probe on, insert when absent. One loop per key shape,
    // each in a method of its own: a shape's first query no longer recompiles the others' loops.
    if (lanes === null) this.probeEntries(codes, hashes, n, out);
    else if (lanes.length === 1) this.probeOneLane(codes, hashes, lanes[0]!, n, out);
    else this.probeTwoLanes(codes, hashes, lanes[0]!, lanes[1]!, n, out);
  }

  /** `probeOrInsert`'s loop for keys on one lane (a string's or a window's code, a number). */
  private probeOneLane(codes: Codes, hashes: Int32Array, c0: LaneValues, n: number, out: Int32Array): void {
    let k0 = this.storedLanes()[0]!;
    let storedCapacity = this.capacity;
    for (let i = 0; i < n; i++) {
      if (out[i] !== -1) continue;
      const h = hashes[i]!;
      const slots = this.slots;
      const mask = this.mask;
      const eh = this.eh;
      const a = c0[i]!;
      let s = h & mask;
      let e: number;
      for (;;) {
        e = slots[s]!;
        if (e === -1 || (eh[e] === h && laneEquals(k0[e]!, a))) break;
        s = (s + 1) & mask;
      }
      if (e === -1) {
        e = this.insertAt(codes, i, h, s);
        if (this.capacity !== storedCapacity) {
          k0 = this.storedLanes()[0]!; // the columns grew
          storedCapacity = this.capacity;
        }
      }
      out[i] = e;
    }
  }

  /** `probeOrInsert`'s loop for keys on two lanes (a window and a key). */
  private probeTwoLanes(codes: Codes, hashes: Int32Array, c0: LaneValues, c1: LaneValues, n: number, out: Int32Array): void {
    let stored = this.storedLanes();
    let k0 = stored[0]!;
    let k1 = stored[1]!;
    let storedCapacity = this.capacity;
    for (let i = 0; i < n; i++) {
      if (out[i] !== -1) continue;
      const h = hashes[i]!;
      const slots = this.slots;
      const mask = this.mask;
      const eh = this.eh;
      const a = c0[i]!;
      const b = c1[i]!;
      let s = h & mask;
      let e: number;
      for (;;) {
        e = slots[s]!;
        if (e === -1 || (eh[e] === h && laneEquals(k0[e]!, a) && laneEquals(k1[e]!, b))) break;
        s = (s + 1) & mask;
      }
      if (e === -1) {
        e = this.insertAt(codes, i, h, s);
        if (this.capacity !== storedCapacity) {
          stored = this.storedLanes(); // the columns grew
          k0 = stored[0]!;
          k1 = stored[1]!;
          storedCapacity = this.capacity;
        }
      }
      out[i] = e;
    }
  }

  /** `probeOrInsert`'s loop for any other key (NULLs, wide lanes, more than two lanes): entries compared lane by lane. */
  private probeEntries(codes: Codes, hashes: Int32Array, n: number, out: Int32Array): void {
    for (let i = 0; i < n; i++) {
      if (out[i] !== -1) continue;
      const h = hashes[i]!;
      const slots = this.slots;
      const mask = this.mask;
      const eh = this.eh;
      let s = h & mask;
      let e: number;
      for (;;) {
        e = slots[s]!;
        if (e === -1 || (eh[e] === h && entryMatches(this.ik, this.fk, this.kv, e, codes, i))) break;
        s = (s + 1) & mask;
      }
      out[i] = e === -1 ? this.insertAt(codes, i, h, s) : e;
    }
  }

  /** A new entry for row i's key, hash h, in free slot s (or, when the index grows, in the grown index's). */
  private insertAt(codes: Codes, i: number, h: number, s: number): number {
    if ((this.numLive + 1) * 4 > (this.mask + 1) * 3) {
      this.growIndex((this.mask + 1) * 2);
      s = h & this.mask;
      while (this.slots[s] !== -1) s = (s + 1) & this.mask;
    }
    const e = this.newEntry(codes, i, h);
    this.slots[s] = e;
    return e;
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
    const saved = this.undo.savedFlags(this.capacity);
    const ord = ordinals !== undefined ? this.ordinals! : null;
    touched.length = this.markTouched(ids, n, flags, saved, ord, ordinals ?? null, touched.data, touched.length);
  }

  /** `touch`'s loop, ending its own method (docs/architecture.md, "Hot path rules"); returns the touched list's new length. */
  private markTouched(
    ids: Int32Array,
    n: number,
    flags: Uint8Array,
    saved: Uint8Array,
    ord: Int32Array | null,
    ordinals: Int32Array | null,
    td: Int32Array,
    tl: number,
  ): number {
    for (let i = 0; i < n; i++) {
      const e = ids[i]!;
      const f = flags[e]!;
      if ((f & TOUCHED) === 0) {
        flags[e] = f | TOUCHED;
        if (ord !== null) ord[e] = tl;
        td[tl++] = e;
        // entries inserted this batch need no undo: abort drops them
        if ((f & INSERTED) === 0 && saved[e >>> PAGE_BITS] === 0) this.undo.save(e >>> PAGE_BITS, this.bv, this.bvalid, this.hwm);
      }
      if (ord !== null) ordinals![i] = ord[e]!;
    }
    return tl;
  }

  /** Entry id of each row, or -1 when the key is not in the table. Marks nothing. */
  lookup(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    if (n === 0) return out;
    const codes = this.alignLanes(this.coder.codesOf(keys, n, false));
    const hashes = this.coder.rowHashes(codes, n);
    const lanes = simpleLanes(codes, this.kv);
    if (lanes) probeHome(this.slots, this.mask, this.eh, this.storedLanes(), lanes, hashes, n, out);
    else out.fill(-1, 0, n);
    const slots = this.slots;
    const mask = this.mask;
    for (let i = 0; i < n; i++) {
      if (out[i] !== -1) continue;
      let absent = false;
      // -2: a dictionary value never seen (key-codes.ts); on an INT/DATE lane it is the value -2
      for (let j = 0; j < this.nInt; j++) if (codes.ints[j]![i] === -2 && this.lanesDictionary[j]) absent = true;
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

  /** The key columns in `simpleLanes`' order (ints, then f64s; only asked when no f64 column is wide). */
  private storedLanes(): LaneValues[] {
    return [...this.ik, ...(this.fk as Float64Array[])];
  }

  /**
   * Give each f64 key lane of the batch and of the table one kind (columnar/int64.ts): a wide
   * batch lane widens the table's column for good, a double batch lane meets a wide column as
   * bigints. Then entries and rows compare with ===.
   */
  private alignLanes(codes: Codes): Codes {
    for (let j = 0; j < this.nF64; j++) {
      const c = codes.f64s[j]!;
      const col = this.fk[j]!;
      if (isWide(c) && !isWide(col)) this.fk[j] = widen(col);
      else if (!isWide(c) && isWide(col)) codes.f64s[j] = widen(c);
    }
    return codes;
  }

  /** Buffer column c on the wide lane (a BIGINT sum or min/max met a value beyond ±2^53 − 1). */
  widenBuffer(c: number): BigInt64Array {
    const col = this.bv[c]!;
    if (isWide(col)) return col;
    const w = widen(col as Float64Array);
    this.bv[c] = w;
    return w;
  }

  private newEntry(codes: Codes, i: number, h: number): number {
    let e: number;
    if (this.freeIds.length > 0) e = this.freeIds.data[--this.freeIds.length]!;
    else {
      e = this.hwm++;
      this.ensureCapacity(this.hwm);
    }
    this.eh[e] = h;
    if (this.partsFor > 0) this.parts[e] = 0;
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
    for (let j = 0; j < this.nF64; j++) (this.fk[j] as Float64Array)[e] = codes.f64s[j]![i]! as number; // same kind (alignLanes)
    for (let l = 0; l < codes.valid.length; l++) {
      const rv = codes.valid[l];
      if (rv !== null && rv !== undefined && rv[i] === 0 && this.kv[l] === null) this.kv[l] = new Uint8Array(this.capacity).fill(1);
      const ev = this.kv[l];
      if (ev !== null) ev[e] = rv === null || rv === undefined ? 1 : rv[i]!;
    }
    for (let c = 0; c < this.bv.length; c++) {
      const col = this.bv[c]!;
      // Checked per column, not by a flag: the merge kernels widen `bv` in place (columnar-kernels.ts).
      if (isWide(col)) col[e] = 0n;
      else (col as Float64Array | Uint8Array)[e] = 0;
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
      if (!rebuild) slotRemove(this.slots, this.mask, this.eh, e);
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
    return this.withFlag(this.touched.view(), LIVE, true);
  }

  /** Entries that existed before this batch and were removed by it (the delta's removes). */
  removedIds(): Int32Array {
    return this.withFlag(this.removed.view(), INSERTED, false);
  }

  /** The ids of `ids` whose flag `bit` is set (`set`) or clear (`!set`), in order. */
  private withFlag(ids: Int32Array, bit: number, set: boolean): Int32Array {
    const out = new Int32Array(ids.length);
    return out.subarray(0, idsWithFlag(this.flags, ids, bit, set, out));
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
        slotRemove(this.slots, this.mask, this.eh, e);
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
      // grow first (growing copies the index, which does not hold e yet), then insert
      if ((this.numLive + 1) * 4 > (this.mask + 1) * 3) this.growIndex((this.mask + 1) * 2);
      slotInsert(this.slots, this.mask, this.eh, e);
      this.numLive++;
    }
    // 3. restore the buffer values it changed
    this.undo.restore(this.bv, this.bvalid);
    for (let i = 0; i < t.length; i++) if (this.flags[t[i]!] !== 0) this.flags[t[i]!]! &= ~(TOUCHED | INSERTED);
    this.endBatch();
  }

  private endBatch(): void {
    this.tracking = false;
    this.ordinals = null;
    this.touched.reset();
    this.removed.reset();
    this.undo.clear();
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
    return expiredIds(this, col, micros);
  }

  /** Event time (micros) of every live entry, as `expired` reads it. */
  eventTimes(col: number): number[] {
    return eventTimes(this, col);
  }

  /** Validity column of a key lane, or null while the lane has had no NULL. */
  laneValidity(ref: LaneRef): Uint8Array | null {
    return this.kv[ref.lane === "i" ? ref.index : this.nInt + ref.index] ?? null;
  }

  // ------------------------------------------------------------------ vectors in and out

  /** Key columns of the given entries, as vectors of the key types. */
  keyVectors(ids: Int32Array, n: number = ids.length): Vector[] {
    return this.schema.keys.map((_, c) => keyVector(this, c, ids, n));
  }

  /** Buffer columns of the given entries, as vectors of the buffer types. */
  bufferVectors(ids: Int32Array, n: number = ids.length): Vector[] {
    return bufferVectors(this, ids, n);
  }

  /** Write buffer values (from a file) into entries: `ids[i]` gets row i of each column. */
  setBuffers(
    ids: ArrayLike<number>,
    n: number,
    values: readonly (ArrayLike<number> | BigInt64Array)[],
    validity: readonly (Uint8Array | null)[],
  ): void {
    for (let c = 0; c < this.bv.length; c++) {
      const src = values[c]!;
      const dst = isWide(src) ? this.widenBuffer(c) : this.bv[c]!;
      if (isWide(dst)) {
        const s = isWide(src) ? src : null;
        for (let i = 0; i < n; i++) dst[ids[i]!] = s !== null ? s[i]! : BigInt((src as ArrayLike<number>)[i]!);
      } else {
        const s = src as ArrayLike<number>;
        for (let i = 0; i < n; i++) dst[ids[i]!] = s[i]!;
      }
      const dv = this.bvalid[c];
      if (dv !== null) {
        const sv = validity[c];
        for (let i = 0; i < n; i++) dv[ids[i]!] = sv ? sv[i]! : 1;
      }
    }
  }

  // ------------------------------------------------------------------ partitions and size

  /**
   * Partition of each entry (a hash of its key values, stable across processes), computed once
   * per entry: an entry is written as a put and again as a remove (a window's every key).
   */
  partitionsOf(ids: Int32Array, numPartitions: number, n: number = ids.length): Int32Array {
    if (numPartitions <= 1) return new Int32Array(n);
    if (this.partsFor !== numPartitions) {
      this.parts = new Int32Array(this.capacity);
      this.partsFor = numPartitions;
    }
    const parts = this.parts;
    const m = countUnknownParts(parts, ids, n);
    if (m > 0) {
      const missing = unknownParts(parts, ids, n, m);
      rememberParts(parts, missing, partitionsOf(this, missing, numPartitions, m), m);
    }
    return knownParts(parts, ids, n, new Int32Array(n));
  }

  /** Bytes the table holds: every typed array at its capacity, plus the dictionaries. */
  bytes(): number {
    let n = this.flags.byteLength + this.eh.byteLength + this.parts.byteLength + this.slots.byteLength + this.freeIds.data.byteLength;
    for (const a of this.ik) n += a.byteLength;
    for (const a of this.fk) n += a.byteLength;
    for (const a of this.kv) if (a) n += a.byteLength;
    for (const a of this.bv) n += a.byteLength;
    for (const a of this.bvalid) if (a) n += a.byteLength;
    for (const d of this.strDicts) if (d) n += d.bytes();
    for (const d of this.tupleDicts) if (d) n += d.bytes();
    n += this.touched.data.byteLength + this.removed.data.byteLength + this.undo.bytes();
    return n;
  }
}

/** Writes the ids whose flag `bit` is (or is not) set into `out`; returns how many (the loop alone: see docs/architecture.md, "Hot path rules"). */
function idsWithFlag(flags: Uint8Array, ids: Int32Array, bit: number, set: boolean, out: Int32Array): number {
  let k = 0;
  for (let i = 0; i < ids.length; i++) {
    const e = ids[i]!;
    if (((flags[e]! & bit) !== 0) === set) out[k++] = e;
  }
  return k;
}

// `partitionsOf`' loops over the cached partitions (parts[e] = partition + 1, 0: not known yet).
function countUnknownParts(parts: Int32Array, ids: Int32Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) if (parts[ids[i]!] === 0) m++;
  return m;
}

function unknownParts(parts: Int32Array, ids: Int32Array, n: number, m: number): Int32Array {
  const missing = new Int32Array(m);
  for (let i = 0, j = 0; i < n; i++) if (parts[ids[i]!] === 0) missing[j++] = ids[i]!;
  return missing;
}

function rememberParts(parts: Int32Array, missing: Int32Array, computed: Int32Array, m: number): void {
  for (let j = 0; j < m; j++) parts[missing[j]!] = computed[j]! + 1;
}

function knownParts(parts: Int32Array, ids: Int32Array, n: number, out: Int32Array): Int32Array {
  for (let i = 0; i < n; i++) out[i] = parts[ids[i]!]! - 1;
  return out;
}
