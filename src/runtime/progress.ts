/**
 * StreamingQueryProgress: the per-trigger report with Spark's field names, key order and
 * number formats (rates rounded HALF_UP to one decimal; empty maps and non-finite rates left
 * out), so tools that read Spark's progress JSON read arus's too.
 */
import { isoUtcMillis } from "../common/datetime/index.js";
import type { Offset, SourceBacklog } from "../connectors/source.js";
import type { LatenessSamples, StateOperatorMetrics } from "../execution/stateful/context.js";

export interface SourceProgress {
  description: string;
  startOffset: Offset | null;
  endOffset: Offset | null;
  latestOffset: Offset | null;
  numInputRows: number;
  inputRowsPerSecond?: number;
  processedRowsPerSecond?: number;
  metrics?: Record<string, string>;
}

export interface StateOperatorProgress extends Omit<StateOperatorMetrics, "numLateInputRows"> {}

export interface StreamingQueryProgress {
  id: string;
  runId: string;
  name: string | null;
  timestamp: string;
  batchId: number;
  batchDuration: number;
  numInputRows: number;
  inputRowsPerSecond?: number;
  processedRowsPerSecond?: number;
  durationMs?: Record<string, number>;
  eventTime?: Record<string, string>;
  stateOperators: StateOperatorProgress[];
  sources: SourceProgress[];
  sink: { description: string; numOutputRows: number; metrics?: Record<string, string> };
  observedMetrics?: Record<string, unknown>;
  /** arus: late input rows per stateful operator (Spark counts groups, not rows). */
  arus?: ArusProgress;
}

export interface ArusProgress {
  numLateInputRows: number;
  lateness?: Record<string, LatenessProfile>;
  /** Per source (same order as `sources`): files and bytes listed but not yet in a batch; null when a source does not say. */
  sourceBacklog?: (SourceBacklog | null)[];
  /** Group mode (arus.cluster.group): this worker's part of the group (docs/scale-out.md). */
  cluster?: ClusterProgress;
}

export interface ClusterProgress {
  group: string;
  worker: string;
  generationId: number;
  /** The tasks (repartition partitions) whose state this worker owns and ran in the batch. */
  tasks: number[];
  /** Rows stage A routed to the repartition topic. */
  repartitionedRows: number;
  /** Joins of the group since this worker started (the first join counts). */
  rebalances: number;
  /** Batches this worker aborted and retried (fenced by the group, or a transient broker error). */
  abortedTransactions: number;
  /** Tasks restored before this batch (the last rebalance's), summed over those tasks. */
  restore?: {
    tasks: number;
    /** Changelog records replayed. */
    records: number;
    ms: number;
    /** Of those tasks, how many started from a local snapshot and replayed only the changelog's tail. */
    fromSnapshot: number;
    /** Of those, how many took their snapshot from the group's snapshot topic (arus.cluster.publishSnapshots). */
    fromPublishedSnapshot: number;
    /** State entries loaded from snapshots. */
    snapshotRecords: number;
    /** Changelog offsets the replays spanned (records plus transaction markers and compacted gaps). */
    offsets: number;
    /** Snapshots found but not used (damaged, too old, another pipeline's, or beyond the changelog). */
    ignoredSnapshots: number;
  };
  /** Tasks restored since this worker started: a task it keeps through a rebalance is not restored again. */
  restoredTasks: number;
}

/** How far rows trailed the max event time seen before them, per watermark column (ms). */
export interface LatenessProfile {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Delay that would have kept 99 % / 99.9 % of rows. */
  delayFor99: number;
  delayFor999: number;
}

/** Spark's HALF_UP rounding to one decimal, or undefined for NaN / infinity. */
export function rate(x: number): number | undefined {
  if (!Number.isFinite(x)) return undefined;
  return (Math.sign(x) * Math.floor(Math.abs(x) * 10 + 0.5 + 1e-9)) / 10;
}

export function eventTimeMap(
  stats: { max: number; min: number; sum: number; count: number } | null,
  watermarkMs: number | null,
): Record<string, string> | undefined {
  const m: Record<string, string> = {};
  if (stats && stats.count > 0) {
    m.avg = isoUtcMillis(Math.round(stats.sum / stats.count));
    m.max = isoUtcMillis(stats.max);
    m.min = isoUtcMillis(stats.min);
  }
  if (watermarkMs !== null) m.watermark = isoUtcMillis(watermarkMs);
  return Object.keys(m).length ? m : undefined;
}

/** Drop undefined keys and empty maps so JSON.stringify gives Spark's shape. */
export function clean<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0 && k !== "startOffset") continue;
    out[k] = v;
  }
  return out as T;
}

/** Sort a map's keys alphabetically (Spark serializes durationMs / eventTime sorted). */
export function sortedMap<V>(m: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Percentiles of lateness samples (ms; the watermark node took them, `LatenessSamples`). */
export function latenessProfile(lateness: LatenessSamples): LatenessProfile {
  const n = lateness.count;
  const max = lateness.max;
  const s = lateness.samples.slice();
  const rank = (p: number) => Math.min(s.length - 1, Math.ceil(p * s.length) - 1);
  // Four order statistics, not a sort: each selection leaves the ranks above it to the right,
  // so the next one searches only there (on the main thread, every batch, up to 16 384 samples).
  const ranks = [rank(0.5), rank(0.9), rank(0.99), rank(0.999)];
  const at: number[] = [];
  let from = 0;
  for (const r of ranks) {
    if (r < 0) at.push(0);
    else {
      select(s, from, s.length - 1, r);
      at.push(s[r]!);
      from = r;
    }
  }
  return { count: n, p50: at[0]!, p90: at[1]!, p99: at[2]!, max, delayFor99: at[2]!, delayFor999: at[3]! };
}

/** Puts the value of rank k (ascending) of a[lo..hi] at k, smaller ones before it, larger after (Hoare's quickselect). */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // median of three as the pivot: sorted or constant input stays linear
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) swap(a, i++, j--);
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}
