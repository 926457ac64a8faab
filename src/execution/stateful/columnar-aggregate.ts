/**
 * Streaming aggregation over the columnar state store (arus.state.aggregation.columnar=true;
 * docs/state.md). Same semantics as `StatefulAggregateExec` (aggregate.ts), vectorized end to
 * end. Per micro-batch this operator evaluates the grouping keys and aggregate inputs of the
 * child's rows and takes out the rows whose event time is at or below the late watermark
 * W(N-1) (counted per group, as Spark does, and handed to the late-rows sink); the state side
 * (fold into the table, emit by output mode, evict, commit) is `ColumnarAggregation.run`
 * (columnar-aggregation.ts), run here against a store of every partition, or on the state
 * threads that own the partitions (`arus.state.threads`, parallel/state-threads.ts).
 *
 * The planner builds it from a `ColumnarAggregation`, which exists only for aggregations the
 * columnar store can hold (`ColumnarAggregation.of` is null for non-numeric buffers such as
 * collect_list or min of a string, DISTINCT, keys that are arrays, maps, binary or structs with
 * non-numeric fields): planner/streaming.ts `aggregationState` makes that choice up front.
 */
import { type Batch, takeBatch } from "../../columnar/batch.js";
import { take, type Vector } from "../../columnar/vector.js";
import { type Attribute, type Expr, exprIdsInUse } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { ColumnarSchema, ColumnarStateStore } from "../../state/columnar/index.js";
import type { AggregationSpec } from "../aggregation.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, OpenGroups, PhysicalOperator } from "../operator.js";
import type { ColumnarOperatorDef } from "../parallel/state-threads.js";
import type { AggregateChunk, ColumnarAggregation } from "./columnar-aggregation.js";
import { eventTimeMicros, lateRowsOf, newMetrics } from "./common.js";
import { watermarksOf } from "./context.js";
import { type PaneShape, type PreparedChunks, paneChunks, paneShapeOf } from "./pane-aggregation.js";

export class ColumnarAggregateExec implements PhysicalOperator {
  readonly name = "StateStoreSave";
  readonly usesStateThreads = true;
  readonly children: PhysicalOperator[];
  /** Which grouping key carries the watermark (window struct or timestamp), or -1. */
  readonly eventTimeKey: number;
  private lastStore: ColumnarStateStore | null = null;
  /** A sliding window aggregated by panes (pane-aggregation.ts), or null. */
  readonly panes: PaneShape | null;
  /** Event times of the open groups as the state threads last reported them. */
  private threadEventTimes: number[] = [];
  /** Operators created in this process (tests check the flag took effect). */
  static created = 0;
  /** Of those, how many aggregate their sliding window by panes (tests check they ran). */
  static withPanes = 0;

  constructor(
    readonly operatorId: number,
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
    readonly hasWatermark: boolean,
    private readonly agg: ColumnarAggregation,
    /** Aggregate a sliding window by panes when it qualifies (pane-aggregation.ts). */
    usePanes: boolean,
  ) {
    this.children = [child];
    this.eventTimeKey = agg.eventTimeKey;
    const panes = usePanes ? paneShapeOf(child, agg.spec, groupingExprs) : null;
    // the late filter reads the event-time key: panes need it to be the window
    this.panes = panes && (this.eventTimeKey < 0 || this.eventTimeKey === panes.windowKey) ? panes : null;
    if (this.panes) ColumnarAggregateExec.withPanes++;
    ColumnarAggregateExec.created++;
  }

  get spec(): AggregationSpec {
    return this.agg.spec;
  }

  get schema(): ColumnarSchema {
    return this.agg.plan.schema;
  }

