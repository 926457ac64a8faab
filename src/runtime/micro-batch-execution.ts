/**
 * The micro-batch loop. One trigger is:
 *   plan   — ask every source for its end offset; run a batch if any has new data, or if the
 *            watermark moved and a stateful operator needs a no-data batch;
 *   log    — write `offsets/N` (what batch N reads, its watermark and timestamp);
 *   run    — execute the incremental plan on the new rows, state versions N → N+1;
 *   sink   — hand the result to the sink with batch id N;
 *   commit — fold event-time stats into the watermark, write `commits/N`, release sources.
 *
 * Recovery rule (Spark's populateStartOffsets), applied once at start:
 *   no offsets → batch 0 from the beginning, watermark 0;
 *   offsets/L and commits/L → continue with batch L+1 from the offsets of L;
 *   offsets/L without commits/L → re-run batch L with exactly the offsets, watermark and
 *   timestamp recorded in offsets/L (so current_timestamp() and the output are the same).
 */
import path from "node:path";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import type { Batch } from "../columnar/batch.js";
import type { RuntimeConfig } from "../common/conf.js";
import { crashPoint } from "../common/crash-points.js";
import { ArusError, StreamingQueryException } from "../common/errors.js";
import { logWarning } from "../common/log.js";
import type { StreamSink } from "../connectors/sink.js";
import { type Offset, type ReadLimit, type StreamSource, sameOffset } from "../connectors/source.js";
import type { ExecContext } from "../execution/operator.js";
import type { LateRows, StatefulContext, StateOperatorMetrics } from "../execution/stateful/context.js";
import { propagateWatermarks } from "../execution/stateful/watermark-propagation.js";
import type { StreamingPlan } from "../planner/streaming.js";
import type { StateStore } from "../state/store.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { Clock } from "./clock.js";
import type { StreamingQueryProgress } from "./progress.js";
import { ProgressBuilder } from "./progress-builder.js";
import type { StateStoreRegistry } from "./state-registry.js";
import { nextTriggerTime, type Trigger } from "./trigger.js";
import { openWindows, type WatermarkReport } from "./watermark-report.js";
import { type EventTimeStats, WatermarkTracker } from "./watermark-tracker.js";

export interface QueryStatus {
  message: string;
  isDataAvailable: boolean;
  isTriggerActive: boolean;
}

/** What the loop tells its query handle. */
export interface QueryEvents {
  onProgress(p: StreamingQueryProgress): void;
  onIdle(p: StreamingQueryProgress): void;
  onLateRows(late: LateRows, batchId: number): Promise<void>;
}

export interface MicroBatchConfig {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  readonly plan: StreamingPlan;
  readonly sourceIds: readonly string[];
  readonly sources: readonly StreamSource[];
  readonly sink: StreamSink;
  readonly outputNames: readonly string[];
  readonly outputSchema: import("../types/datatypes.js").StructType;
  readonly outputMode: "append" | "update" | "complete";
  readonly trigger: Trigger;
  readonly conf: RuntimeConfig;
  readonly clock: Clock;
  readonly checkpoint: CheckpointStore;
  readonly states: StateStoreRegistry;
  readonly events: QueryEvents;
}

interface PlannedBatch {
  batchId: number;
  starts: (Offset | null)[];
  ends: (Offset | null)[];
  watermarkMs: number;
  lateWatermarkMs: number;
  timestampMs: number;
}

