/**
 * StreamingQuery: the handle of a running query (id, runId, status, progress, awaitTermination,
 * stop, processAllAvailable). `start` collects the options, opens the checkpoint and hands the
 * analyzed plan to the runtime (`startStreamingQuery`), then runs the loop in the background.
 */
import { randomUUID } from "node:crypto";
import { makeBatch } from "../../columnar/batch.js";
import { constantVector } from "../../columnar/vector.js";
import { armCrashPoint } from "../../common/crash-points.js";
import { ArusError, IllegalArgumentException, StreamingQueryException } from "../../common/errors.js";
import { logWarning } from "../../common/log.js";
import type { StreamSink } from "../../connectors/sink.js";
import type { StreamSource } from "../../connectors/source.js";
import { attribute } from "../../plan/expressions.js";
import { Plans } from "../../plan/logical.js";
import type { StreamingQueryProgress } from "../../runtime/progress.js";
import {
  CheckpointStore,
  type Clock,
  checkStreamingQuery,
  formatWatermarkReport,
  type LateRows,
  type QueryStatus,
  type StreamExecution,
  type StreamingQuerySpec,
  SystemClock,
  startStreamingQuery,
  type WatermarkReport,
  wrapFailure,
} from "../../runtime/query-execution.js";
import type { Trigger } from "../../runtime/trigger.js";
import { LongType, StringType, TimestampType } from "../../types/datatypes.js";
import { DataFrame } from "../dataframe.js";
import type { Session } from "../session.js";
import type { LateRowsHandler, OutputMode } from "./writer.js";

export interface StartSpec {
  session: Session;
  df: DataFrame;
  name: string | null;
  outputMode: OutputMode;
  trigger: Trigger;
  checkpointLocation: string | null;
  makeSink: () => StreamSink;
  lateRows: LateRowsHandler | null;
  clock: Clock | null;
  /** Group mode: the parsed `arus.cluster.*` options and the sink's format and options. */
  cluster: StreamingQuerySpec["cluster"] | null;
}

export class StreamingQuery {
  readonly runId = randomUUID();
  readonly recentProgress: StreamingQueryProgress[] = [];
  exception: StreamingQueryException | null = null;
  private execution: StreamExecution | null = null;
  private finished: Promise<void> = Promise.resolve();
  private active = true;
  private terminationWaiters: (() => void)[] = [];
  private sources: StreamSource[] = [];
  private physicalText = "";

  private constructor(
    readonly id: string,
    readonly name: string | null,
    private readonly session: Session,
    private readonly clock: Clock,
    /** @internal the trigger it runs with (the monitoring layer compares batch durations with it). */
    readonly trigger: Trigger,
  ) {}

  static async start(spec: StartSpec): Promise<StreamingQuery> {
    const { session, df } = spec;
    if (spec.name && session.streams.active.some((q) => q.name === spec.name)) {
      throw new IllegalArgumentException(
        `Cannot start query with name ${spec.name} as a query with that name is already active in this SparkSession`,
      );
    }
    const planningError = checkStreamingQuery(df.plan, spec.outputMode, session.conf);
    armCrashPoint(session.conf.getOption("arus.test.crashPoint"));
    const sink = spec.makeSink();
    const conf = session.conf;
    const checkpoint = await CheckpointStore.open(spec.checkpointLocation, conf);
    const clock = spec.clock ?? new SystemClock();
    const q = new StreamingQuery(checkpoint.queryId, spec.name, session, clock, spec.trigger);
    if (session.streams.active.some((other) => other.id === q.id)) {
      throw new ArusError(
        "CONCURRENT_QUERY",
        `Cannot start query with id ${q.id} as another query with the same id is already active. Perhaps you are attempting to restart a query from checkpoint ${checkpoint.describe()} that is already active.`,
      );
    }
    const started = await startStreamingQuery({
      id: q.id,
      runId: q.runId,
      name: spec.name,
      plan: df.plan,
      planningError,
      outputMode: spec.outputMode,
      trigger: spec.trigger,
      conf,
      excludedRules: session.excludedRules(),
      timeZone: session.timeZone,
      clock,
      checkpoint,
      sink,
      keepLateRows: spec.lateRows !== null,
      ...(spec.cluster ? { cluster: spec.cluster } : {}),
      events: {
        onProgress: (p) => q.recordProgress(p, false),
        onIdle: (p) => q.recordProgress(p, true),
        onLateRows: (late, batchId) => q.deliverLateRows(spec.lateRows, late, batchId),
      },
      onSources: (sources) => {
        q.sources = [...sources];
      },
      onStarted: (execution) => {
        q.execution = execution;
        session.streams.register(q);
        session.streams.post("onQueryStarted", { id: q.id, runId: q.runId, name: q.name, timestamp: new Date(clock.now()).toISOString() });
      },
    });
    q.physicalText = started.physicalText;
    q.finished = q.runLoop(q.execution!, sink, checkpoint).finally(() => checkpoint.releaseLock());
    return q;
  }