  /** What a state thread needs to rebuild this aggregation. */
  private get definition(): ColumnarOperatorDef {
    return {
      operatorId: this.operatorId,
      groupingExprs: this.groupingExprs,
      aggregateExprs: this.aggregateExprs,
      childOutput: this.child.output,
      exprIdsInUse: exprIdsInUse(),
    };
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const started = Date.now();
    const spec = this.spec;
    const metrics = newMetrics("stateStoreSave", st.numPartitions);
    const mode = st.outputMode;
    const watermarked = this.eventTimeKey >= 0 && mode !== "complete";
    const wm = watermarksOf(st, this.operatorId);
    const lateMicros = wm.lateMs * 1000;

    // keys and inputs, late rows taken out: per row, or per sliding-window pane group
    const prepared = this.panes
      ? paneChunks(this.panes, spec, await this.panes.expand.child.execute(ctx), ctx.eval, watermarked, lateMicros)
      : this.rowChunks(await this.child.execute(ctx), ctx, watermarked, lateMicros);
    const chunks = prepared.chunks;
    if (prepared.lateKeys.length > 0) {
      const lateIndex = new GroupIndex(spec.groupAttrs.map((a) => a.type));
      for (const keys of prepared.lateKeys) lateIndex.assign(keys, keys[0]?.length ?? 0);
      metrics.numRowsDroppedByWatermark = lateIndex.numGroups;
      metrics.numLateInputRows = prepared.lateInputRows;
      for (const b of prepared.lateBatches)
        st.report.addLateRows(lateRowsOf(this.operatorId, "stateStoreSave", this.child.output, b, wm.lateMs));
    }

    // the state side: here, or on the threads owning the partitions
    const options = { mode, watermarked, evictMicros: wm.evictionMs * 1000, eval: ctx.eval };
    const globalAggregate = spec.groupAttrs.length === 0;
    const beforeState = Date.now() - started;
    let output: Batch[];
    let r: Omit<Awaited<ReturnType<ColumnarAggregation["run"]>>, "output">;
    if (st.stateThreads) {
      const merged = await st.stateThreads.aggregate(this.definition, this.schema, st.batchId, chunks, options, globalAggregate);
      this.threadEventTimes = merged.openEventTimes;
      output = merged.output;
      r = merged;
    } else {
      if (!st.columnarStore) throw new Error("the runtime offers no columnar state (arus.state.aggregation.columnar)");
      const store = await st.columnarStore(this.operatorId, this.schema);
      this.lastStore = store;
      const one = await this.agg.run(store, chunks, { ...options, globalRow: globalAggregate });
      output = one.output ? [one.output] : [];
      r = one;
    }
    metrics.numRowsUpdated = r.numRowsUpdated;
    metrics.numRowsRemoved = r.numRowsRemoved;
    metrics.allUpdatesTimeMs = beforeState + r.allUpdatesTimeMs;
    metrics.allRemovalsTimeMs = r.allRemovalsTimeMs;
    metrics.commitTimeMs = r.commitTimeMs;
    metrics.numRowsTotal = r.numRowsTotal;
    metrics.memoryUsedBytes = r.memoryUsedBytes;
    metrics.numStateStoreInstances = st.numPartitions;
    st.report.addStateOperator(this.operatorId, metrics);
    return output;
  }

  /**
   * Per input batch: its grouping keys and aggregate inputs, the rows whose event time is at or
   * below W(N-1) taken out (their keys, count and rows kept for the metrics and the late-rows sink).
   */
  private rowChunks(batches: readonly Batch[], ctx: ExecContext, watermarked: boolean, lateMicros: number): PreparedChunks {
    const spec = this.spec;
    const chunks: AggregateChunk[] = [];
    const lateKeys: Vector[][] = [];
    const lateBatches: Batch[] = [];
    let lateInputRows = 0;
    for (const b of batches) {
      const n = b.numRows;
      if (n === 0) continue;
      let keys = spec.groupKeys(b, ctx.eval);
      let sel: Int32Array | null = null;
      if (watermarked) {
        const et = eventTimeMicros(keys[this.eventTimeKey]!, n);
        let nLate = 0;
        for (let i = 0; i < n; i++) if (et[i]! <= lateMicros) nLate++;
        if (nLate > 0) {
          const late = new Int32Array(nLate);
          sel = new Int32Array(n - nLate);
          for (let i = 0, a = 0, l = 0; i < n; i++) {
            if (et[i]! <= lateMicros) late[l++] = i;
            else sel[a++] = i;
          }
          lateKeys.push(keys.map((k) => take(k, late)));
          lateBatches.push(takeBatch(b, late));
          lateInputRows += nLate;
          keys = keys.map((k) => take(k, sel!));
        }
      }
      const m = sel ? sel.length : n;
      if (m === 0) continue;
      let inputs = spec.aggInputs(b, ctx.eval);
      if (sel) inputs = inputs.map((vs) => vs.map((v) => take(v, sel!)));
      chunks.push({ keys, inputs, n: m });
    }
    return { chunks, lateKeys, lateInputRows, lateBatches };
  }

  openGroups(): OpenGroups {
    return { operatorId: this.operatorId, eventTimesMicros: this.openEventTimes() };
  }

  /** Event times (micros) of the groups still in state: window ends or timestamps. */
  openEventTimes(): number[] {
    if (this.eventTimeKey < 0) return [];
    if (!this.lastStore) return this.threadEventTimes;
    return this.lastStore.table.eventTimes(this.eventTimeKey);
  }

  describe(): string {
    const panes = this.panes ? `, by panes of the Expand's input (${this.panes.windows} windows per pane)` : "";
    return `[${this.groupingExprs.map(exprToSql).join(", ")}], operator ${this.operatorId}, functions=[${this.agg.spec.aggCalls.map((c) => exprToSql(c.call)).join(", ")}]${panes}`;
  }
}
