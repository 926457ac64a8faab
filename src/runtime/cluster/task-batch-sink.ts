/**
 * foreachBatch in group mode (docs/scale-out.md, "foreachBatch in group mode"): exactly-once for
 * a user function that is idempotent by (task, batch id). The user's writes cannot join the
 * worker's Kafka transaction, so each task gets Spark's write-ahead discipline instead:
 *
 *   1. plan:    a transaction of its own commits, per task that runs, the batch's plan record
 *               (task-batch-log.ts: batch id, input ranges, watermarks, timestamp) and the
 *               consumed offsets as they stand, sent with the group's generation — a zombie
 *               whose tasks moved on is refused here, before it calls anything;
 *   2. deliver: the user's function once per task: (rows, batchId, { task, worker, group });
 *   3. commit:  the batch's main transaction carries the tasks' `committed` records with the
 *               changelog, progress and consumed offsets.
 *
 * A task whose newest record is a plan (the worker died, was fenced or failed between 1 and 3)
 * is replayed by its next owner — the same worker, or another after a rebalance — before
 * anything new: the same ranges, watermarks and timestamp over the state restored at its last
 * commit, so the function sees the same rows under the same (task, batch id).
 *
 * A task: the stage-B task (state partition) of a stateful query; for a stateless query the
 * source partition index (partition p of every subscribed topic, which the assignor keeps on one
 * worker).
 */
import type { Batch } from "../../columnar/batch.js";
import { crashPoint } from "../../common/crash-points.js";
import { ArusError } from "../../common/errors.js";
import type { TopicPartition } from "../../connectors/kafka/client.js";
import { type OutRecord, tpKey } from "../../connectors/kafka/client.js";
import type { StreamSink } from "../../connectors/sink.js";
import type { StructType } from "../../types/datatypes.js";
import type { GroupAssignment } from "./group-assignment.js";
import type { WorkerTransactionsPort } from "./kafka-ports.js";
import {
  decodeTaskBatchRecord,
  type PlannedRange,
  TASK_BATCH_KEY_PREFIX,
  TaskBatchLog,
  type TaskBatchPlan,
  taskBatchRecord,
} from "./task-batch-log.js";
import type { WorkerShared } from "./worker-io.js";

export interface TaskSinkOptions {
  /** The progress topic (the plan log lives there). */
  readonly topic: string;
  readonly group: string;
  readonly worker: string;
  readonly names: readonly string[];
  readonly schema: StructType;
  readonly outputMode: "append" | "update" | "complete";
  readonly timeZone: string;
}

/** What one task runs with in this batch: its own plan's when it replays one. */
export interface TaskRun {
  readonly watermarkMs: number;
  readonly lateWatermarkMs: number;
  readonly timestampMs: number;
}

interface Staged {
  readonly plan: TaskBatchPlan;
  readonly replay: boolean;
  readonly batches: Batch[];
}

export class TaskBatchSink {
  readonly log = new TaskBatchLog();
  private readTasks = "";
  private staged: Staged[] = [];

  constructor(
    private readonly sink: StreamSink,
    private readonly o: TaskSinkOptions,
  ) {}

  /** A progress-topic record under this module's key prefix (GlobalWatermark hands them over). */
  read(key: string, value: unknown): boolean {
    if (!key.startsWith(TASK_BATCH_KEY_PREFIX)) return false;
    this.log.apply(decodeTaskBatchRecord(key, value));
    return true;
  }

