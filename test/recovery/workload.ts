/**
 * The workload of the crash tests, shared by the parent (crash.test.ts, scripts/soak.ts) and
 * the child (crash-harness.ts): input files, the query, the expected result and how outputs
 * are read back and compared.
 *
 * Input: `files` JSON files of `rows` events each. File i covers event time
 * [T0 + 5 s·i, T0 + 5 s·(i+1)), rows shuffled inside the file; keys k0..k2. The query counts
 * per 10-second window and key with a 5-second watermark, append mode. Time only moves
 * forward from file to file, so no row is ever late, whatever the batch boundaries: a run that
 * crashed (where one batch may end up reading two files) must produce exactly the rows of an
 * uninterrupted run.
 *
 * The flush file: one row an hour after the data. Append mode emits a window only in a batch
 * after the watermark passed it; after a restart Spark (and arus) run no "no-data batch" until
 * new data arrives (semantics.md §1.5), so a crash right after the last data batch committed
 * defers the last windows until more data comes. Adding the flush file is that "more data": it
 * closes every real window, and its own window stays open (never emitted).
 */
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const T0 = Date.UTC(2024, 0, 1);
export const FILE_SPAN_MS = 5_000;
export const WINDOW_MS = 10_000;
export const DELAY_MS = 5_000;
export const KEYS = 3;
export const FLUSH_NAME = "zz-flush.json";
export const SCHEMA = "id LONG, key STRING, ts TIMESTAMP";

export interface Workload {
  files: number;
  rows: number;
}

export interface Event {
  id: number;
  key: string;
  ts: number;
}

export function events(w: Workload, file: number): Event[] {
  const out: Event[] = [];
  const step = FILE_SPAN_MS / w.rows;
  for (let j = 0; j < w.rows; j++) {
    // A fixed shuffle of the file's time slots (7 is coprime with most sizes; fall back to 1).
    const mult = w.rows % 7 === 0 ? 1 : 7;
    const slot = (j * mult) % w.rows;
    out.push({ id: file * w.rows + j, key: `k${(file * 7 + j) % KEYS}`, ts: T0 + file * FILE_SPAN_MS + Math.floor(slot * step) });
  }
  return out;
}

function line(e: Event): string {
  return JSON.stringify({ id: e.id, key: e.key, ts: new Date(e.ts).toISOString() });
}

/** Modification times one second apart, so the source takes files in order. */
function mtime(file: number): Date {
  return new Date(1_700_000_000_000 + file * 1_000);
}

export function writeInput(dir: string, w: Workload): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < w.files; i++) {
    const p = join(dir, `part-${String(i).padStart(5, "0")}.json`);
    writeFileSync(p, `${events(w, i).map(line).join("\n")}\n`);
    utimesSync(p, mtime(i), mtime(i));
  }
}

export function flushEvent(w: Workload): Event {
  return { id: -1, key: "flush", ts: T0 + w.files * FILE_SPAN_MS + 3_600_000 };
}

export function addFlushFile(dir: string, w: Workload): void {
  const p = join(dir, FLUSH_NAME);
  writeFileSync(p, `${line(flushEvent(w))}\n`);
  utimesSync(p, mtime(w.files + 10), mtime(w.files + 10));
}

export function hasFlushFile(dir: string): boolean {
  return readdirSync(dir).includes(FLUSH_NAME);
}

/** One output row as text: `start|end|key|count` (times as ISO strings). */
export type OutRow = string;

export function outRow(start: unknown, end: unknown, key: unknown, count: unknown): OutRow {
  const iso = (v: unknown) => new Date(v as string | number | Date).toISOString();
  return `${iso(start)}|${iso(end)}|${String(key)}|${Number(count)}`;
}

/**
 * What the query must have emitted: every window the final watermark closed (all real windows
 * once the flush file is in), with its full count. Sorted, one entry per (window, key).
 */
export function expectedRows(w: Workload, flushed: boolean): OutRow[] {
  const all = Array.from({ length: w.files }, (_, i) => events(w, i)).flat();
  const maxTs = flushed ? flushEvent(w).ts : Math.max(...all.map((e) => e.ts));
  const watermark = maxTs - DELAY_MS;
  const counts = new Map<string, number>();
  for (const e of all) {
    const start = Math.floor((e.ts - T0) / WINDOW_MS) * WINDOW_MS + T0;
    if (start + WINDOW_MS > watermark) continue;
    const k = `${start}|${e.key}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts]
    .map(([k, n]) => {
      const [start, key] = k.split("|");
      return outRow(Number(start), Number(start) + WINDOW_MS, key, n);
    })
    .sort();
}

/** Multiset difference a − b (sorted inputs not required). */
export function minus(a: readonly OutRow[], b: readonly OutRow[]): OutRow[] {
  const left = new Map<OutRow, number>();
  for (const r of b) left.set(r, (left.get(r) ?? 0) + 1);
  const out: OutRow[] = [];
  for (const r of a) {
    const n = left.get(r) ?? 0;
    if (n > 0) left.set(r, n - 1);
    else out.push(r);
  }
  return out;
}

export function duplicates(rows: readonly OutRow[]): OutRow[] {
  const seen = new Set<OutRow>();
  const out: OutRow[] = [];
  for (const r of rows) {
    if (seen.has(r)) out.push(r);
    seen.add(r);
  }
  return out;
}

/** Lines `{"b":batchId,"d":digest,"n":rows}` the child appends before each foreachBatch write. */
export interface Delivery {
  b: number;
  d: string;
  n: number;
}

/** Read a delivery log; a last line cut short by SIGKILL is ignored. */
export function readDeliveries(file: string): Delivery[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: Delivery[] = [];
  for (const l of text.split("\n")) {
    if (!l) continue;
    try {
      out.push(JSON.parse(l) as Delivery);
    } catch {
      // torn write of the last line
    }
  }
  return out;
}

/** Batch ids delivered with different rows on different attempts (must be none). */
export function inconsistentReplays(deliveries: readonly Delivery[]): string[] {
  const first = new Map<number, Delivery>();
  const bad: string[] = [];
  for (const d of deliveries) {
    const f = first.get(d.b);
    if (!f) first.set(d.b, d);
    else if (f.d !== d.d) bad.push(`batch ${d.b}: ${f.n} rows (${f.d}) then ${d.n} rows (${d.d})`);
  }
  return bad;
}

export function replayCount(deliveries: readonly Delivery[]): number {
  return deliveries.length - new Set(deliveries.map((d) => d.b)).size;
}