export class MicroBatchExecution {
  status: QueryStatus = { message: "Initializing StreamExecution", isDataAvailable: false, isTriggerActive: false };
  /** Offsets committed so far (start offsets of the next batch). */
  private committed: (Offset | null)[];
  private nextBatchId = 0;
  private pending: PlannedBatch | null = null;
  private readonly tracker: WatermarkTracker;
  /** Watermark the last executed batch used for eviction (for the no-data batch rule). */
  private lastBatchWatermarkMs = 0;
  /** W(N-1): the previous batch's watermark, the late-row filter of the next batch. */
  private prevWatermarkMs = 0;
  private executedAnyBatch = false;
  private stopRequested = false;
  private readonly abort = new AbortController();
  private idleWaiters: { after: number; resolve: () => void }[] = [];
  /** A source said data arrived (or a caller waits for idle) since the current trigger began. */
  private woken = false;
  /** Ends the current polling wait early; null when the loop is not polling. */
  private endPoll: (() => void) | null = null;
  private triggerSeq = 0;
  private readonly progress: ProgressBuilder;
  private readonly hasWatermark: boolean;

  constructor(private readonly cfg: MicroBatchConfig) {
    this.committed = cfg.sources.map(() => null);
    // The policy is frozen in the checkpoint's offset log; a restart keeps it whatever the session says.
    const policy = (
      cfg.checkpoint.stickyConf["spark.sql.streaming.multipleWatermarkPolicy"] ??
      cfg.conf.get("spark.sql.streaming.multipleWatermarkPolicy")
    ).toLowerCase() as "min" | "max";
    this.tracker = new WatermarkTracker(policy);
    this.progress = new ProgressBuilder(cfg);
    this.hasWatermark = cfg.plan.watermarkNodes.length > 0;
  }

  get currentWatermarkMs(): number {
    return this.tracker.currentWatermarkMs;
  }
  /** arus: explainWatermark()'s facts. */
  watermarkReport(): WatermarkReport {
    const nodes = this.cfg.plan.watermarkNodes;
    const own = nodes.map((n) => this.tracker.nodeWatermark(n.id) ?? null);
    const values = own.map((v) => v ?? 0);
    const chosen = this.tracker.policyName === "min" ? Math.min(...values) : Math.max(...values);
    return {
      watermarkMs: this.tracker.currentWatermarkMs,
      policy: this.tracker.policyName,
      inputs: nodes.map((n, i) => ({
        column: n.column,
        delayMs: n.delayMs,
        watermarkMs: own[i]!,
        holdsBack: nodes.length > 1 && values[i] === chosen,
      })),
      openWindows: openWindows(this.cfg.plan.physical, nodes.length ? Math.min(...nodes.map((n) => n.delayMs)) : 0),
      droppedGroups: this.droppedGroups,
      droppedInputRows: this.droppedInputRows,
    };
  }
  private droppedGroups = 0;
  private droppedInputRows = 0;

  get lastBatchId(): number {
    return this.nextBatchId - 1;
  }

  /** Restore from the checkpoint (see the recovery rule at the top of this file). */
  /** Release the state stores (and this query's part of the state threads) once the query ended. */
  async close(): Promise<void> {
    await this.cfg.states.close();
  }

