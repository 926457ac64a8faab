/**
 * The timers of a transformWithState operator. In the store each grouping key with timers has
 * one row `t\u0001<grouping key>` = [keyValues[], ...expiry timestamps (ms)]. In memory the
 * operator keeps an index over every partition (key → its timers, and a min-heap by expiry),
 * so finding the expired timers costs the timers that expire, not a scan of the state. The
 * index is rebuilt from the stores whenever it may differ from them: at the first batch of a
 * run and after a failed batch (it is valid only for the version its last commit produced).
 */
import type { StateStore } from "../../../state/store.js";
import { SEP } from "./state-vars.js";

export const TIMER_PREFIX = `t${SEP}`;

interface KeyTimers {
  readonly key: readonly unknown[];
  readonly partition: number;
  readonly ts: Set<number>;
}

/** A binary min-heap of [expiry, grouping key text], ordered by expiry then key. */
class TimerHeap {
  private readonly items: [number, string][] = [];
  get size(): number {
    return this.items.length;
  }
  private less(a: [number, string], b: [number, string]): boolean {
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  }
  push(x: [number, string]): void {
    const h = this.items;
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
  peek(): [number, string] | undefined {
    return this.items[0];
  }
  pop(): [number, string] | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

export class TimerIndex {
  private byKey = new Map<string, KeyTimers>();
  private heap = new TimerHeap();
  /** The batch id this index is valid for (-1: rebuild before use). */
  validFor = -1;
  counters = { numRegisteredTimers: 0, numDeletedTimers: 0, numExpiredTimers: 0 };

  /** Read every partition's timers (a store scan; once per run, or after a failed batch). */
  rebuild(stores: readonly StateStore[]): void {
    this.byKey = new Map();
    this.heap = new TimerHeap();
    stores.forEach((s, p) => {
      for (const [k, row] of s.prefixScan(TIMER_PREFIX)) {
        const gk = k.slice(TIMER_PREFIX.length);
        const ts = new Set<number>();
        for (let i = 1; i < row.length; i++) {
          ts.add(row[i] as number);
          this.heap.push([row[i] as number, gk]);
        }
        this.byKey.set(gk, { key: row[0] as unknown[], partition: p, ts });
      }
    });
  }

  /** Each grouping key with timers, and the partition it lives in. */
  *keys(): Iterable<[gk: string, partition: number]> {
    for (const [gk, t] of this.byKey) yield [gk, t.partition];
  }

  private write(store: StateStore, gk: string, t: KeyTimers): void {
    if (t.ts.size === 0) {
      store.remove(TIMER_PREFIX + gk);
      this.byKey.delete(gk);
    } else store.put(TIMER_PREFIX + gk, [t.key, ...[...t.ts].sort((a, b) => a - b)]);
  }

  register(store: StateStore, partition: number, gk: string, key: readonly unknown[], ts: number): void {
    let t = this.byKey.get(gk);
    if (!t) {
      t = { key, partition, ts: new Set() };
      this.byKey.set(gk, t);
    }
    this.counters.numRegisteredTimers++;
    if (t.ts.has(ts)) return;
    t.ts.add(ts);
    this.heap.push([ts, gk]);
    this.write(store, gk, t);
  }

  delete(store: StateStore, gk: string, ts: number): void {
    const t = this.byKey.get(gk);
    this.counters.numDeletedTimers++;
    if (!t?.ts.delete(ts)) return;
    this.write(store, gk, t);
  }

  list(gk: string): number[] {
    return [...(this.byKey.get(gk)?.ts ?? [])].sort((a, b) => a - b);
  }

  /**
   * The timers due at `threshold`, earliest first, taken off the heap; the caller deletes each
   * from the key once its handler ran. transformWithState timers are due at expiry <= threshold
   * (what PySpark 4.3 does, conformance/cases/tws/); GroupState timeouts at expiry < threshold
   * (FlatMapGroupsWithStateExec's strict rule): `inclusive` picks.
   */
  expired(threshold: number, inclusive = true): { ts: number; gk: string; key: readonly unknown[]; partition: number }[] {
    const out: { ts: number; gk: string; key: readonly unknown[]; partition: number }[] = [];
    const seen = new Set<string>();
    const due = (ts: number) => (inclusive ? ts <= threshold : ts < threshold);
    for (let top = this.heap.peek(); top && due(top[0]); top = this.heap.peek()) {
      this.heap.pop();
      const [ts, gk] = top;
      const t = this.byKey.get(gk);
      const id = `${ts}${SEP}${gk}`;
      // Heap entries of deleted timers are dropped here (lazy deletion).
      if (!t?.ts.has(ts) || seen.has(id)) continue;
      seen.add(id);
      out.push({ ts, gk, key: t.key, partition: t.partition });
    }
    return out;
  }

  get size(): number {
    let n = 0;
    for (const t of this.byKey.values()) n += t.ts.size;
    return n;
  }
}
