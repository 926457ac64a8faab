/**
 * One batch of a group-mode worker (Kafka Streams' EOS v2 loop; docs/scale-out.md, "One
 * transaction per worker per batch"):
 *   1. end offsets of the assigned source and repartition partitions (read_committed);
 *   2. stage A over the new source records → repartition records (stateful query) or output;
 *   3. stage B per owned task over its new repartition records, with the global watermark →
 *      output, changelog records of the task's state changes, the task's max event time;
 *   4. one transaction: output, repartition, changelog and progress records, and the consumed
 *      offsets sent with the group's metadata (KIP-447: a zombie with a stale generation is
 *      refused, its transaction aborted and invisible to read_committed readers);
 *   5. committed: the tasks' staged state becomes their state; the watermark is re-read.
 * Anything failing aborts the transaction and drops the tasks' staged state; the worker loop
 * (group-execution.ts) decides what comes next. Step 4 is batch-transaction.ts; the progress
 * entries (per batch, and idle ones) are worker-batch-report.ts.
 */
import type { Batch } from "../../columnar/batch.js";
import type { OutRecord, TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import { checkRecordSizes, toRecords } from "../../connectors/kafka/records-out.js";
import type { BatchReport } from "../../execution/stateful/batch-report.js";
import type { AttemptFailures } from "./attempt-failures.js";
import { commitBatchTransaction } from "./batch-transaction.js";
import type { GroupAssignment } from "./group-assignment.js";
import { limitEnds, maxEventTimeMs, minEventTimeMs, readRepartition, readSourceRecords } from "./partition-io.js";
import { REPARTITION_SOURCE_ID } from "./plan-split.js";
import { encodeRows, routeRows } from "./repartition.js";
import { sourceTasks, stageSourceTasks, type TaskRun } from "./task-batch-sink.js";
import { TaskContext } from "./task-context.js";
import { WorkerBatchReporter } from "./worker-batch-report.js";
import type { WorkerShared } from "./worker-io.js";
import type { WorkerBatchFacts } from "./worker-progress.js";

const MAX_RECORD_ROWS = 2000;
/** The producer's request size limit when the sink is not Kafka (Kafka's default max.request.size). */
const DEFAULT_MAX_REQUEST_SIZE = 1048576;
/** How often an idle worker re-reads the group's progress for a watermark moved by the others. */
const IDLE_WATERMARK_READ_MS = 1000;

export class WorkerBatches {
  nextBatchId = 0;
  /** explainWatermark(): each task's last committed batch report, and the rows dropped as late so far. */
  readonly lastReports = new Map<number, BatchReport>();
  readonly dropped = { groups: 0, inputRows: 0 };
  private lastBatchWatermarkMs = 0;
  private lateWatermarkMs = 0;
  private idleWatermarkReadMs = 0;
  private readonly reporter: WorkerBatchReporter;

  constructor(
    private readonly shared: WorkerShared,
    private readonly assignment: GroupAssignment,
    private readonly failures: AttemptFailures,
    /** Transactions aborted so far (progress `abortedTransactions`). */
    aborted: () => number,
  ) {
    this.reporter = new WorkerBatchReporter(shared, assignment, aborted);
  }

  /** The partitions' newest offsets (progress `latestOffset`, the lag metrics) and this batch's ends (`limit`: maxOffsetsPerTrigger). */
  private async endOffsets(
    tps: readonly TopicPartition[],
    limit: number | null,
  ): Promise<{ latest: Map<string, number>; ends: Map<string, number> }> {
    const latest = tps.length ? await this.shared.io.admin.latestOffsets(tps) : new Map<string, number>();
    return { latest, ends: limit === null ? latest : limitEnds(latest, tps, this.assignment.positions, limit) };
  }

  /**
   * Stage A over the source rows. With a watermark, partition by partition, to publish each
   * partition's max event time (the watermark's hold, global-watermark.ts).
   */
  private async runStageA(
    parts: readonly { tp: TopicPartition; batch: Batch }[],
    batchId: number,
    W: number,
  ): Promise<{ output: Batch[]; maxByTp: Map<string, number | null> }> {
    const maxByTp = new Map<string, number | null>();
    const { eventTimeIndex } = this.shared.cfg;
    const run = (batches: Batch[]) =>
      this.stageAOn(batches, batchId, { watermarkMs: W, lateWatermarkMs: this.lateWatermarkMs, timestampMs: this.shared.cfg.clock.now() });
    if (eventTimeIndex === null) return { output: parts.length ? await run(parts.map((p) => p.batch)) : [], maxByTp };
    const output: Batch[] = [];
    for (const { tp, batch } of parts) {
      const out = await run([batch]);
      output.push(...out);
      maxByTp.set(tpKey(tp), maxEventTimeMs(out, eventTimeIndex));
    }
    return { output, maxByTp };
  }

  private stageAOn(batches: Batch[], batchId: number, run: TaskRun): Promise<Batch[]> {
    const { split, stageA, outputMode } = this.shared.cfg;
    const spec = {
      batchId,
      outputMode,
      evictionWatermarkMs: run.watermarkMs,
      lateWatermarkMs: run.lateWatermarkMs,
      sourceData: new Map([[split.source.sourceId, batches]]),
      physical: stageA.physical,
    };
    return stageA.physical.execute({ eval: this.evalContext(run.watermarkMs, run.timestampMs), state: new TaskContext(spec, null) });
  }

  /** The tasks this worker owns and their partitions (foreachBatch: task-batch-sink.ts). */
  private ownedTasks(): Map<number, TopicPartition[]> {
    if (this.shared.cfg.split.stageB) return new Map(this.assignment.repTps.map((tp) => [tp.partition, [tp]]));
    return sourceTasks(this.assignment.sourceTps);
  }

  private evalContext(watermarkMs: number, timestampMs = this.shared.cfg.clock.now()) {
    return {
      timeZone: this.shared.cfg.conf.timeZone,
      batchTimestampMs: timestampMs,
      watermarkMs,
      ansi: this.shared.cfg.conf.getBool("spark.sql.ansi.enabled"),
    };
  }

  /** One batch of this worker; false when there was nothing to do. */
  async run(started: number): Promise<boolean> {
    const { cfg, taskSink } = this.shared;
    // foreachBatch: a task just gained may have a plan its previous owner left (replayed first).
    await taskSink?.beforeBatch(this.ownedTasks().keys(), this.shared, this.assignment);
    let W = this.shared.watermark.watermarkMs;
    const durations: Record<string, number> = {};
    let t = cfg.clock.now();
    const { latest: srcLatest, ends: srcLimited } = await this.endOffsets(this.assignment.sourceTps, cfg.source.maxOffsetsPerTrigger);
    const repLatest = (await this.endOffsets(this.assignment.repTps, null)).ends;
    // foreachBatch: a task with a pending plan reads exactly its plan's ranges (one map: topics differ).
    const pinned = taskSink?.pinEnds(this.ownedTasks(), this.assignment.positions, new Map([...srcLimited, ...repLatest]));
    const srcEnds = pinned?.ends ?? srcLimited;
    const repEnds = pinned?.ends ?? repLatest;
    durations.latestOffset = cfg.clock.now() - t;
    const moved = (tps: TopicPartition[], ends: Map<string, number>) =>
      tps.some((tp) => ends.get(tpKey(tp))! > this.assignment.positions.get(tpKey(tp))!);
    const hasData = moved(this.assignment.sourceTps, srcEnds) || moved(this.assignment.repTps, repEnds) || (pinned?.replays ?? 0) > 0;
    let watermarkMoved = cfg.split.stageB !== null && W > this.lastBatchWatermarkMs && this.assignment.tasks.size > 0;
    const idleReadDue = cfg.clock.now() - this.idleWatermarkReadMs >= IDLE_WATERMARK_READ_MS;
    if (!hasData && !watermarkMoved && cfg.split.stageB !== null && this.assignment.tasks.size > 0 && idleReadDue) {
      // Other workers move the global watermark: an idle worker re-reads it (at most once a
      // second), else its tasks' windows never close (Spark's no-data batch, driven here by
      // the group's progress topic).
      this.idleWatermarkReadMs = cfg.clock.now();
      await this.assignment.refreshWatermark();
      W = this.shared.watermark.watermarkMs;
      watermarkMoved = W > this.lastBatchWatermarkMs;
    }
    if (!hasData && !watermarkMoved) {
      this.shared.host.status = { message: "Waiting for data to arrive", isDataAvailable: false, isTriggerActive: false };
      this.reporter.idle(this.nextBatchId, started, durations, W, srcLatest);
      return false;
    }
    const batchId = this.nextBatchId;
    this.shared.host.status = { message: "Processing new data", isDataAvailable: hasData, isTriggerActive: true };

    t = cfg.clock.now();
    this.shared.host.status = { ...this.shared.host.status, message: "Reading the source partitions" };
    const source = await readSourceRecords(
      this.shared.io.fetcher,
      this.assignment.sourceTps,
      this.assignment.positions,
      srcEnds,
      this.shared.cfg.source.includeHeaders,
    );
    durations.getBatch = cfg.clock.now() - t;
    t = cfg.clock.now();
    // foreachBatch on a stateless query runs stage A task by task (stageSourceTasks below).
    const stageA = await this.runStageA(taskSink && !cfg.split.stageB ? [] : source.parts, batchId, W);
    const batchRun: TaskRun = { watermarkMs: W, lateWatermarkMs: this.lateWatermarkMs, timestampMs: cfg.clock.now() };
    const stageAOut = stageA.output;
    const records: OutRecord[] = [];
    let outputRows = 0;
    let repartitionedRows = 0;
    const stageBFacts: { task: number; inputRows: number; report: WorkerBatchFacts["tasks"][number]["report"] }[] = [];
    /** Per repartition partition: the oldest event time this batch writes there (the watermark's in-transit hold). */
    const oldestWritten = new Map<number, number>();
    if (!cfg.split.stageB && taskSink) {
      const tasks = this.ownedTasks();
      const { positions } = this.assignment;
      const runStageA = (batches: Batch[], run: TaskRun) => this.stageAOn(batches, batchId, run);
      outputRows += await stageSourceTasks(taskSink, { parts: source.parts, tasks, positions, ends: srcEnds, run: batchRun, runStageA });
    } else if (!cfg.split.stageB) {
      outputRows += stageAOut.reduce((n, b) => n + b.numRows, 0);
      records.push(...toRecords(cfg.sink!.layout, stageAOut, cfg.sink!.topic));
    } else {
      for (const [p, rows] of routeRows(stageAOut, cfg.split.routeColumns, this.shared.io.numTasks)) {
        repartitionedRows += rows.length;
        const oldest = this.shared.watermark.hasDelay && cfg.eventTimeIndex !== null ? minEventTimeMs(rows, cfg.eventTimeIndex) : null;
        if (oldest !== null) oldestWritten.set(p, oldest);
        for (let i = 0; i < rows.length; i += MAX_RECORD_ROWS) {
          records.push({
            topic: this.shared.topics.repartition,
            partition: p,
            key: null,
            value: encodeRows(rows.slice(i, i + MAX_RECORD_ROWS)),
            headers: [],
          });
        }
      }
      for (const tp of this.assignment.repTps) {
        const task = this.assignment.tasks.get(tp.partition)!;
        const until = repEnds.get(tpKey(tp))!;
        this.shared.host.status = { ...this.shared.host.status, message: `Running task ${tp.partition}` };
        const input =
          until > this.assignment.positions.get(tpKey(tp))!
            ? await readRepartition(
                this.shared.io.fetcher,
                tp,
                this.assignment.positions.get(tpKey(tp))!,
                until,
                cfg.split.repartitionOutput,
              )
            : [];
        const replay = taskSink?.pending(tp.partition) ?? null;
        if (!input.length && !watermarkMoved && !replay) continue;
        const run = taskSink ? taskSink.runOf(tp.partition, batchRun) : batchRun;
        const ctx = new TaskContext(
          {
            batchId,
            outputMode: cfg.outputMode,
            evictionWatermarkMs: run.watermarkMs,
            lateWatermarkMs: run.lateWatermarkMs,
            sourceData: new Map([[REPARTITION_SOURCE_ID, input]]),
            physical: task.plan.physical,
          },
          task.state,
        );
        let out: Batch[];
        try {
          out = await task.plan.physical.execute({ eval: this.evalContext(run.watermarkMs, run.timestampMs), state: ctx });
        } catch (e) {
          ctx.abortAll();
          throw e;
        }
        outputRows += out.reduce((n, b) => n + b.numRows, 0);
        const from = this.assignment.positions.get(tpKey(tp))!;
        if (taskSink) taskSink.stage(tp.partition, [{ ...tp, start: from, end: until }], run, out);
        else records.push(...toRecords(cfg.sink!.layout, out, cfg.sink!.topic));
        for (const c of task.state.changelogRecords()) {
          records.push({ topic: this.shared.topics.changelog, partition: tp.partition, key: c.key, value: c.value, headers: [] });
        }
        for (const s of ctx.report.eventTime.values()) if (s.count > 0) this.shared.watermark.observe(tp.partition, s.max);
        records.push(this.shared.watermark.progressRecord(tp.partition, this.shared.workerId, until));
        stageBFacts.push({ task: tp.partition, inputRows: input.reduce((n, b) => n + b.numRows, 0), report: ctx.report });
      }
    }
    if (cfg.eventTimeIndex !== null) {
      for (const tp of this.assignment.sourceTps) {
        const end = srcEnds.get(tpKey(tp))!;
        if (end > this.assignment.positions.get(tpKey(tp))! || this.nextBatchId === 0)
          records.push(this.shared.watermark.sourceRecord(tp, stageA.maxByTp.get(tpKey(tp)) ?? null, end));
      }
    }
    checkRecordSizes(records, cfg.sink?.maxRequestSize ?? DEFAULT_MAX_REQUEST_SIZE);
    durations.addBatch = cfg.clock.now() - t;

    t = cfg.clock.now();
    const offsets: { topic: string; partition: number; offset: number }[] = [];
    for (const tp of this.assignment.sourceTps) offsets.push({ ...tp, offset: srcEnds.get(tpKey(tp))! });
    for (const tp of this.assignment.repTps) offsets.push({ ...tp, offset: repEnds.get(tpKey(tp))! });
    const { metadata, sent } = await commitBatchTransaction(this.shared, this.assignment, batchId, records, offsets, oldestWritten);
    durations.commitOffsets = cfg.clock.now() - t;
    for (const task of this.assignment.tasks.values()) task.state.publish();
    await this.shared.io.snapshots?.committed(
      [...this.assignment.tasks.values()].map((t) => t.state),
      records,
      sent,
    );
    this.failures.committed();
    for (const f of stageBFacts) {
      this.lastReports.set(f.task, f.report);
      const d = f.report.dropped();
      this.dropped.groups += d.groups;
      this.dropped.inputRows += d.inputRows;
    }
    const starts = new Map(this.assignment.positions);
    for (const o of offsets) this.assignment.positions.set(`${o.topic}-${o.partition}`, o.offset);
    this.shared.host.status = { ...this.shared.host.status, message: "Reading the group's progress (watermark)" };
    await this.assignment.refreshWatermark();
    this.lateWatermarkMs = W;
    this.lastBatchWatermarkMs = W;
    this.nextBatchId++;
    const progress = this.reporter.batchProgress(metadata.generationId, {
      batchId,
      startedMs: started,
      durations,
      watermarkMs: W,
      sourceTps: this.assignment.sourceTps,
      starts,
      ends: srcEnds,
      latest: srcLatest,
      inputRows: source.rows,
      repartitionedRows,
      outputRows,
      tasks: stageBFacts,
    });
    this.assignment.lastRestore = null;
    this.shared.host.status = { message: "Waiting for next trigger", isDataAvailable: hasData, isTriggerActive: false };
    cfg.events.onProgress(progress);
    return true;
  }
}
