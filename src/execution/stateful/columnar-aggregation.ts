/**
 * The state-side half of one micro-batch of a columnar aggregation, against one store: fold
 * the batch's rows (keys already evaluated, late rows already taken out) into the state table,
 * emit by output mode, evict by the watermark, commit. `ColumnarBackend` (columnar-backend.ts)
 * runs it on the main thread over a store holding every partition; with state threads
 * (docs/parallel-execution.md) each thread runs it over the partitions it owns, on the rows
 * routed to it — the same code, so the two cannot drift apart.
 *
 * Steps, as in Spark's StateStoreSaveExec:
 *   1. look the rows' keys up in the state table (`lookupOrInsert`: entry ids from the
 *      persistent index, new keys inserted) and fold them into batch-local accumulators by
 *      dense local ids (the entries' order of first touch in this batch); rows that are groups
 *      already (sliding-window panes, pane-aggregation.ts) are merged instead;
 *   2. merge those partial buffers into the table's typed buffer columns in place, by entry id
 *      (columnar-kernels.ts);
 *   3. emit by output mode (`emitByMode`, aggregation-backend.ts, shared with the row store):
 *      update = the entries touched this batch, complete = every entry, append = the
 *      entries evicted by W(N); eviction scans the typed event-time key column (for windows,
 *      the window dictionary first: nothing is scanned until a window closes);
 *   4. commit: the table writes the changed entries as columnar deltas.
 * Output values come from the buffers through fresh accumulators (`merge` + `evaluate`), then
 * the result projection, as the row store backend does (row-backend.ts).
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { ScratchInt32 } from "../../columnar/scratch.js";
import { identityIds } from "../../columnar/vector.js";
import { crashPoint } from "../../common/crash-points.js";
import type { EvalContext } from "../../functions/index.js";
import type { ColumnarStateStore } from "../../state/columnar/index.js";
import type { AggregationSpec } from "../aggregation.js";
import { type CompiledExpr, compileExpr } from "../compile.js";
import {
  type AggregateChunk,
  type AggregateRunOptions,
  type AggregateRunResult,
  type EmitView,
  emitByMode,
} from "./aggregation-backend.js";
import { aggregateBuffers, type ColumnarPlan, type ColumnarPlanOptions, columnarPlanOf } from "./columnar-kernels.js";
import { eventTimeKeyIndex } from "./common.js";

/** Per chunk, the state ids and batch-local group ids of its rows: read by this chunk's accumulators only (columnar/scratch.ts). */
const idScratch = new ScratchInt32();
const localIdScratch = new ScratchInt32();

export class ColumnarAggregation {
  /** Which grouping key carries the watermark (window struct or timestamp), or -1. */
  readonly eventTimeKey: number;
  /** The result projection over the intermediate attributes, compiled once (not per batch). */
  private readonly resultProjection: CompiledExpr[];

  private constructor(
    readonly spec: AggregationSpec,
    readonly plan: ColumnarPlan,
  ) {
    this.eventTimeKey = eventTimeKeyIndex(spec.groupAttrs);
    this.resultProjection = spec.resultExprs.map((e) => compileExpr(e, spec.intermediateAttrs));
  }

  /** The columnar form of this aggregation, or null when its state does not fit the columnar store. */
  static of(spec: AggregationSpec, options: ColumnarPlanOptions = {}): ColumnarAggregation | null {
    const plan = columnarPlanOf(spec, options);
    return plan ? new ColumnarAggregation(spec, plan) : null;
  }

  async run(store: ColumnarStateStore, chunks: readonly AggregateChunk[], o: AggregateRunOptions): Promise<AggregateRunResult> {
    const started = Date.now();
    const spec = this.spec;
    const accs = spec.newAccumulators();
    const table = store.table;
    // 1. keys -> entry ids; rows -> batch-local accumulators
    for (const c of chunks) {
      if (c.n === 0) continue;
      const localIds = localIdScratch.get(c.n);
      store.lookupOrInsert(c.keys, c.n, idScratch.get(c.n), localIds);
      const groups = table.touchedIds().length;
      for (const a of accs) a.resize(groups);
      for (let i = 0; i < accs.length; i++) {
        if (c.partial) accs[i]!.merge(localIds, c.n, c.inputs[i]!);
        else accs[i]!.update(localIds, c.n, c.inputs[i]!);
      }
    }
    // A global aggregate (no keys) has its one row in every batch, even an empty one.
    if (o.globalRow && table.touchedIds().length === 0) {
      store.lookupOrInsert([], 1, new Int32Array(1), new Int32Array(1));
      for (const a of accs) a.resize(1);
    }
    // 2. partial buffers -> the table's buffer columns
    const touched = table.touchedIds().slice();
    const G = touched.length;
    for (let i = 0; i < accs.length && G > 0; i++) {
      this.plan.kernels[i]!(touched, G, accs[i]!.buffers(G), table.bv, table.bvalid, this.plan.offsets[i]!, o.eval.ansi);
    }
    const allUpdatesTimeMs = Date.now() - started;

    // 3. output and eviction
    const removeStart = Date.now();
    const { output, removed } = emitByMode(this.emitView(store, touched, o.eval), o);
    const allRemovalsTimeMs = Date.now() - removeStart;

    // 4. commit
    const commitStart = Date.now();
    await store.commit();
    crashPoint("afterStateCommit", store.version);
    return {
      output: output && output.numRows > 0 ? output : null,
      numRowsUpdated: G,
      numRowsRemoved: removed,
      numRowsTotal: store.numKeys,
      memoryUsedBytes: store.memoryUsedBytes(),
      allUpdatesTimeMs,
      allRemovalsTimeMs,
      commitTimeMs: Date.now() - commitStart,
    };
  }

  /** The table's entries, by id, as `emitByMode` sees them. */
  private emitView(store: ColumnarStateStore, touched: Int32Array, ev: EvalContext): EmitView<Int32Array> {
    return {
      updated: () => touched,
      all: () => store.table.liveIds(),
      expired: (evictMicros) => store.table.expired(this.eventTimeKey, evictMicros),
      size: (ids) => ids.length,
      evaluate: (ids) => this.evaluateIds(store, ids, ev),
      remove: (ids) => store.remove(ids),
    };
  }

  /** Output rows of the given entries: final aggregate values, then the result projection. */
  private evaluateIds(store: ColumnarStateStore, ids: Int32Array, ev: EvalContext): Batch {
    const spec = this.spec;
    const n = ids.length;
    const table = store.table;
    const keys = table.keyVectors(ids);
    const bufs = table.bufferVectors(ids);
    const seq = identityIds(n);
    const accs = spec.newAccumulators(ev);
    const results = accs.map((a, i) => {
      a.resize(n);
      a.merge(seq, n, aggregateBuffers(this.plan, i, bufs, n));
      return a.evaluate(n);
    });
    const intermediate = makeBatch([...keys, ...results], n);
    return makeBatch(
      this.resultProjection.map((f) => f(intermediate, ev)),
      n,
    );
  }
}