  async recover(): Promise<void> {
    const { checkpoint } = this.cfg;
    const latest = await checkpoint.offsets.latest();
    const lastCommit = await checkpoint.commits.latest();
    if (lastCommit && (!latest || lastCommit.batchId > latest.batchId)) {
      // A batch is committed only after its offsets were written: the offsets file went missing.
      const file = checkpoint.dir ? path.join(checkpoint.dir, "offsets", String(lastCommit.batchId)) : `offsets/${lastCommit.batchId}`;
      throw new CheckpointCorruptError(
        file,
        `the file is missing, but commits/${lastCommit.batchId} says batch ${lastCommit.batchId} was committed (the offsets log ends at ${latest ? `batch ${latest.batchId}` : "no batch"})`,
      );
    }
    if (!latest) return;
    const L = latest.batchId;
    const prev = L > 0 ? await checkpoint.offsets.get(L - 1) : undefined;
    if (L > 0 && !prev) {
      throw new ArusError(
        "CHECKPOINT_CORRUPT",
        `Checkpoint ${checkpoint.describe()} has offsets/${L} but not offsets/${L - 1}, which batch ${L} starts from.`,
      );
    }
    const offsets = latest.entry.offsets;
    if (offsets.length !== this.cfg.sources.length) {
      throw new ArusError(
        "STREAMING_SOURCES_CHANGED",
        `The query has ${this.cfg.sources.length} source(s) but checkpoint ${checkpoint.describe()} recorded ${offsets.length}. Adding or removing sources needs a new checkpointLocation.`,
      );
    }
    const W = latest.entry.metadata.batchWatermarkMs;
    this.tracker.setWatermark(W);
    if (lastCommit && lastCommit.batchId === L) {
      this.committed = offsets;
      this.nextBatchId = L + 1;
      this.tracker.setWatermark(Math.max(W, lastCommit.entry.nextBatchWatermarkMs));
      this.prevWatermarkMs = W;
      this.lastBatchWatermarkMs = W;
    } else {
      this.committed = prev ? prev.offsets : this.cfg.sources.map(() => null);
      this.nextBatchId = L;
      this.pending = {
        batchId: L,
        starts: this.committed,
        ends: offsets,
        watermarkMs: W,
        lateWatermarkMs: prev?.metadata.batchWatermarkMs ?? 0,
        timestampMs: latest.entry.metadata.batchTimestampMs,
      };
    }
  }

  /** Run triggers until the trigger says stop or stop() is called. */
  async run(): Promise<void> {
    const { trigger } = this.cfg;
    if (trigger.kind === "availableNow") {
      for (const s of this.cfg.sources) if (s.supportsAvailableNow) await s.prepareForAvailableNow();
    }
    // Spark 4.0: AvailableNow with a source that cannot fix its end offset runs a single batch.
    const singleBatch =
      trigger.kind === "once" || (trigger.kind === "availableNow" && this.cfg.sources.some((s) => !s.supportsAvailableNow));
    const limits = this.readLimits();
    const pollMs = this.cfg.conf.getMs("spark.sql.streaming.pollingDelay");
    const unsubscribe = this.cfg.sources.map((s) => s.onDataAvailable?.(() => this.wake()));
    try {
      await this.loop(limits, singleBatch, pollMs);
    } finally {
      for (const u of unsubscribe) u?.();
    }
    this.notifyIdle(true);
  }

  private async loop(limits: ReadLimit[], singleBatch: boolean, pollMs: number): Promise<void> {
    const { trigger, clock } = this.cfg;
    while (!this.stopRequested) {
      const started = clock.now();
      this.woken = false;
      const ran = await this.runTrigger(limits);
      // Let timers and I/O callbacks run between triggers: with in-memory sources and logs a
      // trigger never leaves the microtask queue, and back-to-back batches would starve them.
      await new Promise<void>((r) => setImmediate(r));
      if (this.stopRequested) break;
      if (singleBatch) break;
      if (trigger.kind === "availableNow" && !ran) break;
      if (!ran) this.notifyIdle();
      if (trigger.kind === "processingTime" && trigger.intervalMs > 0) {
        const now = clock.now();
        if (ran && now - started > trigger.intervalMs) {
          logWarning(
            "ProcessingTimeExecutor",
            `Current batch is falling behind. The trigger interval is ${trigger.intervalMs} milliseconds, but spent ${now - started} milliseconds`,
          );
          continue;
        }
        this.status = { ...this.status, message: "Waiting for next trigger", isTriggerActive: false };
        await clock.waitUntil(nextTriggerTime(now, trigger.intervalMs), this.abort.signal);
      } else if (!ran && trigger.kind === "processingTime" && !this.woken) {
        await this.poll(pollMs);
      }
    }
  }