  /**
   * Before a batch: when the owned tasks changed (or the last batch failed), read the progress
   * topic — after every transaction written to it so far is decided, since a commit returns
   * before its markers are written and a previous owner's last `committed` record must not be
   * missed (its task would replay a batch that committed). A dead worker's open transaction ends
   * at its timeout (`maxWaitMs`); past that, the read goes up to it.
   */
  async beforeBatch(tasks: Iterable<number>, shared: WorkerShared, assignment: GroupAssignment): Promise<void> {
    const key = [...tasks].sort((a, b) => a - b).join(",");
    if (key === this.readTasks) return;
    const tp = { topic: this.o.topic, partition: 0 };
    const { admin, logEndAdmin } = shared.io;
    const written = logEndAdmin ? (await logEndAdmin.latestOffsets([tp])).get(tpKey(tp))! : 0;
    // A dead worker's open transaction ends at its timeout, plus the broker's abort check (as a restore waits).
    const maxWaitMs = shared.cfg.cluster.transactionTimeoutMs + 15_000;
    for (const t0 = Date.now(); Date.now() - t0 < maxWaitMs; ) {
      if ((await admin.latestOffsets([tp])).get(tpKey(tp))! >= written) break;
      const message = `Waiting for the transactions on ${tpKey(tp)} to end (foreachBatch plans)`;
      shared.host.status = { message, isDataAvailable: false, isTriggerActive: true };
      await new Promise((r) => setTimeout(r, 100));
    }
    await assignment.refreshWatermark();
    this.readTasks = key;
  }

  pending(task: number): TaskBatchPlan | null {
    return this.log.pending(task);
  }

  /**
   * The batch's ends with every pending plan's ranges pinned: a task that replays reads exactly
   * its plan's ranges, and its other partitions nothing. `tasks` maps each owned task to its
   * partitions (source partitions of index p, or repartition partition p). Returns the new ends
   * and how many tasks replay.
   *
   * The group's committed offsets must stand at the plan's starts. Standing at its ends (a range
   * not empty), they say the plan's batch committed — only its own transaction moves them there —
   * and its `committed` record was not read yet: nothing to replay. Anywhere else is refused.
   */
  pinEnds(
    tasks: ReadonlyMap<number, readonly TopicPartition[]>,
    positions: ReadonlyMap<string, number>,
    ends: ReadonlyMap<string, number>,
  ): { ends: Map<string, number>; replays: number } {
    const out = new Map(ends);
    let replays = 0;
    for (const [task, tps] of tasks) {
      const plan = this.log.pending(task);
      if (!plan) continue;
      const at = (r: PlannedRange) => positions.get(tpKey(r));
      const owned = plan.ranges.filter((r) => at(r) !== undefined);
      if (owned.some((r) => r.start < r.end) && owned.every((r) => at(r) === r.end)) {
        this.log.apply({ kind: "committed", task, batchId: plan.batchId });
        continue;
      }
      const off = owned.find((r) => at(r) !== r.start);
      if (off) {
        throw new ArusError(
          "CLUSTER_SINK_PLAN_MISMATCH",
          `group mode: task ${task} must replay its foreachBatch batch ${plan.batchId} over ${tpKey(off)} [${off.start}, ${off.end}), but the group's committed offset there is ${at(off)}.`,
        );
      }
      replays++;
      const byTp = new Map(owned.map((r) => [tpKey(r), r]));
      for (const tp of tps) out.set(tpKey(tp), byTp.get(tpKey(tp))?.end ?? positions.get(tpKey(tp))!);
    }
    return { ends: out, replays };
  }

  /** What `task` runs with: its pending plan's watermarks and timestamp, else the batch's. */
  runOf(task: number, batch: TaskRun): TaskRun {
    const plan = this.log.pending(task);
    return plan ? { watermarkMs: plan.watermarkMs, lateWatermarkMs: plan.lateWatermarkMs, timestampMs: plan.timestampMs } : batch;
  }

  /** A task's output of this batch, over `ranges` (its partitions' [position, end)), run with `run`. */
  stage(task: number, ranges: readonly PlannedRange[], run: TaskRun, batches: Batch[]): void {
    const pending = this.log.pending(task);
    const plan = pending ?? { task, batchId: this.log.nextBatchId(task), ranges, ...run };
    this.staged.push({ plan, replay: pending !== null, batches });
  }

