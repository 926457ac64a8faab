/**
 * The micro-batch loop. One trigger runs the named steps of runtime/micro-batch-steps.ts:
 *   plan    — `latestOffsets`: every source's end offset; a batch runs if any has new data, or
 *             if the watermark moved and a stateful operator needs a no-data batch (`planBatch`);
 *   log     — `logOffsets`: write `offsets/N` (what batch N reads, its watermark and timestamp);
 *   read    — `readSources`: each source's rows between its start and end offsets;
 *   execute — `executeBatch`: the incremental plan on those rows, state versions N → N+1; it
 *             returns the output and the batch's `BatchReport`;
 *   deliver — `deliverLateRows` and `deliverToSink`: the late rows to their handler, the output
 *             to the sink with batch id N;
 *   commit  — fold the report's event-time stats into the watermark, `commitBatch`: write
 *             `commits/N`, release the sources.
 * The loop times each step from outside (progress `durationMs`) and builds the progress entry
 * from the report; when the next trigger starts is runtime/trigger-pacer.ts's business.
 *
 * Recovery rule (Spark's populateStartOffsets), applied once at start:
 *   no offsets → batch 0 from the beginning, watermark 0;
 *   offsets/L and commits/L → continue with batch L+1 from the offsets of L;
 *   offsets/L without commits/L → re-run batch L with exactly the offsets, watermark and
 *   timestamp recorded in offsets/L (so current_timestamp() and the output are the same).
 */
import path from "node:path";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import type { RuntimeConfig } from "../common/conf.js";
import { ArusError, StreamingQueryException } from "../common/errors.js";
import { checkHeapGrowth } from "../common/heap-growth.js";
import type { StreamSink } from "../connectors/sink.js";
import type { ReadLimit, StreamSource } from "../connectors/source.js";
import type { BatchReport } from "../execution/stateful/batch-report.js";
import type { LateRows } from "../execution/stateful/context.js";
import type { StreamingPlan } from "../planner/streaming.js";
import type { StructType } from "../types/datatypes.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { Clock } from "./clock.js";
import {
  type BatchPosition,
  commitBatch,
  deliverLateRows,
  deliverToSink,
  executeBatch,
  hasNewData,
  latestOffsets,
  logOffsets,
  type PlannedBatch,
  planBatch,
  readSources,
} from "./micro-batch-steps.js";
import type { StreamingQueryProgress } from "./progress.js";
import { ProgressBuilder, type TriggerProgress } from "./progress-builder.js";
import type { StateStoreRegistry } from "./state-registry.js";
import type { Trigger } from "./trigger.js";
import { TriggerPacer } from "./trigger-pacer.js";
import { buildWatermarkReport, type WatermarkReport } from "./watermark-report.js";
import { WatermarkTracker } from "./watermark-tracker.js";

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
  readonly outputSchema: StructType;
  readonly outputMode: "append" | "update" | "complete";
  readonly trigger: Trigger;
  readonly conf: RuntimeConfig;
  readonly clock: Clock;
  readonly checkpoint: CheckpointStore;
  readonly states: StateStoreRegistry;
  readonly events: QueryEvents;
  /** Sources (by id) whose files go through a file task (partial aggregation, execution/partial/). */
  readonly preparedSources?: ReadonlySet<string>;
  /** A refusal Spark makes when it plans a batch: every batch fails with it, once its input is read. */
  readonly planningError?: Error | null;
}

export class MicroBatchExecution {
  status: QueryStatus = { message: "Initializing StreamExecution", isDataAvailable: false, isTriggerActive: false };
  /** The offsets committed so far (start offsets of the next batch), the next batch id, W(N-1). */
  private position: BatchPosition;
  /** A batch offsets/N recorded but commits/N does not: recovery re-runs it first. */
  private pending: PlannedBatch | null = null;
  private readonly tracker: WatermarkTracker;
  /** Watermark the last executed batch used for eviction (for the no-data batch rule). */
  private lastBatchWatermarkMs = 0;
  private executedAnyBatch = false;
  private readonly pacer: TriggerPacer;
  private readonly progress: ProgressBuilder;
  private readonly hasWatermark: boolean;
  /** The last executed batch's report (explainWatermark() reads it). */
  private lastReport: BatchReport | null = null;
  private droppedGroups = 0;
  private droppedInputRows = 0;