  /**
   * Wait the polling delay, or less: a source that reports new data (onDataAvailable), a
   * waitForIdle() call or stop() ends the wait. Spark sleeps the whole delay; the early end
   * only moves the next trigger forward, it never skips or merges one.
   */
  private async poll(pollMs: number): Promise<void> {
    const { clock } = this.cfg;
    if (this.abort.signal.aborted) return;
    const wake = new AbortController();
    const end = () => wake.abort();
    this.endPoll = end;
    this.abort.signal.addEventListener("abort", end, { once: true });
    try {
      await clock.waitUntil(clock.now() + pollMs, wake.signal);
    } finally {
      this.abort.signal.removeEventListener("abort", end);
      this.endPoll = null;
    }
  }

  /** New data may be available: start the next trigger now if the loop is polling. */
  private wake(): void {
    this.woken = true;
    this.endPoll?.();
  }

  private readLimits(): ReadLimit[] {
    // Trigger.Once ignores read limits (Spark logs that it does).
    return this.cfg.sources.map((s) => (this.cfg.trigger.kind === "once" ? { kind: "all" } : s.defaultReadLimit()));
  }

  requestStop(): void {
    this.stopRequested = true;
    this.abort.abort();
  }

  /** Resolves at the next trigger that starts after this call and finds nothing to do. */
  waitForIdle(): Promise<void> {
    const p = new Promise<void>((resolve) => this.idleWaiters.push({ after: this.triggerSeq, resolve }));
    // The answer needs one more trigger that finds nothing: no reason to wait out a poll first.
    this.wake();
    return p;
  }
  /** Wake waiters registered before the trigger that just found nothing started (all at the end). */
  private notifyIdle(all = false): void {
    const due = this.idleWaiters.filter((w) => all || w.after < this.triggerSeq);
    this.idleWaiters = this.idleWaiters.filter((w) => !due.includes(w));
    for (const w of due) w.resolve();
  }

  /** One trigger; true when a batch ran. */
  private async runTrigger(limits: ReadLimit[]): Promise<boolean> {
    this.triggerSeq++;
    const t0 = this.cfg.clock.now();
    const prog = this.progress.startTrigger(t0);
    let planned = this.pending;
    this.pending = null;
    if (!planned) {
      const ends: (Offset | null)[] = [];
      await prog.time("latestOffset", async () => {
        for (let i = 0; i < this.cfg.sources.length; i++) {
          const source = this.cfg.sources[i]!;
          this.status = { message: `Getting offsets from ${source.description}`, isDataAvailable: false, isTriggerActive: true };
          ends.push(await source.latestOffset(this.committed[i]!, limits[i]!));
        }
      });
      const hasData = ends.some((e, i) => e !== null && !sameOffset(e, this.committed[i]!));
      const W = this.tracker.currentWatermarkMs;
      if (!hasData && !this.needsNoDataBatch(W)) {
        this.status = { message: "Waiting for data to arrive", isDataAvailable: false, isTriggerActive: false };
        const idle = prog.finishIdle(this.nextBatchId, W, this.hasWatermark);
        if (idle) this.cfg.events.onIdle(idle);
        return false;
      }
      planned = {
        batchId: this.nextBatchId,
        starts: this.committed,
        ends: ends.map((e, i) => e ?? this.committed[i]!),
        watermarkMs: W,
        // allowMultiple=false (Spark's UseSingleWatermarkPropagator): late rows use W(N) too.
        lateWatermarkMs: this.cfg.conf.getBool("spark.sql.streaming.statefulOperator.allowMultiple") ? this.prevWatermarkMs : W,
        timestampMs: this.cfg.clock.now(),
      };
      this.status = { message: "Writing offsets to log", isDataAvailable: hasData, isTriggerActive: true };
      await prog.time("walCommit", async () => {
        crashPoint("beforeOffsetLog", planned!.batchId);
        await this.cfg.checkpoint.offsets.add(planned!.batchId, {
          metadata: { batchWatermarkMs: W, batchTimestampMs: planned!.timestampMs, conf: this.cfg.checkpoint.stickyConf },
          offsets: planned!.ends,
        });
        crashPoint("afterOffsetLog", planned!.batchId);
      });
    }
    await this.runBatch(planned, prog);
    return true;
  }