  /**
   * Steps 1 and 2: the new plans in their own transaction (offsets as they stand, with the
   * group's metadata from `metadataFor`), then the user's function per task. Returns the
   * `committed` records for the batch's main transaction.
   */
  async deliver(txn: WorkerTransactionsPort, assignment: GroupAssignment, batchId: number): Promise<OutRecord[]> {
    crashPoint("beforePlan", batchId);
    const fresh = this.staged.filter((s) => !s.replay);
    // Replays send their plans' starts too (where the offsets stand): a zombie that only replays
    // is refused here as well, before it calls the function beside the tasks' new owner.
    const offsets = this.staged.flatMap((s) => s.plan.ranges.map((r) => ({ topic: r.topic, partition: r.partition, offset: r.start })));
    if (offsets.length) {
      await txn.begin();
      if (fresh.length) await txn.send(fresh.map((s) => taskBatchRecord(this.o.topic, { kind: "planned", plan: s.plan })));
      // As the batch's own commit: a cooperative join under way may move it to the next generation (background-join.ts).
      const applied = assignment.applied!;
      await txn.sendOffsets(
        offsets,
        assignment.backgroundJoin ? await assignment.backgroundJoin.commitMetadata(applied, offsets) : applied,
      );
      await txn.commit();
      for (const s of fresh) this.log.apply({ kind: "planned", plan: s.plan });
    }
    const { names, schema, outputMode, timeZone } = this.o;
    for (const s of [...this.staged].sort((a, b) => a.plan.task - b.plan.task)) {
      const context = { task: s.plan.task, worker: this.o.worker, group: this.o.group };
      await this.sink.addBatch(s.plan.batchId, { names, schema, batches: s.batches, outputMode, timeZone }, context);
    }
    return this.staged.map((s) => taskBatchRecord(this.o.topic, { kind: "committed", task: s.plan.task, batchId: s.plan.batchId }));
  }

  /** Step 3 committed: the tasks' batches are done. */
  committed(): void {
    for (const s of this.staged) this.log.apply({ kind: "committed", task: s.plan.task, batchId: s.plan.batchId });
    this.staged = [];
  }

  /**
   * The batch failed: a plan already committed stays pending (replayed next). The next batch
   * reads the progress topic first: a main transaction whose commit failed may have committed.
   */
  discard(): void {
    this.staged = [];
    this.readTasks = "";
  }
}

/** A stateless query's tasks: its source partitions by partition index (the assignor keeps index p on one worker). */
export function sourceTasks(tps: readonly TopicPartition[]): Map<number, TopicPartition[]> {
  const out = new Map<number, TopicPartition[]>();
  for (const tp of tps) {
    const list = out.get(tp.partition);
    if (list) list.push(tp);
    else out.set(tp.partition, [tp]);
  }
  return out;
}

/**
 * A stateless query's batch, task by task: stage A over each task's source records (with its
 * plan's watermarks and timestamp when it replays), staged for delivery. Returns the output rows.
 */
export async function stageSourceTasks(
  sink: TaskBatchSink,
  o: {
    readonly parts: readonly { readonly tp: TopicPartition; readonly batch: Batch }[];
    readonly tasks: ReadonlyMap<number, readonly TopicPartition[]>;
    readonly positions: ReadonlyMap<string, number>;
    readonly ends: ReadonlyMap<string, number>;
    readonly run: TaskRun;
    readonly runStageA: (batches: Batch[], run: TaskRun) => Promise<Batch[]>;
  },
): Promise<number> {
  let rows = 0;
  for (const [task, tps] of o.tasks) {
    const batches = o.parts.filter((p) => p.tp.partition === task).map((p) => p.batch);
    if (!batches.length && !sink.pending(task)) continue;
    const run = sink.runOf(task, o.run);
    const out = batches.length ? await o.runStageA(batches, run) : [];
    rows += out.reduce((n, b) => n + b.numRows, 0);
    const ranges = tps.map((tp) => ({
      topic: tp.topic,
      partition: tp.partition,
      start: o.positions.get(tpKey(tp))!,
      end: o.ends.get(tpKey(tp))!,
    }));
    sink.stage(task, ranges, run, out);
  }
  return rows;
}