  constructor(private readonly cfg: MicroBatchConfig) {
    this.position = { committed: cfg.sources.map(() => null), nextBatchId: 0, prevWatermarkMs: 0 };
    // The policy is frozen in the checkpoint's offset log; a restart keeps it whatever the session says.
    const policy = (
      cfg.checkpoint.stickyConf["spark.sql.streaming.multipleWatermarkPolicy"] ??
      cfg.conf.get("spark.sql.streaming.multipleWatermarkPolicy")
    ).toLowerCase() as "min" | "max";
    this.tracker = new WatermarkTracker(policy);
    this.progress = new ProgressBuilder(cfg);
    this.hasWatermark = cfg.plan.watermarkNodes.length > 0;
    const { trigger } = cfg;
    // Spark 4.0: AvailableNow with a source that cannot fix its end offset runs a single batch.
    const singleBatch = trigger.kind === "once" || (trigger.kind === "availableNow" && cfg.sources.some((s) => !s.supportsAvailableNow));
    this.pacer = new TriggerPacer(trigger, cfg.clock, cfg.conf.getMs("spark.sql.streaming.pollingDelay"), singleBatch);
  }

  get currentWatermarkMs(): number {
    return this.tracker.currentWatermarkMs;
  }
  /** arus: explainWatermark()'s facts. */
  watermarkReport(): WatermarkReport {
    return buildWatermarkReport(this.tracker, this.cfg.plan, this.lastReport, {
      groups: this.droppedGroups,
      inputRows: this.droppedInputRows,
    });
  }

  get lastBatchId(): number {
    return this.position.nextBatchId - 1;
  }

  /** Release the state stores (and this query's part of the state threads) once the query ended. */
  async close(): Promise<void> {
    await this.cfg.states.close();
  }

