/**
 * Streaming aggregation (Spark's StateStoreRestore → merge → StateStoreSave), one operator for
 * every place its state can live. Per micro-batch it:
 *   1. evaluates the grouping keys and aggregate inputs of the child's rows into chunks — per
 *      row, or per sliding-window pane group (pane-aggregation.ts) when the panes apply;
 *   2. takes out the rows whose event time is at or below the *late* watermark W(N-1): counted
 *      as distinct groups (Spark's numRowsDroppedByWatermark) and as input rows (arus
 *      numLateInputRows), and handed to the `BatchReport` for the late-rows sink. The event
 *      time is a grouping key, so a row is late exactly when its group is;
 *   3. hands the rest to its backend (aggregation-backend.ts), which folds them into the state,
 *      emits by output mode, evicts by the *eviction* watermark W(N) and commits;
 *   4. records the batch's `StateOperatorMetrics`.
 * The planner (planner/streaming.ts `aggregationBackend`) picks the backend from the
 * configuration: the row stores, the columnar table, or the columnar tables on the state threads.
 */
import { type Batch, takeBatch } from "../../columnar/batch.js";
import { ScratchFloat64 } from "../../columnar/scratch.js";
import { take, type Vector } from "../../columnar/vector.js";
import type { PreparedFile } from "../../connectors/source.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { AggregationSpec } from "../aggregation.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, OpenGroups, PhysicalOperator } from "../operator.js";
import type { StateMove } from "../parallel/state-move.js";
import { PartialAggregateExplain } from "../partial/partial-explain.js";
import type { StageAPlan } from "../partial/stage-a.js";
import { recordedParts } from "../partial/stage-a-run.js";
import { type AggregateChunk, type AggregationBackend, aggregateChunk } from "./aggregation-backend.js";
import { eventTimeKeyIndex, eventTimeMicros, lateRowsOf, newMetrics } from "./common.js";
import { type StatefulContext, watermarksOf } from "./context.js";
import { type PreparedChunks, paneChunks } from "./pane-aggregation.js";
import type { PaneShape } from "./pane-shape.js";

/** `rowChunks`' event times of one input batch, read only while it splits that batch (columnar/scratch.ts). */
const eventTimeScratch = new ScratchFloat64();

export class StreamingAggregateExec implements PhysicalOperator {
  readonly name = "StateStoreSave";
  readonly children: PhysicalOperator[];
  /** Which grouping key carries the watermark (window struct or timestamp), or -1. */
  readonly eventTimeKey: number;
  /** Operators created in this process, by backend (tests check a setting took effect). */
  static readonly created = { row: 0, columnar: 0, threads: 0 };
  /** Of those, how many aggregate their sliding window by panes (tests check they ran). */
  static withPanes = 0;
  /** Of those, how many read stage A's partial groups (tests check they did). */
  static withPartialInput = 0;
  /** Stage A on the decode threads (execution/partial/), when the runtime chose it. */
  private partialInput: StageAPlan | null = null;
  private shownPartialInput: StageAPlan | null = null;

  constructor(
    readonly operatorId: number,
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
    readonly spec: AggregationSpec,
    readonly backend: AggregationBackend,
    /** A sliding window aggregated by panes (pane-aggregation.ts), or null. */
    readonly panes: PaneShape | null = null,
  ) {
    this.children = [child];
    this.eventTimeKey = eventTimeKeyIndex(spec.groupAttrs);
    StreamingAggregateExec.created[backend.kind]++;
    if (panes) StreamingAggregateExec.withPanes++;
  }

  get usesStateThreads(): boolean {
    return this.backend.usesStateThreads;
  }

  get stateMove(): StateMove | null {
    return this.backend.move ?? null;
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

    // 1-2. keys and inputs, late rows taken out: per row, per sliding-window pane group, or
    // the partial groups stage A made on the decode threads
    const files = this.partialInput ? st.sourcePrepared?.get(this.partialInput.spec.sourceId) : undefined;
    const prepared = files
      ? this.partialChunks(files, st, ctx, watermarked, lateMicros)
      : this.panes
        ? paneChunks(this.panes, spec, await this.panes.expand.child.execute(ctx), ctx.eval, watermarked, lateMicros)
        : this.rowChunks(await this.child.execute(ctx), ctx, watermarked, lateMicros);
    if (prepared.lateKeys.length > 0) {
      const lateIndex = new GroupIndex(spec.groupAttrs.map((a) => a.type));
      for (const keys of prepared.lateKeys) lateIndex.assign(keys, keys[0]?.length ?? 0);
      metrics.numRowsDroppedByWatermark = lateIndex.numGroups;
      metrics.numLateInputRows = prepared.lateInputRows;
      for (const b of prepared.lateBatches)
        st.report.addLateRows(lateRowsOf(this.operatorId, "stateStoreSave", this.child.output, b, wm.lateMs));
    }

    // 3. the state side
    const beforeState = Date.now() - started;
    const r = await this.backend.run(st, prepared.chunks, {
      mode,
      watermarked,
      evictMicros: wm.evictionMs * 1000,
      globalRow: spec.groupAttrs.length === 0,
      eval: ctx.eval,
    });

    // 4. metrics
    metrics.numRowsUpdated = r.numRowsUpdated;
    metrics.numRowsRemoved = r.numRowsRemoved;
    metrics.allUpdatesTimeMs = beforeState + r.allUpdatesTimeMs;
    metrics.allRemovalsTimeMs = r.allRemovalsTimeMs;
    metrics.commitTimeMs = r.commitTimeMs;
    metrics.numRowsTotal = r.numRowsTotal;
    metrics.memoryUsedBytes = r.memoryUsedBytes;
    metrics.numStateStoreInstances = st.numPartitions;
    st.report.addStateOperator(this.operatorId, metrics);
    return r.output;
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
      // every row's inputs are evaluated, late or not (an input that fails, fails the batch)
      let inputs = spec.aggInputs(b, ctx.eval);
      let sel: Int32Array | null = null;
      if (watermarked) {
        const et = eventTimeMicros(keys[this.eventTimeKey]!, n, eventTimeScratch.get(n));
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
      if (sel) inputs = inputs.map((vs) => vs.map((v) => take(v, sel!)));
      chunks.push(aggregateChunk(keys, inputs, m));
    }
    return { chunks, lateKeys, lateInputRows, lateBatches };
  }

