/**
 * One side of a stream-stream join, one state partition, in typed arrays (docs/state.md,
 * "Columnar join state"): the buffered rows in append-only columns (columns.ts), a flag byte
 * per row (matched, removed), and a hash index from the join key (its `joinKey` string, found by
 * the text's FNV-1a hash the caller brings: key-index.ts) to the key's rows, kept as a linked
 * list in row order (first / last per key, next per row).
 *
 * - Removing a row (eviction, left semi's first match) only marks it; the rows' space and the
 *   keys without rows are reclaimed by a compaction at commit once they outnumber the live
 *   ones (row order, and so each key's order, is kept).
 * - Every row has a sequence number, unique in the partition and growing with the row id, which
 *   is how state files name a row (a flag set, a removal) across restarts.
 * - One batch at a time: `beginBatch`, then `commitBatch` (forget the undo log) or
 *   `abortBatch` (back to exactly the state at `beginBatch`). Rows appended in the batch are
 *   the ids from `batchStart` on, so an abort truncates them; a key's list, flags set on older
 *   rows and older rows removed are logged on first change.
 */
import { getValue, type Vector } from "../../columnar/vector.js";
import { keyTextHash } from "../../common/hash.js";
import type { DataType } from "../../types/datatypes.js";
import { AnyColumn, columnFor, F64Column, type JoinColumn, StructColumn, widened } from "./columns.js";
import { KeyIndex } from "./key-index.js";

const MATCHED = 1;
const REMOVED = 2;

const grownI32 = (a: Int32Array, cap: number): Int32Array => {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
};
const grownF64 = (a: Float64Array, cap: number): Float64Array => {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
};
const grownU8 = (a: Uint8Array, cap: number): Uint8Array => {
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
};
const nextCap = (cap: number, need: number): number => {
  let c = Math.max(cap, 64);
  while (c < need) c = c < 65_536 ? c * 2 : Math.ceil(c * 1.25);
  return c;
};

export class JoinSideTable {
  cols: JoinColumn[];
  // Keys.
  private keyIds = new KeyIndex();
  private keyStr: string[] = [];
  private keyStrBytes = 0;
  /** The key's event time (micros) for eviction by key, else NaN. */
  keyTime: Float64Array = new Float64Array(0);
  private keyFirst: Int32Array = new Int32Array(0);
  private keyLast: Int32Array = new Int32Array(0);
  /** Live rows of the key. */
  private keyCount: Int32Array = new Int32Array(0);
  private keyEpoch: Int32Array = new Int32Array(0);
  numKeys = 0;
  /** Keys with at least one live row. */
  liveKeys = 0;
  // Rows.
  rowKey: Int32Array = new Int32Array(0);
  private rowNext: Int32Array = new Int32Array(0);
  private flags: Uint8Array = new Uint8Array(0);
  seq: Float64Array = new Float64Array(0);
  numRows = 0;
  liveRows = 0;
  nextSeq = 0;
  // The open batch.
  private epoch = 0;
  batchStart = 0;
  private keyStart = 0;
  private liveRowsStart = 0;
  private liveKeysStart = 0;
  private nextSeqStart = 0;
  /** Per key changed this batch: id, first, last, count before. */
  private saved: number[] = [];
  /** Rows older than the batch whose matched flag the batch set. */
  flipped: number[] = [];
  /** Rows older than the batch the batch removed. */
  removed: number[] = [];

  constructor(
    readonly types: readonly DataType[],
    /** Compact once removed rows (or keys without rows) outnumber the live ones by this much. */
    private readonly compactSlack = 4096,
  ) {
    this.cols = types.map(columnFor);
  }

  private growKeys(need: number): void {
    if (need <= this.keyTime.length) return;
    const cap = nextCap(this.keyTime.length, need);
    this.keyTime = grownF64(this.keyTime, cap);
    this.keyFirst = grownI32(this.keyFirst, cap);
    this.keyLast = grownI32(this.keyLast, cap);
    this.keyCount = grownI32(this.keyCount, cap);
    this.keyEpoch = grownI32(this.keyEpoch, cap);
  }

  private growRows(need: number): void {
    if (need <= this.rowKey.length) return;
    const cap = nextCap(this.rowKey.length, need);
    this.rowKey = grownI32(this.rowKey, cap);
    this.rowNext = grownI32(this.rowNext, cap);
    this.flags = grownU8(this.flags, cap);
    this.seq = grownF64(this.seq, cap);
    for (const c of this.cols) c.grow(cap);
  }