  /** Restore from the checkpoint (see the recovery rule at the top of this file). */
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
      this.position = { committed: offsets, nextBatchId: L + 1, prevWatermarkMs: W };
      this.tracker.setWatermark(Math.max(W, lastCommit.entry.nextBatchWatermarkMs));
      this.lastBatchWatermarkMs = W;
    } else {
      const committed = prev ? prev.offsets : this.cfg.sources.map(() => null);
      this.position = { committed, nextBatchId: L, prevWatermarkMs: this.position.prevWatermarkMs };
      this.pending = {
        batchId: L,
        starts: committed,
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
    const limits = this.readLimits();
    const unsubscribe = this.cfg.sources.map((s) => s.onDataAvailable?.(() => this.pacer.wake()));
    let failed = false;
    try {
      while (!this.pacer.stopped) {
        const started = this.pacer.beginTrigger();
        const ran = await this.runTrigger(started, limits);
        // Let timers and I/O callbacks run between triggers: with in-memory sources and logs a
        // trigger never leaves the microtask queue, and back-to-back batches would starve them.
        await new Promise<void>((r) => setImmediate(r));
        const wait = this.pacer.nextWait(started, ran);
        if (wait.kind === "end") break;
        // A query that waits has its last commit in place first (and its progress reported);
        // only a trigger that follows at once overlaps it.
        if (wait.kind !== "none") await this.cfg.checkpoint.settle();
        if (wait.kind === "interval") {
          this.status = { ...this.status, message: "Waiting for next trigger", isTriggerActive: false };
          await this.pacer.waitUntil(wait.untilMs);
        } else if (wait.kind === "poll") await this.pacer.poll();
      }
    } catch (e) {
      failed = true;
      throw e;
    } finally {
      for (const u of unsubscribe) u?.();
      // The last batch's commit may still be on its way to the disk: the query ends after it
      // (after a failure too, so a restart finds it; the failure is the error reported), and
      // after the failed batch's own offsets/N and state deltas, so nothing writes to the
      // checkpoint once the query has terminated.
      if (failed) {
        await this.cfg.checkpoint.quiesce();
        await this.cfg.states.flushWrites().catch(() => {});
      }
    }
    await this.cfg.checkpoint.settle();
    await this.cfg.checkpoint.runDeferredPurge();
    await this.runDueMaintenance();
    this.pacer.notifyIdle(true);
  }

  private readLimits(): ReadLimit[] {
    // Trigger.Once ignores read limits (Spark logs that it does).
    return this.cfg.sources.map((s) => (this.cfg.trigger.kind === "once" ? { kind: "all" } : s.defaultReadLimit()));
  }

  requestStop(): void {
    this.pacer.stop();
  }

  /** Resolves at the next trigger that starts after this call and finds nothing to do. */
  waitForIdle(): Promise<void> {
    return this.pacer.waitForIdle();
  }

  /**
   * The state stores' maintenance (snapshots, retention: StateRegistry.maintenance) after a
   * batch's commit, put off to the next trigger, where it runs while that trigger's latestOffset
   * round trips are in flight instead of between a batch and the next. Only its capture of the
   * committed state ends before a batch executes; writing the snapshot files, their fdatasync
   * and the retention's deletes go on beside that batch (as Spark's maintenance thread does).
   */
  private maintenanceDue = false;

  private async runDueMaintenance(): Promise<void> {
    if (!this.maintenanceDue) return;
    this.maintenanceDue = false;
    await this.cfg.states.maintenance();
  }

  /** One trigger (started at `t0`): plan a batch, and run it if there is one; true when a batch ran. */
  private async runTrigger(t0: number, limits: ReadLimit[]): Promise<boolean> {
    const { clock } = this.cfg;
    const prog = this.progress.startTrigger(t0);
    let planned = this.pending;
    this.pending = null;
    let offsetsDurable: Promise<void>;
    if (!planned) {
      let t = clock.now();
      const endsP = latestOffsets(this.cfg, this.position.committed, limits, this, this.pacer.idleAwaited);
      endsP.catch(() => {}); // awaited below; a rejection while the purge runs is not unhandled
      // The last batch's retention, while the sources' round trips are in flight (one turn of
      // the event loop lets their requests go out first).
      if (this.cfg.checkpoint.purgeDeferred || this.maintenanceDue) {
        await new Promise<void>((r) => setImmediate(r));
        await this.cfg.checkpoint.runDeferredPurge();
        await this.runDueMaintenance();
      }
      const ends = await endsP;
      prog.record("latestOffset", t);
      const hasData = hasNewData(ends, this.position.committed);
      const W = this.tracker.currentWatermarkMs;
      if (!hasData && !this.needsNoDataBatch(W)) {
        // An idle query has its last commit in place (processAllAvailable and its progress see it).
        await this.cfg.checkpoint.settle();
        this.status = { message: "Waiting for data to arrive", isDataAvailable: false, isTriggerActive: false };
        const idle = prog.finishIdle(this.position.nextBatchId, W, this.hasWatermark);
        if (idle) this.cfg.events.onIdle(idle);
        return false;
      }
      planned = planBatch(this.cfg, this.position, ends, W);
      this.status = { message: "Writing offsets to log", isDataAvailable: hasData, isTriggerActive: true };
      t = clock.now();
      const logged = await logOffsets(this.cfg, planned);
      offsetsDurable = logged.durable;
      // The batch's state deltas start their fdatasync when offsets/N is named, beside the
      // folder's fsync: one journal commit for both.
      this.cfg.states.gateSyncs(logged.named);
      prog.record("walCommit", t);
    } else {
      // A batch re-run after a restart: its offsets/N was found on disk, its folder perhaps not yet synced.
      offsetsDurable = this.cfg.checkpoint.syncOffsetsFolder();
      offsetsDurable.catch(() => {});
      this.cfg.states.gateSyncs(Promise.resolve());
    }
    await this.runBatch(planned, prog, offsetsDurable);
    checkHeapGrowth(); // V8's own heap sizing back once the live heap is large (common/heap-growth.ts)
    return true;
  }

  /** Spark's shouldRunAnotherBatch: a stateful operator downstream of a watermark saw it move. */
  private needsNoDataBatch(W: number): boolean {
    if (!this.executedAnyBatch) return false;
    if (!this.cfg.conf.getBool("spark.sql.streaming.noDataMicroBatches.enabled")) return false;
    const ops = this.cfg.plan.statefulOperators;
    // Processing-time timers ask for a batch every trigger (Spark's shouldRunAnotherBatch);
    // under availableNow that would never end, so there they wait for data like the rest.
    if (this.cfg.trigger.kind !== "availableNow" && ops.some((op) => op.noDataBatches === "always")) return true;
    if (W <= this.lastBatchWatermarkMs) return false;
    return ops.some((op) =>
      op.noDataBatches
        ? op.noDataBatches !== "never" && op.hasWatermark
        : op.hasWatermark && (op.kind !== "aggregate" || this.cfg.outputMode !== "complete"),
    );
  }

  /**
   * read → execute → deliver → commit for a planned (and logged) batch, then its progress entry.
   * `offsetsDurable`: offsets/N is on disk; awaited before the batch's output leaves the process
   * (the read and the execution overlap its fdatasync).
   */
  private async runBatch(b: PlannedBatch, prog: TriggerProgress, offsetsDurable: Promise<void>): Promise<void> {
    const { cfg } = this;
    const { clock } = cfg;
    const hasData = hasNewData(b.ends, b.starts);
    this.status = {
      message: hasData ? "Processing new data" : "No new data but cleaning up state",
      isDataAvailable: hasData,
      isTriggerActive: true,
    };
    // Normally done while this trigger's latestOffset was in flight; never while a batch executes.
    await this.runDueMaintenance();
    // Spark plans the batch before it reads a row (its getBatch is lazy)
    if (cfg.planningError) throw cfg.planningError;
    let t = clock.now();
    const input = await readSources(cfg, b);
    prog.record("getBatch", t);
    // The incremental plan is built once at start; the key is still reported, as Spark does.
    prog.record("queryPlanning", clock.now());
    t = clock.now();
    const { output, report, state } = await executeBatch(cfg, b, input);
    try {
      await offsetsDurable;
      await deliverLateRows(cfg.events, report);
      await deliverToSink(cfg, b, output);
    } catch (e) {
      state.abortAll();
      throw e;
    } finally {
      prog.record("addBatch", t);
    }
    this.tracker.update(cfg.plan.watermarkNodes, report.eventTime);
    t = clock.now();
    await commitBatch(cfg, b, this.tracker.currentWatermarkMs);
    prog.record("commitOffsets", t);
    this.maintenanceDue = true;
    this.position = { committed: b.ends, nextBatchId: b.batchId + 1, prevWatermarkMs: b.watermarkMs };
    this.lastBatchWatermarkMs = b.watermarkMs;
    this.executedAnyBatch = true;
    this.lastReport = report;
    const dropped = report.dropped();
    this.droppedGroups += dropped.groups;
    this.droppedInputRows += dropped.inputRows;
    const p = prog.finishBatch({
      batch: b,
      report,
      inputRows: report.inputRows(cfg.sourceIds, input.rows),
      outputRows: output.reduce((n, x) => n + x.numRows, 0),
      hasWatermark: this.hasWatermark,
    });
    this.status = { message: "Waiting for next trigger", isDataAvailable: hasData, isTriggerActive: false };
    // Reported once commits/N is in place, as Spark reports a batch after its commit.
    cfg.checkpoint.afterCommit(() => cfg.events.onProgress(p));
  }
}

export function wrapFailure(e: unknown, starts: string, ends: string): StreamingQueryException {
  const cause = e instanceof Error ? e : new Error(String(e));
  return new StreamingQueryException(
    `[STREAM_FAILED] Query terminated with exception: ${cause.message}\n=== Streaming Query ===\nCurrent Committed Offsets: ${starts}\nCurrent Available Offsets: ${ends}`,
    { cause },
  );
}
