/**
 * The foreachBatch plan log of group mode (runtime/cluster/task-batch-log.ts): its progress-topic
 * records encode and decode exactly, a damaged record is refused naming its key, the log only
 * moves forward (reading older records again changes nothing), a plan without its commit is
 * pending; and a pending plan pins the batch's ends to its ranges (task-batch-sink.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KafkaFencedError } from "../../src/connectors/kafka/group/index.js";
import type { StreamSink } from "../../src/connectors/sink.js";
import type { GroupAssignment } from "../../src/runtime/cluster/group-assignment.js";
import type { GroupMetadata, WorkerTransactionsPort } from "../../src/runtime/cluster/kafka-ports.js";
import {
  decodeTaskBatchRecord,
  TASK_BATCH_KEY_PREFIX,
  TaskBatchLog,
  type TaskBatchPlan,
  taskBatchRecord,
} from "../../src/runtime/cluster/task-batch-log.js";
import { TaskBatchSink } from "../../src/runtime/cluster/task-batch-sink.js";
import { StructOf } from "../../src/types/datatypes.js";

const plan: TaskBatchPlan = {
  task: 3,
  batchId: 17,
  ranges: [
    { topic: "in", partition: 3, start: 100, end: 140 },
    { topic: "in-2", partition: 3, start: 7, end: 7 },
  ],
  watermarkMs: 1_767_225_600_000,
  lateWatermarkMs: 1_767_225_590_000,
  timestampMs: 1_767_225_612_345,
};

/** A record as the progress topic hands it back: key text and parsed JSON value. */
function roundTrip(rec: { key: Uint8Array | null; value: Uint8Array | null }) {
  return decodeTaskBatchRecord(Buffer.from(rec.key!).toString("utf8"), JSON.parse(Buffer.from(rec.value!).toString("utf8")));
}

describe("task batch log records", () => {
  it("a plan encodes under sinkbatch-<task> in the progress topic's one partition and decodes to itself", () => {
    const rec = taskBatchRecord("arus-g-progress", { kind: "planned", plan });
    assert.equal(rec.topic, "arus-g-progress");
    assert.equal(rec.partition, 0);
    assert.equal(Buffer.from(rec.key!).toString(), `${TASK_BATCH_KEY_PREFIX}3`);
    assert.deepEqual(roundTrip(rec), { kind: "planned", plan });
  });

  it("a commit shares the plan's key (compaction keeps the newest) and decodes to itself", () => {
    const rec = taskBatchRecord("p", { kind: "committed", task: 3, batchId: 17 });
    assert.equal(Buffer.from(rec.key!).toString(), "sinkbatch-3");
    assert.deepEqual(roundTrip(rec), { kind: "committed", task: 3, batchId: 17 });
  });

  it("a damaged record is refused naming its key", () => {
    const bad = (key: string, value: unknown, why: RegExp) =>
      assert.throws(
        () => decodeTaskBatchRecord(key, value),
        (e: Error & { errorClass?: string }) => e.message.includes(`'${key}'`) && why.test(e.message),
      );
    bad("sinkbatch-x", { kind: "committed", batchId: 1 }, /no task number/);
    bad("sinkbatch-1", null, /not an object/);
    bad("sinkbatch-1", { kind: "committed", batchId: -1 }, /no batch id/);
    bad("sinkbatch-1", { kind: "done", batchId: 1 }, /unknown kind/);
    bad("sinkbatch-1", { kind: "planned", batchId: 1, ranges: [], watermarkMs: 0, lateWatermarkMs: 0 }, /timestamp/);
    const planned = { kind: "planned", batchId: 1, watermarkMs: 0, lateWatermarkMs: 0, timestampMs: 0 };
    bad("sinkbatch-1", { ...planned, ranges: [["in", 0, 9, 5]] }, /range/);
    bad("sinkbatch-1", { ...planned, ranges: [["in", 0, 5]] }, /range/);
    bad("sinkbatch-1", { ...planned, ranges: "in" }, /no ranges/);
  });
});

describe("TaskBatchLog", () => {
  it("a plan without its commit is pending; once committed the next batch id follows it", () => {
    const log = new TaskBatchLog();
    assert.equal(log.nextBatchId(3), 0, "a task that never ran starts at 0");
    assert.equal(log.pending(3), null);
    log.apply({ kind: "planned", plan });
    assert.deepEqual(log.pending(3), plan);
    assert.equal(log.pending(4), null, "per task");
    log.apply({ kind: "committed", task: 3, batchId: 17 });
    assert.equal(log.pending(3), null);
    assert.equal(log.nextBatchId(3), 18);
  });

  it("only moves forward: older records read again change nothing", () => {
    const log = new TaskBatchLog();
    log.apply({ kind: "committed", task: 3, batchId: 16 });
    log.apply({ kind: "planned", plan });
    // A refresh rolled back re-reads the progress topic from an earlier offset.
    log.apply({ kind: "committed", task: 3, batchId: 16 });
    log.apply({ kind: "planned", plan: { ...plan, batchId: 16 } });
    assert.deepEqual(log.pending(3), plan, "batch 17's plan stays pending");
    log.apply({ kind: "committed", task: 3, batchId: 17 });
    log.apply({ kind: "planned", plan });
    assert.equal(log.pending(3), null, "a plan read again after its commit is not pending");
  });
});

