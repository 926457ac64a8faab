/**
 * A join side over the row stores, one per partition, in join-state.ts's layout (a count per
 * key, one `[matched, ...row]` entry per row). Refs index this batch's `Stored` rows; a probe
 * reads each key's rows once and keeps that list current as rows are flagged, and removals
 * rewrite the key's rows when the probe ends.
 */
import type { Vector } from "../../columnar/vector.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import type { StateStore } from "../../state/store.js";
import type { DataType } from "../../types/datatypes.js";
import { partitionOf } from "./common.js";
import { isNullKey, NULL_KEY } from "./join-input.js";
import { columnOfValues, endOf, type JoinSide, rowOf } from "./join-side.js";
import { allKeys, appendRows, removeKey, replaceRows, rowsOf, type Stored, setRow, totalRows } from "./join-state.js";

export class RowJoinSide implements JoinSide {
  private readonly refRows: Stored[] = [];
  private readonly refKey: string[] = [];
  private readonly refIdx: number[] = [];
  /** This probe's lists: a key's rows (current) and their refs. */
  private lists = new Map<string, { rows: Stored[]; refs: number[] }>();
  private removed = new Map<string, Set<number>>();
  private readonly pending = new Map<string, Stored[]>();
  /** Rows stored in this batch, per key (the last ones of the key's list). */
  private readonly added = new Map<string, number>();

  constructor(
    private readonly stores: StateStore[],
    /**
     * Event time (micros) of join keys, for a side evicted by a time in its key: a pure function
     * of the key string, kept across batches so eviction parses a key at most once.
     */
    private readonly keyEnds: Map<string, number>,
  ) {}

  private storeOf(key: string): StateStore {
    return this.stores[partitionOf(key, this.stores.length)]!;
  }

  private ref(row: Stored, key: string, idx: number): number {
    this.refRows.push(row);
    this.refKey.push(key);
    this.refIdx.push(idx);
    return this.refRows.length - 1;
  }

  rowsOf(key: string, _hash: number, _part: number, out: number[]): void {
    let l = this.lists.get(key);
    if (!l) {
      const rows = rowsOf(this.storeOf(key), key);
      l = { rows, refs: rows.map((r, i) => this.ref(r, key, i)) };
      this.lists.set(key, l);
    }
    for (const r of l.refs) out.push(r);
  }

  copyRow(ref: number, out: unknown[], at: number): void {
    const s = this.refRows[ref]!;
    for (let i = 1; i < s.length; i++) out[at + i - 1] = s[i];
  }

  value(ref: number, c: number): unknown {
    return this.refRows[ref]![c + 1];
  }

  column(c: number, type: DataType, refs: readonly number[]): Vector {
    return columnOfValues(this, c, type, refs);
  }

  matched(ref: number): boolean {
    return this.refRows[ref]![0] !== 0;
  }

  setMatched(ref: number): void {
    const before = this.refRows[ref]!;
    if (before[0] === 1) return;
    // Stored rows are never mutated: the flagged row is a copy.
    const copy = [...before] as Stored;
    copy[0] = 1;
    const key = this.refKey[ref]!;
    const idx = this.refIdx[ref]!;
    this.refRows[ref] = copy;
    const l = this.lists.get(key);
    if (l) l.rows[idx] = copy;
    setRow(this.storeOf(key), key, idx, copy);
  }

  remove(ref: number): void {
    const key = this.refKey[ref]!;
    const gone = this.removed.get(key) ?? new Set<number>();
    gone.add(this.refIdx[ref]!);
    this.removed.set(key, gone);
  }

  isNew(ref: number): boolean {
    const key = this.refKey[ref]!;
    const l = this.lists.get(key);
    const length = l ? l.rows.length : 0;
    return this.refIdx[ref]! >= length - (this.added.get(key) ?? 0);
  }

  endProbe(): void {
    for (const [key, gone] of this.removed) {
      const list = this.lists.get(key)!.rows;
      replaceRows(
        this.storeOf(key),
        key,
        list.filter((_, i) => !gone.has(i)),
        Math.min(...gone),
      );
    }
    this.removed = new Map();
    this.lists = new Map();
  }

  append(key: string, _hash: number, _part: number, keyTime: number, cols: readonly Vector[], i: number, matched: boolean): void {
    const stored = [matched ? 1 : 0, ...rowOf(cols, i)] as Stored;
    const rows = this.pending.get(key);
    if (rows) rows.push(stored);
    else this.pending.set(key, [stored]);
    if (!Number.isNaN(keyTime)) this.keyEnds.set(key, keyTime);
  }

  flush(): void {
    // A key's new rows are stored together: its count is read and written once.
    for (const [key, rows] of this.pending) {
      appendRows(this.storeOf(key), key, rows);
      this.added.set(key, (this.added.get(key) ?? 0) + rows.length);
    }
    this.pending.clear();
  }

  evict(cleanup: SideCleanup, evictMs: number, onRow: (ref: number) => void): number {
    const ends = this.keyEnds;
    const { keyIndex, value } = cleanup;
    // Evicted rows are handed over through one ref, rewritten per row (it is read during the call only).
    const ref = this.ref([0], "", 0);
    const visit = (r: Stored) => {
      this.refRows[ref] = r;
      onRow(ref);
    };
    let removed = 0;
    const live: string[] = [];
    for (const s of this.stores) {
      for (const key of allKeys(s)) {
        if (keyIndex !== undefined) {
          // A watermark in the join key settles all of the key's rows at once.
          let end = ends.get(key);
          if (end === undefined) {
            // A key stored before this process (restored state): parse it once.
            const t = (JSON.parse(isNullKey(key) ? key.slice(NULL_KEY.length) : key) as unknown[])[keyIndex];
            end = t === null ? Number.NaN : endOf(t);
            ends.set(key, end);
          }
          // (NaN: a NULL time, which no watermark passes)
          if (!(end <= evictMs * 1000)) {
            live.push(key);
            continue;
          }
          ends.delete(key);
          removed += removeKey(s, key, visit);
          continue;
        }
        const list = rowsOf(s, key);
        const keep: Stored[] = [];
        let first = -1;
        list.forEach((r, i) => {
          if (endOf(r[value!.column + 1]) <= (evictMs + value!.offsetMs) * 1000) {
            visit(r);
            removed++;
            if (first < 0) first = i;
          } else keep.push(r);
        });
        if (first >= 0) replaceRows(s, key, keep, first);
      }
    }
    // Keys that left the state other than by eviction (or were never stored) leave the cache
    // once it holds many more keys than the state.
    if (keyIndex !== undefined && ends.size > 2 * live.length + 1024) {
      const kept = live.map((k) => [k, ends.get(k)!] as const);
      ends.clear();
      for (const [k, e] of kept) ends.set(k, e);
    }
    return removed;
  }

  async commit(): Promise<number> {
    let total = 0;
    for (const s of this.stores) {
      await s.commit();
      total += totalRows(s);
    }
    return total;
  }

  /** Every partition's store (Spark sums the join's stores, both sides). */
  memoryUsedBytes(): number {
    let n = 0;
    for (const s of this.stores) n += s.memoryUsedBytes();
    return n;
  }
}
