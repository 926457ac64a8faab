/**
 * The per-task batch log of a foreachBatch sink in group mode (docs/scale-out.md, "foreachBatch
 * in group mode"): Spark's offsets/N and commits/N write-ahead log, one per task, kept in the
 * group's compacted progress topic under the key `sinkbatch-<task>`.
 *
 *   planned   before the user's function is called for (task, batchId): the input ranges the
 *             batch covers, the watermarks and the batch timestamp it runs with. Committed in a
 *             transaction of its own, before the call.
 *   committed in the batch's main transaction, with the task's changelog and consumed offsets.
 *
 * A task whose newest record is `planned` has a batch the user's function may have seen whose
 * effects Kafka does not hold: its next owner replays exactly that plan, under the same batch
 * id, before anything new. Both records share the key, so compaction keeps the newest.
 */
import { ArusError } from "../../common/errors.js";
import type { OutRecord } from "../../connectors/kafka/client.js";

export const TASK_BATCH_KEY_PREFIX = "sinkbatch-";

/** An input range of a plan: offsets [start, end) of one partition. */
export interface PlannedRange {
  readonly topic: string;
  readonly partition: number;
  readonly start: number;
  readonly end: number;
}

/** What one batch of one task covers: the facts that make its replay give the same rows. */
export interface TaskBatchPlan {
  readonly task: number;
  readonly batchId: number;
  /** Source partitions (a stateless query) or the task's repartition partition (a stateful one). */
  readonly ranges: readonly PlannedRange[];
  /** The watermark the stateful operator evicts by (the global watermark the batch started with). */
  readonly watermarkMs: number;
  /** The watermark rows are judged late against (the worker's previous batch's). */
  readonly lateWatermarkMs: number;
  /** current_timestamp() of the batch. */
  readonly timestampMs: number;
}

export type TaskBatchEntry =
  | { readonly kind: "planned"; readonly plan: TaskBatchPlan }
  | { readonly kind: "committed"; readonly task: number; readonly batchId: number };

function taskOf(e: TaskBatchEntry): number {
  return e.kind === "planned" ? e.plan.task : e.task;
}
function batchOf(e: TaskBatchEntry): number {
  return e.kind === "planned" ? e.plan.batchId : e.batchId;
}

export function taskBatchRecord(topic: string, e: TaskBatchEntry): OutRecord {
  const value =
    e.kind === "planned"
      ? {
          kind: "planned",
          batchId: e.plan.batchId,
          ranges: e.plan.ranges.map((r) => [r.topic, r.partition, r.start, r.end]),
          watermarkMs: e.plan.watermarkMs,
          lateWatermarkMs: e.plan.lateWatermarkMs,
          timestampMs: e.plan.timestampMs,
        }
      : { kind: "committed", batchId: e.batchId };
  return {
    topic,
    partition: 0,
    key: Buffer.from(`${TASK_BATCH_KEY_PREFIX}${taskOf(e)}`),
    value: Buffer.from(JSON.stringify(value)),
    headers: [],
  };
}

function bad(key: string, why: string): never {
  throw new ArusError("CLUSTER_PROGRESS_CORRUPT", `group mode: progress record '${key}' is not a task batch record: ${why}.`);
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

/** A progress record under `sinkbatch-<task>` (value already parsed from JSON). */
export function decodeTaskBatchRecord(key: string, value: unknown): TaskBatchEntry {
  const taskText = key.startsWith(TASK_BATCH_KEY_PREFIX) ? key.slice(TASK_BATCH_KEY_PREFIX.length) : "";
  if (!/^\d+$/.test(taskText)) bad(key, "no task number in its key");
  const task = Number(taskText);
  const v = value as Record<string, unknown> | null;
  if (typeof v !== "object" || v === null) bad(key, "not an object");
  if (!isCount(v.batchId)) bad(key, "no batch id");
  if (v.kind === "committed") return { kind: "committed", task, batchId: v.batchId };
  if (v.kind !== "planned") bad(key, `unknown kind ${JSON.stringify(v.kind)}`);
  if (!isInt(v.watermarkMs) || !isInt(v.lateWatermarkMs) || !isInt(v.timestampMs)) bad(key, "no watermarks or timestamp");
  if (!Array.isArray(v.ranges)) bad(key, "no ranges");
  const ranges = v.ranges.map((r: unknown): PlannedRange => {
    if (
      !Array.isArray(r) ||
      r.length !== 4 ||
      typeof r[0] !== "string" ||
      !isCount(r[1]) ||
      !isCount(r[2]) ||
      !isCount(r[3]) ||
      r[3] < r[2]
    )
      bad(key, `range ${JSON.stringify(r)}`);
    return { topic: r[0], partition: r[1], start: r[2], end: r[3] };
  });
  return {
    kind: "planned",
    plan: {
      task,
      batchId: v.batchId,
      ranges,
      watermarkMs: v.watermarkMs,
      lateWatermarkMs: v.lateWatermarkMs,
      timestampMs: v.timestampMs,
    },
  };
}

/**
 * The newest entry of every task, as far as this worker knows: from the progress topic, and from
 * its own transactions as they commit. It only moves forward — (batch id, then planned before
 * committed) — so reading older records again (after a rolled-back refresh) changes nothing.
 */
export class TaskBatchLog {
  private readonly newest = new Map<number, TaskBatchEntry>();

  /** A record read from the progress topic, or one of this worker's own that committed. */
  apply(e: TaskBatchEntry): void {
    const prev = this.newest.get(taskOf(e));
    if (prev && rank(prev) >= rank(e)) return;
    this.newest.set(taskOf(e), e);
  }

  /** The plan to replay before anything new: planned, never committed. */
  pending(task: number): TaskBatchPlan | null {
    const e = this.newest.get(task);
    return e?.kind === "planned" ? e.plan : null;
  }

  /** The batch id of the task's next new batch (0 for a task that never ran one). */
  nextBatchId(task: number): number {
    const e = this.newest.get(task);
    return e === undefined ? 0 : batchOf(e) + 1;
  }
}

function rank(e: TaskBatchEntry): number {
  return batchOf(e) * 2 + (e.kind === "committed" ? 1 : 0);
}