describe("TaskBatchSink.pinEnds", () => {
  const sink = () => {
    const none: StreamSink = { description: "none", reportsOutputRows: false, addBatch: async () => {} };
    const o = { topic: "p", group: "g", worker: "w", names: [], schema: StructOf([]), outputMode: "append" as const, timeZone: "UTC" };
    return new TaskBatchSink(none, o);
  };
  const tasks = new Map([
    [
      3,
      [
        { topic: "in", partition: 3 },
        { topic: "in-2", partition: 3 },
        { topic: "in-3", partition: 3 },
      ],
    ],
    [1, [{ topic: "in", partition: 1 }]],
  ]);
  const ends = new Map([
    ["in-3", 500],
    ["in-2-3", 50],
    ["in-3-3", 60],
    ["in-1", 80],
  ]);

  it("a pending task reads exactly its plan's ranges, its other partitions nothing; other tasks keep their ends", () => {
    const s = sink();
    s.read("sinkbatch-3", JSON.parse(Buffer.from(taskBatchRecord("p", { kind: "planned", plan }).value!).toString()));
    const positions = new Map([
      ["in-3", 100],
      ["in-2-3", 7],
      ["in-3-3", 20],
      ["in-1", 10],
    ]);
    const pinned = s.pinEnds(tasks, positions, ends);
    assert.equal(pinned.replays, 1);
    assert.deepEqual(
      pinned.ends,
      new Map([
        ["in-3", 140],
        ["in-2-3", 7],
        ["in-3-3", 20],
        ["in-1", 80],
      ]),
    );
    assert.deepEqual(s.runOf(3, { watermarkMs: 1, lateWatermarkMs: 1, timestampMs: 1 }), {
      watermarkMs: plan.watermarkMs,
      lateWatermarkMs: plan.lateWatermarkMs,
      timestampMs: plan.timestampMs,
    });
    assert.deepEqual(s.runOf(1, { watermarkMs: 1, lateWatermarkMs: 2, timestampMs: 3 }), {
      watermarkMs: 1,
      lateWatermarkMs: 2,
      timestampMs: 3,
    });
  });

  it("committed offsets at the plan's ends: its batch committed (its record not read yet), nothing replays", () => {
    const s = sink();
    s.read("sinkbatch-3", JSON.parse(Buffer.from(taskBatchRecord("p", { kind: "planned", plan }).value!).toString()));
    const positions = new Map([
      ["in-3", 140],
      ["in-2-3", 7],
      ["in-3-3", 20],
      ["in-1", 10],
    ]);
    const pinned = s.pinEnds(tasks, positions, ends);
    assert.equal(pinned.replays, 0);
    assert.deepEqual(pinned.ends, ends);
    assert.equal(s.pending(3), null);
    assert.equal(s.log.nextBatchId(3), 18);
  });

  it("a committed offset that is not the plan's start is refused (CLUSTER_SINK_PLAN_MISMATCH)", () => {
    const s = sink();
    s.read("sinkbatch-3", JSON.parse(Buffer.from(taskBatchRecord("p", { kind: "planned", plan }).value!).toString()));
    const positions = new Map([
      ["in-3", 120],
      ["in-2-3", 7],
      ["in-3-3", 20],
      ["in-1", 10],
    ]);
    assert.throws(() => s.pinEnds(tasks, positions, ends), /task 3 must replay its foreachBatch batch 17 over in-3 \[100, 140\).*is 120/);
  });
});

describe("TaskBatchSink.deliver", () => {
  it("a batch that only replays is fenced too: a worker whose generation is over never calls the function", async () => {
    const calls: number[] = [];
    const fn: StreamSink = { description: "fn", reportsOutputRows: false, addBatch: async (batchId) => void calls.push(batchId) };
    const o = { topic: "p", group: "g", worker: "w", names: [], schema: StructOf([]), outputMode: "append" as const, timeZone: "UTC" };
    const s = new TaskBatchSink(fn, o);
    s.read("sinkbatch-3", JSON.parse(Buffer.from(taskBatchRecord("p", { kind: "planned", plan }).value!).toString()));
    s.stage(3, plan.ranges, s.runOf(3, { watermarkMs: 0, lateWatermarkMs: 0, timestampMs: 0 }), []);
    const sent: { offset: number }[][] = [];
    // The group coordinator's answer to a zombie's offsets: its generation is over.
    const txn: WorkerTransactionsPort = {
      init: async () => {},
      begin: async () => {},
      send: async () => new Map(),
      sendOffsets: async (offsets) => {
        sent.push([...offsets]);
        throw new KafkaFencedError("group", "ILLEGAL_GENERATION", "fenced by the group coordinator (ILLEGAL_GENERATION)");
      },
      commit: async () => {},
      abort: async () => {},
      close: async () => {},
    };
    const applied: GroupMetadata = { groupId: "g", generationId: 4, memberId: "m", groupInstanceId: "w" };
    const assignment = { applied, backgroundJoin: null } as unknown as GroupAssignment;
    await assert.rejects(s.deliver(txn, assignment, 0), /ILLEGAL_GENERATION/);
    assert.deepEqual(calls, [], "the function was not called");
    assert.deepEqual(
      sent[0]?.map((x) => x.offset),
      plan.ranges.map((r) => r.start),
      "the replay's offsets as they stand (its plan's starts)",
    );
  });
});