  /**
   * Each stateful operator's eviction and late-row watermarks (Spark's PropagateWatermarkSimulator,
   * allowMultiple=true); with allowMultiple=false every operator gets the global ones.
   */
  private operatorWatermarks(b: PlannedBatch): Map<number, { evictionMs: number; lateMs: number }> | undefined {
    if (!this.cfg.conf.getBool("spark.sql.streaming.statefulOperator.allowMultiple")) return undefined;
    const evict = propagateWatermarks(this.cfg.plan.physical, b.watermarkMs);
    const late = propagateWatermarks(this.cfg.plan.physical, b.lateWatermarkMs);
    return new Map([...evict].map(([id, ms]) => [id, { evictionMs: ms, lateMs: late.get(id) ?? b.lateWatermarkMs }]));
  }

  /** Spark's shouldRunAnotherBatch: a stateful operator downstream of a watermark saw it move. */
  private needsNoDataBatch(W: number): boolean {
    if (!this.executedAnyBatch) return false;
    if (!this.cfg.conf.getBool("spark.sql.streaming.noDataMicroBatches.enabled")) return false;
    if (W <= this.lastBatchWatermarkMs) return false;
    return this.cfg.plan.statefulOperators.some((op) => op.hasWatermark && (op.kind !== "aggregate" || this.cfg.outputMode !== "complete"));
  }