  /** Log key `k`'s list before its first change in the batch (keys new in the batch need none). */
  private touch(k: number): void {
    if (k >= this.keyStart || this.keyEpoch[k] === this.epoch) return;
    this.keyEpoch[k] = this.epoch;
    this.saved.push(k, this.keyFirst[k]!, this.keyLast[k]!, this.keyCount[k]!);
  }

  keyOf(key: string): number {
    return this.keyIds.find(keyTextHash(key), key, this.keyStr);
  }

  keyString(k: number): string {
    return this.keyStr[k]!;
  }

  /** The live rows of `key` (`hash`: keyTextHash of it) in the order they were stored, appended to `out`; returns how many. */
  rowsOf(key: string, hash: number, out: number[]): number {
    const k = this.keyIds.find(hash, key, this.keyStr);
    if (k < 0 || this.keyCount[k] === 0) return 0;
    let n = 0;
    for (let r = this.keyFirst[k]!; r >= 0; r = this.rowNext[r]!) {
      if (this.flags[r]! & REMOVED) continue;
      out.push(r);
      n++;
    }
    return n;
  }

  /** Appends a row to `key` (`values[from ..]` are its fields); returns its id. */
  append(key: string, keyTime: number, values: readonly unknown[], from: number, matched: boolean, seq = this.nextSeq): number {
    const r = this.newRow(key, keyTextHash(key), keyTime, matched, seq);
    const cols = this.cols;
    for (let c = 0; c < cols.length; c++) {
      const v = values[from + c];
      if (!cols[c]!.set(r, v)) {
        cols[c] = widened(cols[c]!, r);
        cols[c]!.set(r, v);
      }
    }
    return r;
  }

  /** Appends row `i` of the vectors `vs` (one per column) to `key` (`hash`: keyTextHash of it); returns its id. */
  appendFrom(key: string, hash: number, keyTime: number, vs: readonly Vector[], i: number, matched: boolean): number {
    const r = this.newRow(key, hash, keyTime, matched, this.nextSeq);
    const cols = this.cols;
    for (let c = 0; c < cols.length; c++) {
      if (!cols[c]!.setFrom(r, vs[c]!, i)) {
        cols[c] = widened(cols[c]!, r);
        cols[c]!.set(r, getValue(vs[c]!, i));
      }
    }
    return r;
  }

  /** A new row at the end of `key`'s list, its fields not yet set. */
  private newRow(key: string, hash: number, keyTime: number, matched: boolean, seq: number): number {
    let k = this.keyIds.find(hash, key, this.keyStr);
    if (k < 0) {
      k = this.numKeys++;
      this.growKeys(this.numKeys);
      this.keyIds.add(k, hash);
      this.keyStr[k] = key;
      this.keyStrBytes += key.length;
      this.keyTime[k] = keyTime;
      this.keyFirst[k] = -1;
      this.keyLast[k] = -1;
      this.keyCount[k] = 0;
      this.keyEpoch[k] = 0;
    } else this.touch(k);
    const r = this.numRows++;
    this.growRows(this.numRows);
    this.rowKey[r] = k;
    this.rowNext[r] = -1;
    this.flags[r] = matched ? MATCHED : 0;
    this.seq[r] = seq;
    this.nextSeq = Math.max(this.nextSeq, seq + 1);
    const last = this.keyLast[k]!;
    if (last >= 0) this.rowNext[last] = r;
    else this.keyFirst[k] = r;
    this.keyLast[k] = r;
    if (this.keyCount[k]!++ === 0) this.liveKeys++;
    this.liveRows++;
    return r;
  }

  value(r: number, c: number): unknown {
    return this.cols[c]!.get(r);
  }

  /** Copies row `r`'s fields into `out` from position `at`. */
  copyRow(r: number, out: unknown[], at: number): void {
    const cols = this.cols;
    for (let c = 0; c < cols.length; c++) out[at + c] = cols[c]!.get(r);
  }

  matched(r: number): boolean {
    return (this.flags[r]! & MATCHED) !== 0;
  }

  setMatched(r: number): void {
    if (this.flags[r]! & MATCHED) return;
    this.flags[r]! |= MATCHED;
    if (r < this.batchStart) this.flipped.push(r);
  }

  isLive(r: number): boolean {
    return (this.flags[r]! & REMOVED) === 0;
  }

