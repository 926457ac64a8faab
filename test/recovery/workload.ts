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
 * Flush files. Append mode emits a window only in a batch after the watermark passed it, and
 * after a restart Spark (and arus) run no "no-data batch" until new data arrives
 * (semantics.md §1.5): a crash right after the last data batch committed defers the windows that
 * batch closed until more data comes. So the input ends with two flush files (one row each,
 * key "flush", an hour and two hours after the data): the first closes every real window, the
 * second makes a data batch evict them; only the flush windows themselves can stay deferred, and
 * they are left out of every comparison. (If crashes merged both flush files into one batch,
 * real windows can still be deferred: the driver then adds a third, late flush file and runs
 * once more, as new data would in production.)
 */
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const T0 = Date.UTC(2024, 0, 1);
export const FILE_SPAN_MS = 5_000;
export const WINDOW_MS = 10_000;
export const DELAY_MS = 5_000;
export const KEYS = 3;
export const FLUSH_KEY = "flush";
export const SCHEMA = "id LONG, key STRING, ts TIMESTAMP";

export interface Workload {
  files: number;
  rows: number;
  /** End the input with the two flush files (default true). */
  flushFiles?: boolean;
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

function writeFile(dir: string, name: string, evs: readonly Event[], order: number): void {
  const p = join(dir, name);
  writeFileSync(p, `${evs.map(line).join("\n")}\n`);
  utimesSync(p, mtime(order), mtime(order));
}

export function flushEvent(w: Workload, n: number): Event {
  return { id: -n, key: FLUSH_KEY, ts: T0 + w.files * FILE_SPAN_MS + n * 3_600_000 };
}

export function writeInput(dir: string, w: Workload): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < w.files; i++) writeFile(dir, `part-${String(i).padStart(5, "0")}.json`, events(w, i), i);
  if (w.flushFiles ?? true) {
    writeFile(dir, "zz-flush-1.json", [flushEvent(w, 1)], w.files + 1);
    writeFile(dir, "zz-flush-2.json", [flushEvent(w, 2)], w.files + 2);
  }
}

/** The late flush: new data after the input was done, closing every real window. */
export function addLateFlushFile(dir: string, w: Workload): void {
  if (readdirSync(dir).includes("zz-flush-3.json")) return;
  writeFile(dir, "zz-flush-3.json", [flushEvent(w, 3)], w.files + 3);
}

/** The watermark after a batch that read files 0..i (max event time − delay). */
export function watermarkAfterFile(w: Workload, i: number): number {
  return Math.max(...events(w, i).map((e) => e.ts)) - DELAY_MS;
}

/** One output row as text: `start|end|key|count` (times as ISO strings). */
export type OutRow = string;

export function outRow(start: unknown, end: unknown, key: unknown, count: unknown): OutRow {
  const iso = (v: unknown) => new Date(v as string | number | Date).toISOString();
  return `${iso(start)}|${iso(end)}|${String(key)}|${Number(count)}`;
}

/**
 * The windows of the real data (flush keys left out) that a watermark of `watermarkMs` has
 * closed, each with its full count: what the query must have emitted. Default: all of them.
 */
export function expectedRows(w: Workload, watermarkMs = Number.MAX_SAFE_INTEGER): OutRow[] {
  const counts = new Map<string, number>();
  for (let i = 0; i < w.files; i++) {
    for (const e of events(w, i)) {
      const start = Math.floor((e.ts - T0) / WINDOW_MS) * WINDOW_MS + T0;
      if (start + WINDOW_MS > watermarkMs) continue;
      const k = `${start}|${e.key}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return [...counts]
    .map(([k, n]) => {
      const [start, key] = k.split("|");
      return outRow(Number(start), Number(start) + WINDOW_MS, key, n);
    })
    .sort();
}

export function withoutFlush(rows: readonly OutRow[]): OutRow[] {
  return rows.filter((r) => r.split("|")[2] !== FLUSH_KEY);
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

/**
 * Lines the child appends around each foreachBatch write: `{"b":batchId,"d":digest,"n":rows}`
 * before (one per delivery), `{"b":batchId,"a":applied}` after (false: fenced replay).
 */
export interface Delivery {
  b: number;
  d: string;
  n: number;
}

export interface DeliveryLog {
  deliveries: Delivery[];
  /** Batch ids the writer reported as applied (written), one entry per report. */
  applied: number[];
  /** Batch ids the writer skipped as already written. */
  skipped: number[];
}

/** Read a delivery log; a last line cut short by SIGKILL is ignored. */
export function readDeliveries(file: string): DeliveryLog {
  const log: DeliveryLog = { deliveries: [], applied: [], skipped: [] };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return log;
  }
  for (const l of text.split("\n")) {
    if (!l) continue;
    let v: { b: number; d?: string; n?: number; a?: boolean };
    try {
      v = JSON.parse(l) as typeof v;
    } catch {
      continue; // torn write of the last line
    }
    if (v.a === true) log.applied.push(v.b);
    else if (v.a === false) log.skipped.push(v.b);
    else log.deliveries.push(v as Delivery);
  }
  return log;
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