  private async runBatch(b: PlannedBatch, prog: ReturnType<ProgressBuilder["startTrigger"]>): Promise<void> {
    const hasData = b.ends.some((e, i) => !sameOffset(e, b.starts[i]!));
    this.status = {
      message: hasData ? "Processing new data" : "No new data but cleaning up state",
      isDataAvailable: hasData,
      isTriggerActive: true,
    };
    const data = new Map<string, Batch[]>();
    const inputRows: number[] = [];
    await prog.time("getBatch", async () => {
      for (let i = 0; i < this.cfg.sources.length; i++) {
        const same = sameOffset(b.ends[i]!, b.starts[i]!);
        const rows = same || b.ends[i] === null ? [] : await this.cfg.sources[i]!.getBatch(b.starts[i]!, b.ends[i]!);
        data.set(this.cfg.sourceIds[i]!, rows);
        inputRows.push(rows.reduce((n, x) => n + x.numRows, 0));
      }
    });
    const metrics = new Map<number, StateOperatorMetrics>();
    const scanned = new Map<string, number>();
    const stats = new Map<number, EventTimeStats>();
    const opened: Pick<StateStore, "abort">[] = [];
    const lates: LateRows[] = [];
    const states = this.cfg.states;
    const heads = this.cfg.checkpoint.stateHeads;
    heads?.dropBatchWrites(); // a failed earlier attempt's writes are superseded by this one's
    const state: StatefulContext = {
      batchId: b.batchId,
      outputMode: this.cfg.outputMode,
      evictionWatermarkMs: b.watermarkMs,
      lateWatermarkMs: b.lateWatermarkMs,
      operatorWatermarks: this.operatorWatermarks(b),
      numPartitions: this.cfg.checkpoint.numShufflePartitions,
      store: async (op, part, name) => {
        const s = await this.cfg.states.store(op, part, name, b.batchId);
        opened.push(s);
        return s;
      },
      columnarStore: async (op, schema) => {
        const s = await this.cfg.states.columnar(op, schema, b.batchId);
        opened.push(s);
        return s;
      },
      stateThreads: states.startedThreads,
      reportMetrics: (op, m) => metrics.set(op, m),
      reportLateRows: (late) => lates.push(late),
      reportEventTime: (node, s) => stats.set(node, s),
      sourceData: (id) => data.get(id) ?? [],
      reportScanRows: (id, rows) => scanned.set(id, (scanned.get(id) ?? 0) + rows),
    };
    const timeZone = this.cfg.conf.timeZone;
    const ctx: ExecContext = {
      eval: {
        timeZone,
        batchTimestampMs: b.timestampMs,
        watermarkMs: b.watermarkMs,
        ansi: this.cfg.conf.getBool("spark.sql.ansi.enabled"),
      },
      state,
    };
    let output: Batch[] = [];
    // The incremental plan is built once at start; the key is still reported, as Spark does.
    await prog.time("queryPlanning", async () => {});
    try {
      await prog.time("addBatch", async () => {
        output = await this.cfg.plan.physical.execute(ctx);
        for (const late of lates) await this.cfg.events.onLateRows(late, b.batchId);
        crashPoint("beforeSink", b.batchId);
        await this.cfg.sink.addBatch(b.batchId, {
          names: this.cfg.outputNames,
          schema: this.cfg.outputSchema,
          batches: output,
          outputMode: this.cfg.outputMode,
          timeZone,
        });
        crashPoint("afterSink", b.batchId);
      });
    } catch (e) {
      for (const s of opened) s.abort();
      throw e;
    }
    this.tracker.update(this.cfg.plan.watermarkNodes, stats);
    await prog.time("commitOffsets", async () => {
      crashPoint("beforeCommitLog", b.batchId);
      if (heads) await this.cfg.checkpoint.recordStateWrites(b.batchId, heads.takeBatchWrites(b.batchId));
      await this.cfg.checkpoint.commits.add(b.batchId, { nextBatchWatermarkMs: this.tracker.currentWatermarkMs });
      crashPoint("afterCommitLog", b.batchId);
      // Retention after the commit rather than before the batch (Spark): the deletes are off the
      // path from the offset log to the sink, and offsets/N-1 stays until batch N committed.
      await this.cfg.checkpoint.purge(b.batchId);
      for (let i = 0; i < this.cfg.sources.length; i++) if (b.ends[i] !== null) await this.cfg.sources[i]!.commit(b.ends[i]!);
    });
    await this.cfg.states.maintenance();
    this.committed = b.ends;
    this.nextBatchId = b.batchId + 1;
    this.lastBatchWatermarkMs = b.watermarkMs;
    this.prevWatermarkMs = b.watermarkMs;
    this.executedAnyBatch = true;
    const outRows = output.reduce((n, x) => n + x.numRows, 0);
    for (const m of metrics.values()) {
      this.droppedGroups += m.numRowsDroppedByWatermark;
      this.droppedInputRows += m.numLateInputRows;
    }
    const p = prog.finishBatch({
      batch: b,
      // Spark counts the rows its scans produced (after pushed filters; twice for a self-union).
      inputRows: this.cfg.sourceIds.map((id, i) => (scanned.has(id) ? scanned.get(id)! : inputRows[i]!)),
      outputRows: outRows,
      stats: [...stats.values()].find((s) => s.count > 0) ?? null,
      allStats: new Map(this.cfg.plan.watermarkNodes.filter((n) => stats.has(n.id)).map((n) => [n.column, stats.get(n.id)!])),
      metrics: [...metrics.entries()].sort(([a], [c]) => a - c).map(([, m]) => m),
      lates,
      hasWatermark: this.hasWatermark,
    });
    this.status = { message: "Waiting for next trigger", isDataAvailable: hasData, isTriggerActive: false };
    this.cfg.events.onProgress(p);
  }
}

export function wrapFailure(e: unknown, starts: string, ends: string): StreamingQueryException {
  const cause = e instanceof Error ? e : new Error(String(e));
  return new StreamingQueryException(
    `[STREAM_FAILED] Query terminated with exception: ${cause.message}\n=== Streaming Query ===\nCurrent Committed Offsets: ${starts}\nCurrent Available Offsets: ${ends}`,
    { cause },
  );
}