  /** Removes a live row. */
  remove(r: number): void {
    const k = this.rowKey[r]!;
    this.touch(k);
    this.flags[r]! |= REMOVED;
    if (r < this.batchStart) this.removed.push(r);
    this.liveRows--;
    if (--this.keyCount[k]! === 0) {
      this.keyFirst[k] = -1;
      this.keyLast[k] = -1;
      this.liveKeys--;
    }
  }

  /** Removes every row of the keys whose event time is at or below `maxMicros`, handing each to `onRow` first. */
  evictKeys(maxMicros: number, onRow: (r: number) => void): number {
    let n = 0;
    const time = this.keyTime;
    const count = this.keyCount;
    for (let k = 0; k < this.numKeys; k++) {
      if (count[k] === 0 || !(time[k]! <= maxMicros)) continue;
      for (let r = this.keyFirst[k]!; r >= 0; r = this.rowNext[r]!) {
        if (this.flags[r]! & REMOVED) continue;
        onRow(r);
        this.remove(r);
        n++;
      }
    }
    return n;
  }

  /** Removes the rows whose column `c` (a time, or a window: its end) is at or below `maxMicros`. */
  evictRows(c: number, maxMicros: number, onRow: (r: number) => void): number {
    let n = 0;
    const end = endReader(this.cols[c]!);
    for (let r = 0; r < this.numRows; r++) {
      if (this.flags[r]! & REMOVED) continue;
      if (end(r) <= maxMicros) {
        onRow(r);
        this.remove(r);
        n++;
      }
    }
    return n;
  }

  beginBatch(): void {
    this.epoch++;
    this.batchStart = this.numRows;
    this.keyStart = this.numKeys;
    this.liveRowsStart = this.liveRows;
    this.liveKeysStart = this.liveKeys;
    this.nextSeqStart = this.nextSeq;
    this.saved = [];
    this.flipped = [];
    this.removed = [];
  }

  hasChanges(): boolean {
    return this.numRows > this.batchStart || this.flipped.length > 0 || this.removed.length > 0;
  }

  /** Rows appended in this batch that are still live. */
  appendedLive(): number[] {
    const out: number[] = [];
    for (let r = this.batchStart; r < this.numRows; r++) if (!(this.flags[r]! & REMOVED)) out.push(r);
    return out;
  }

