/**
 * The contract between the one streaming aggregation operator (`StreamingAggregateExec`,
 * streaming-aggregate.ts) and the place its state lives. The operator does everything that does
 * not depend on that place: it evaluates the grouping keys and aggregate inputs of each input
 * batch into `AggregateChunk`s, takes the late rows out, counts them and hands them to the
 * `BatchReport`, and fills the `StateOperatorMetrics` record. A backend takes the chunks once per
 * batch and does the state side: fold them into the stored groups, emit by output mode, evict by
 * the watermark, commit. The backends:
 *   - `RowStoreBackend` (row-backend.ts): the row stores of `state/store.ts` (memory or lmdb
 *     provider), one per key-hash partition;
 *   - `ColumnarBackend` (columnar-backend.ts): the typed-array table of `state/columnar/`;
 *   - `StateThreadsBackend` (parallel/threads-backend.ts): the columnar tables on the state
 *     threads that own the partitions.
 * Output mode and eviction are written once, in `emitByMode`, which every backend calls over its
 * own view of the state (`EmitView`) — on the state threads too.
 */
import type { Batch } from "../../columnar/batch.js";
import type { Vector } from "../../columnar/vector.js";
import type { EvalContext } from "../../functions/index.js";
import type { StateMove } from "../parallel/state-move.js";
import type { StatefulContext } from "./context.js";

/** Rows of one input batch: grouping keys and aggregate inputs, evaluated, late rows removed. */
export interface AggregateChunk {
  readonly keys: readonly Vector[];
  /** Per aggregate call: its argument vectors, or with `partial` its buffer vectors. */
  readonly inputs: readonly (readonly Vector[])[];
  readonly n: number;
  /** The rows are groups already aggregated (pane-aggregation.ts): merge their buffers. */
  readonly partial?: boolean;
  /** With `partial`: the input rows behind each group (late groups count them as late input rows). */
  readonly rows?: Int32Array | Float64Array;
  /** The state thread owning every key of the chunk, of `owners` threads, when stage A routed it (execution/partial/). */
  readonly owner?: number;
  readonly owners?: number;
}

/**
 * An AggregateChunk, always with every field (absent ones undefined): one object shape for all
 * chunks, so the backends' loops over chunks stay monomorphic.
 */
export function aggregateChunk(
  keys: readonly Vector[],
  inputs: readonly (readonly Vector[])[],
  n: number,
  partial?: boolean,
  rows?: Int32Array | Float64Array,
  owner?: number,
  owners?: number,
): AggregateChunk {
  return { keys, inputs, n, partial, rows, owner, owners };
}

export type OutputMode = "append" | "update" | "complete";

export interface AggregateRunOptions {
  readonly mode: OutputMode;
  /** Does the watermark evict this state (an event-time key, not complete mode)? */
  readonly watermarked: boolean;
  /** W(N) in micros: groups at or below it are evicted. */
  readonly evictMicros: number;
  /** A global aggregate's one row goes here (no keys, and this store holds its partition). */
  readonly globalRow: boolean;
  readonly eval: EvalContext;
}

/** What the state side of one batch measured (the operator copies it into the metrics). */
export interface StateSideMetrics {
  readonly numRowsUpdated: number;
  readonly numRowsRemoved: number;
  readonly numRowsTotal: number;
  readonly memoryUsedBytes: number;
  readonly allUpdatesTimeMs: number;
  readonly allRemovalsTimeMs: number;
  readonly commitTimeMs: number;
}

/** One store's (or one state thread's) answer: its output rows, or null when there are none. */
export interface AggregateRunResult extends StateSideMetrics {
  readonly output: Batch | null;
}

/** A backend's answer for the whole batch. */
export interface BackendRunResult extends StateSideMetrics {
  /** Output rows (one batch per store or thread that had any). */
  readonly output: Batch[];
}

export type BackendKind = "row" | "columnar" | "threads";

export interface AggregationBackend {
  readonly kind: BackendKind;
  /** Does the backend run on the state threads (the runtime starts them with the query)? */
  readonly usesStateThreads: boolean;
  /** When the state moves to the state threads from the main thread (parallel/moving-backend.ts). */
  readonly move?: StateMove;
  /** One batch's state side: fold, emit by mode, evict, commit. */
  run(st: StatefulContext, chunks: readonly AggregateChunk[], options: AggregateRunOptions): Promise<BackendRunResult>;
  /** Event times (micros) of the groups still in state as the last batch left it. */
  openEventTimes(): number[];
}

/** A backend's groups as `emitByMode` sees them; `G` is its handle on a set of groups. */
export interface EmitView<G> {
  /** The groups this batch updated, in order of first touch. */
  updated(): G;
  /** Every group in state. */
  all(): G;
  /** The groups whose event time is at or below `evictMicros`. */
  expired(evictMicros: number): G;
  size(groups: G): number;
  /** Output rows of the groups: final aggregate values, then the result projection. */
  evaluate(groups: G): Batch;
  remove(groups: G): void;
}

/**
 * Spark's StateStoreSaveExec output rules, once for every backend: complete = every group;
 * update = the groups updated this batch, then the watermark evicts silently; append = the
 * groups the watermark W(N) evicts (nothing without a watermark).
 */
export function emitByMode<G>(
  view: EmitView<G>,
  o: Pick<AggregateRunOptions, "mode" | "watermarked" | "evictMicros">,
): { output: Batch | null; removed: number } {
  const some = (g: G) => (view.size(g) > 0 ? view.evaluate(g) : null);
  if (o.mode === "complete") return { output: some(view.all()), removed: 0 };
  if (o.mode === "update") {
    const output = some(view.updated());
    if (!o.watermarked) return { output, removed: 0 };
    const doomed = view.expired(o.evictMicros);
    const removed = view.size(doomed);
    if (removed > 0) view.remove(doomed);
    return { output, removed };
  }
  if (!o.watermarked) return { output: null, removed: 0 };
  const doomed = view.expired(o.evictMicros);
  const removed = view.size(doomed);
  if (removed === 0) return { output: null, removed };
  const output = view.evaluate(doomed);
  view.remove(doomed);
  return { output, removed };
}