  private async runLoop(exec: StreamExecution, sink: StreamSink, checkpoint: CheckpointStore): Promise<void> {
    try {
      await exec.run();
      exec.status = { message: "Stopped", isDataAvailable: false, isTriggerActive: false };
    } catch (e) {
      this.exception = e instanceof StreamingQueryException ? e : wrapFailure(e, "[]", "[]");
      exec.status = { message: `Terminated with exception: ${(e as Error).message}`, isDataAvailable: false, isTriggerActive: false };
    } finally {
      this.active = false;
      for (const s of this.sources) await s.stop().catch(() => {});
      await sink.stop?.().catch(() => {});
      // A state store's last maintenance (snapshot, retention) may still fail here: nothing
      // committed is lost (the deltas stay), but it is said, as Spark's maintenance thread logs it.
      await exec.close().catch((e: Error) => logWarning("StateStore", `closing the query's state stores: ${e.message}`));
      await checkpoint.dropSpares();
      this.session.streams.terminated(this);
      for (const w of this.terminationWaiters) w();
      this.terminationWaiters = [];
    }
  }

  private recordProgress(p: StreamingQueryProgress, idle: boolean): void {
    this.recentProgress.push(p);
    const keep = this.session.conf.getInt("spark.sql.streaming.numRecentProgressUpdates");
    // Spark drops while size >= limit after appending: at most limit - 1 entries remain.
    while (this.recentProgress.length >= keep) this.recentProgress.shift();
    this.session.streams.post(idle ? "onQueryIdle" : "onQueryProgress", { id: this.id, runId: this.runId, progress: p });
  }

  private async deliverLateRows(handler: LateRowsHandler | null, late: LateRows, batchId: number): Promise<void> {
    if (!handler) return;
    const n = late.batch.numRows;
    const lateBy = new Float64Array(n);
    for (let i = 0; i < n; i++) lateBy[i] = Math.max(0, late.watermarkMs - Math.floor(late.eventTimeMicros[i]! / 1000));
    const output = [
      ...late.output,
      attribute("_late_operator", StringType, false),
      attribute("_late_watermark", TimestampType, false),
      attribute("_late_by_ms", LongType, false),
    ];
    const batch = makeBatch(
      [
        ...late.batch.columns,
        constantVector(StringType, `${late.operatorName}#${late.operatorId}`, n),
        constantVector(TimestampType, late.watermarkMs * 1000, n),
        { type: LongType, length: n, values: lateBy, validity: null },
      ],
      n,
    );
    await handler(new DataFrame(this.session, Plans.localRelation(output, [batch])), batchId);
  }

  get isActive(): boolean {
    return this.active;
  }
  get status(): QueryStatus {
    return { ...(this.execution?.status ?? { message: "Initializing StreamExecution", isDataAvailable: false, isTriggerActive: false }) };
  }
  get lastProgress(): StreamingQueryProgress | null {
    return this.recentProgress.at(-1) ?? null;
  }
  /** arus: the global watermark now (ms since epoch). */
  get currentWatermarkMs(): number {
    return this.execution?.currentWatermarkMs ?? 0;
  }

  /** Resolve with true once the query ended (false on timeout); reject if it failed. */
  async awaitTermination(timeoutSeconds?: number): Promise<boolean> {
    if (timeoutSeconds !== undefined && Math.trunc(timeoutSeconds * 1000) <= 0) {
      throw new IllegalArgumentException(`Timeout ${timeoutSeconds} should be positive`);
    }
    if (this.active) {
      const ended = new Promise<void>((r) => this.terminationWaiters.push(r));
      if (timeoutSeconds === undefined) await ended;
      else {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          ended.then(() => false),
          new Promise<boolean>((r) => {
            timer = setTimeout(() => r(true), Math.trunc(timeoutSeconds * 1000));
          }),
        ]);
        clearTimeout(timer);
        if (timedOut) return false;
      }
    }
    if (this.exception) throw this.exception;
    return true;
  }

  /** Stop after the trigger in flight; the query can be restarted from its checkpoint. */
  async stop(): Promise<void> {
    this.execution?.requestStop();
    await this.finished;
  }

  /** Resolve once everything available now is processed and the query is idle. */
  async processAllAvailable(): Promise<void> {
    if (!this.active) {
      if (this.exception) throw this.exception;
      return;
    }
    await Promise.race([this.execution!.waitForIdle(), this.finished]);
    if (this.exception) throw this.exception;
  }

  /**
   * arus: why is this window still open? The watermark in force, each input's part in it,
   * when each open window closes, and how much was dropped as late so far.
   */
  explainWatermark(): string {
    return formatWatermarkReport(this.watermarkInfo());
  }
  /** The facts behind explainWatermark(), as data. */
  watermarkInfo(): WatermarkReport {
    if (!this.execution) throw new IllegalArgumentException("The query has not started.");
    return this.execution.watermarkReport();
  }

  explainString(): string {
    return `== Physical Plan ==\n${this.physicalText}\n`;
  }
  explain(): void {
    process.stdout.write(`${this.explainString()}\n`);
  }
  /** @internal */
  get clockForTests(): Clock {
    return this.clock;
  }
}