  /** Every live row, in order. */
  liveIds(): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.numRows; r++) if (!(this.flags[r]! & REMOVED)) out.push(r);
    return out;
  }

  /** Back to the state at `beginBatch`. */
  abortBatch(): void {
    for (const r of this.flipped) this.flags[r]! &= ~MATCHED;
    for (const r of this.removed) this.flags[r]! &= ~REMOVED;
    const s = this.saved;
    for (let i = 0; i < s.length; i += 4) {
      const k = s[i]!;
      this.keyFirst[k] = s[i + 1]!;
      this.keyLast[k] = s[i + 2]!;
      this.keyCount[k] = s[i + 3]!;
      if (s[i + 2]! >= 0) this.rowNext[s[i + 2]!] = -1;
    }
    for (let k = this.keyStart; k < this.numKeys; k++) this.keyStrBytes -= this.keyStr[k]!.length;
    if (this.numKeys > this.keyStart) {
      const index = this.keyIds;
      index.rebuild(this.keyStart, (k) => index.hashOf(k));
    }
    this.keyStr.length = this.keyStart;
    this.numKeys = this.keyStart;
    this.numRows = this.batchStart;
    for (const c of this.cols) c.truncate(this.numRows);
    this.liveRows = this.liveRowsStart;
    this.liveKeys = this.liveKeysStart;
    this.nextSeq = this.nextSeqStart;
    this.beginBatch();
  }

  /** The batch is committed: forget its undo log, and compact if removed rows or keys pile up. */
  commitBatch(): void {
    const deadRows = this.numRows - this.liveRows;
    const deadKeys = this.numKeys - this.liveKeys;
    if (deadRows > this.liveRows + this.compactSlack || deadKeys > this.liveKeys + this.compactSlack) this.compact();
    this.beginBatch();
  }

  /** Drops removed rows and keys without rows, keeping the order of both. */
  private compact(): void {
    const keyMap = new Int32Array(this.numKeys).fill(-1);
    const keptKeys: number[] = [];
    const keyStr: string[] = [];
    let nk = 0;
    let bytes = 0;
    for (let k = 0; k < this.numKeys; k++) {
      if (this.keyCount[k] === 0) continue;
      keyMap[k] = nk;
      const s = this.keyStr[k]!;
      keptKeys.push(k);
      keyStr[nk] = s;
      bytes += s.length;
      this.keyTime[nk] = this.keyTime[k]!;
      this.keyCount[nk] = 0;
      this.keyFirst[nk] = -1;
      this.keyLast[nk] = -1;
      this.keyEpoch[nk] = 0;
      nk++;
    }
    let nr = 0;
    for (let r = 0; r < this.numRows; r++) {
      if (this.flags[r]! & REMOVED) continue;
      const k = keyMap[this.rowKey[r]!]!;
      if (nr !== r) {
        for (const c of this.cols) c.move(nr, r);
        this.flags[nr] = this.flags[r]!;
        this.seq[nr] = this.seq[r]!;
      }
      this.rowKey[nr] = k;
      this.rowNext[nr] = -1;
      const last = this.keyLast[k]!;
      if (last >= 0) this.rowNext[last] = nr;
      else this.keyFirst[k] = nr;
      this.keyLast[k] = nr;
      this.keyCount[k]!++;
      nr++;
    }
    for (const c of this.cols) if (c instanceof AnyColumn) c.truncate(nr);
    const index = this.keyIds;
    index.rebuild(nk, (id) => index.hashOf(keptKeys[id]!));
    this.keyStr = keyStr;
    this.keyStrBytes = bytes;
    this.numKeys = nk;
    this.liveKeys = nk;
    this.numRows = nr;
    this.liveRows = nr;
    // Give back memory once the state shrank to a small part of its columns.
    if (this.rowKey.length > 4 * nextCap(0, nr) && this.rowKey.length > 4096) this.shrink();
  }

  private shrink(): void {
    const rowCap = nextCap(0, this.numRows);
    const keyCap = nextCap(0, this.numKeys);
    this.rowKey = this.rowKey.slice(0, rowCap);
    this.rowNext = this.rowNext.slice(0, rowCap);
    this.flags = this.flags.slice(0, rowCap);
    this.seq = this.seq.slice(0, rowCap);
    for (const c of this.cols) c.shrink(rowCap);
    this.keyTime = this.keyTime.slice(0, keyCap);
    this.keyFirst = this.keyFirst.slice(0, keyCap);
    this.keyLast = this.keyLast.slice(0, keyCap);
    this.keyCount = this.keyCount.slice(0, keyCap);
    this.keyEpoch = this.keyEpoch.slice(0, keyCap);
  }

  /** The row id of sequence number `seq` (binary search: sequence numbers grow with row ids), or -1. */
  rowOfSeq(seq: number): number {
    let lo = 0;
    let hi = this.numRows - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.seq[mid]!;
      if (s === seq) return mid;
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Exact bytes of the typed arrays, plus an estimate for keys and plain columns. */
  bytes(): number {
    let n =
      this.rowKey.byteLength +
      this.rowNext.byteLength +
      this.flags.byteLength +
      this.seq.byteLength +
      this.keyTime.byteLength +
      this.keyFirst.byteLength +
      this.keyLast.byteLength +
      this.keyCount.byteLength +
      this.keyEpoch.byteLength;
    for (const c of this.cols) n += c.bytes();
    // The index's arrays, and a string (header + one byte per character) per key.
    return n + this.keyIds.bytes() + this.numKeys * 16 + this.keyStrBytes;
  }
}

/** A NULL time: no watermark passes it (Spark's `time <= watermark` is NULL), so the row is never evicted by it. */
const NO_TIME = Number.NaN;

/** A row's time as eviction compares it (a time, or a window's end; NULL: NO_TIME), read without building the value. */
function endReader(c: JoinColumn): (r: number) => number {
  if (c instanceof F64Column) return (r) => (c.valid[r] ? c.values[r]! : NO_TIME);
  if (c instanceof StructColumn) {
    const f = c.names.indexOf("end");
    if (f < 0) return () => NO_TIME;
    const end = c.fields[f]!;
    return (r) => (c.valid[r] && end.valid[r] ? end.values[r]! : NO_TIME);
  }
  return (r) => {
    const v = c.get(r);
    return typeof v === "number" ? v : ((v as { end?: number } | null)?.end ?? NO_TIME);
  };
}