  /**
   * Reads stage A's partial groups (execution/partial/) instead of running the child: the
   * runtime calls this when the child's source hands this batch's files to the decode threads.
   */
  usePartialInput(plan: StageAPlan): void {
    this.partialInput = plan;
    StreamingAggregateExec.withPartialInput++;
  }

  /**
   * The partial groups of this batch's files, as `rowChunks` would have prepared their rows:
   * the scan's row count and the watermark's statistics recorded as the child would have, then
   * the groups at or below W(N-1) taken out — the event time is a grouping key, so a group is
   * late exactly when its rows are — counted as dropped groups and as the input rows behind them;
   * and the rows of ranges that were not aggregated (adaptive skipping) prepared as `rowChunks`
   * or the panes prepare the child's rows.
   */
  private partialChunks(
    files: readonly PreparedFile[],
    st: StatefulContext,
    ctx: ExecContext,
    watermarked: boolean,
    lateMicros: number,
  ): PreparedChunks {
    const stage = this.partialInput!;
    const parts = recordedParts(files, stage.spec.sourceId, stage.watermark, st.report);
    const chunks: AggregateChunk[] = [];
    const lateKeys: Vector[][] = [];
    let lateInputRows = 0;
    for (const p of parts.flatMap((x) => x.chunks)) {
      if (p.n === 0) continue;
      let keys = p.keys;
      let inputs = p.buffers;
      let rows = p.rows;
      let n = p.n;
      if (watermarked) {
        const et = eventTimeMicros(keys[this.eventTimeKey]!, n, eventTimeScratch.get(n));
        let nLate = 0;
        for (let g = 0; g < n; g++) if (et[g]! <= lateMicros) nLate++;
        if (nLate > 0) {
          const late = new Int32Array(nLate);
          const sel = new Int32Array(n - nLate);
          for (let g = 0, a = 0, l = 0; g < n; g++) {
            if (et[g]! <= lateMicros) {
              late[l++] = g;
              lateInputRows += rows[g]!;
            } else sel[a++] = g;
          }
          lateKeys.push(keys.map((k) => take(k, late)));
          keys = keys.map((k) => take(k, sel));
          inputs = inputs.map((bs) => bs.map((v) => take(v, sel)));
          const all = rows;
          rows = Float64Array.from(sel, (g) => all[g]!);
          n = sel.length;
        }
      }
      if (n === 0) continue;
      chunks.push(aggregateChunk(keys, inputs, n, true, rows, p.owner, p.owner === undefined ? undefined : p.owners!));
    }
    // ranges whose aggregation was skipped (adaptive-skip.ts): their rows, aggregated here as the row path does
    const rows = parts.flatMap((p) => p.rows ?? []);
    if (rows.length === 0) return { chunks, lateKeys, lateInputRows, lateBatches: [] };
    const fromRows = this.panes
      ? paneChunks(this.panes, this.spec, rows, ctx.eval, watermarked, lateMicros)
      : this.rowChunks(rows, ctx, watermarked, lateMicros);
    return {
      chunks: [...chunks, ...fromRows.chunks],
      lateKeys: [...lateKeys, ...fromRows.lateKeys],
      lateInputRows: lateInputRows + fromRows.lateInputRows,
      lateBatches: fromRows.lateBatches,
    };
  }

  openGroups(): OpenGroups {
    return { operatorId: this.operatorId, eventTimesMicros: this.backend.openEventTimes() };
  }

  /** explain() of a streaming DataFrame: stage A would run on the decode threads (nothing is read). */
  showPartialInput(plan: StageAPlan): void {
    this.shownPartialInput = plan;
  }

  /** With stage A on the decode threads: its partial aggregation shown below this (final) one, as Spark shows it. */
  explainChildren(): readonly PhysicalOperator[] {
    if (!this.partialInput && !this.shownPartialInput) return this.children;
    return [new PartialAggregateExplain(this.groupingExprs, this.spec, this.child, "on the decode threads")];
  }

  describe(): string {
    const panes = this.panes ? `, by panes of the Expand's input (${this.panes.windows} windows per pane)` : "";
    return `[${this.groupingExprs.map(exprToSql).join(", ")}], operator ${this.operatorId}, functions=[${this.spec.aggCalls.map((c) => exprToSql(c.call)).join(", ")}]${panes}`;
  }
}
