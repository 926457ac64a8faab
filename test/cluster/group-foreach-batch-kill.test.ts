/**
 * foreachBatch in group mode, a worker killed (SIGKILL) after its function ran for a batch and
 * before the batch's transaction committed — before it began (crash point `beforeSink`), or
 * inside it with its records sent (`insideSink`: a transaction left open on the progress and
 * changelog partitions until its timeout): the task's next owner — the same worker restarted,
 * or another worker after the session timeout — calls the function again with the same
 * (task, batchId) and the same rows before anything new. Worker processes
 * run test/cluster/fixtures/foreach-batch-worker.ts, whose function writes a table upserted by
 * (task, batchId) and a call log appended without dedupe: the upserted table ends exactly right,
 * the call log shows the replay (proof the kill hit where it should).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip, produce } from "../connectors/kafka-helpers.js";
import {
  assertEveryIdOnce,
  event,
  expectedWindows,
  PARTITIONS,
  removeRunDirs,
  replays,
  setup,
  stopAll,
  windowsOf,
} from "./foreach-batch-run.js";
import { until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
after(removeRunDirs);

describe("group mode, foreachBatch: a worker killed between its function and its commit", kafkaSkip(), () => {
  it("stateless, killed before its transaction, the same worker restarted: the batch is replayed with the same (task, batchId) and rows", async () => {
    const N = 200;
    const run = await setup(bootstrap, "stateless", N);
    try {
      const w1 = run.worker("w1");
      w1.start("beforeSink:2");
      assert.ok(await w1.awaitExit(45_000), "w1 reached its crash point");
      assert.equal(w1.runs[0]!.exit?.signal, "SIGKILL");
      const killedPid = w1.runs[0]!.pid;
      const before = run.calls().filter((c) => c.pid === killedPid);
      assert.ok(before.length > 0, "the killed run called the function");
      w1.start();
      await until("every id upserted", () => run.upserted().length >= N, 45_000);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(w1.errors(), []);
      assertEveryIdOnce(run.upserted(), N);
      const repeated = replays(run.calls());
      assert.ok(repeated.length > 0, "a (task, batchId) was called twice: the kill came after the function");
      for (const list of repeated) {
        assert.equal(list.length, 2);
        assert.equal(list[0]!.pid, killedPid, "first call: the killed run");
        assert.notEqual(list[1]!.pid, killedPid, "replay: the restarted run");
      }
      // The append-only log holds the replayed rows twice.
      const appended = run.calls().flatMap((c) => c.values);
      assert.ok(appended.length > N, `the call log without dedupe has duplicates (${appended.length} rows for ${N} ids)`);
    } finally {
      await stopAll(run.workers);
    }
  });

  it("stateful, killed inside its transaction, taken over by another worker: the new owner replays the batch over the restored state", async () => {
    const N = 240;
    const run = await setup(bootstrap, "stateful", N);
    try {
      const w1 = run.worker("w1");
      w1.start("insideSink:3");
      assert.ok(await w1.awaitExit(45_000), "w1 reached its crash point");
      assert.equal(w1.runs[0]!.exit?.signal, "SIGKILL");
      // Another worker: it gets w1's tasks once w1's session times out (6 s).
      const w2 = run.worker("w2");
      w2.start();
      // One event per partition far ahead: the watermark passes every window of the ids below N.
      await produce(
        bootstrap,
        run.input,
        Array.from({ length: PARTITIONS }, (_, p) => event(N + 1000 + p, p)),
      );
      const expected = expectedWindows(N);
      await until("every window upserted", () => windowsOf(run.upserted()).size >= expected.size, 50_000);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(w2.errors(), []);
      assert.deepEqual(windowsOf(run.upserted()), expected);
      const repeated = replays(run.calls());
      assert.ok(repeated.length > 0, "a (task, batchId) was called twice: the kill came after the function");
      for (const list of repeated) {
        assert.equal(list.length, 2);
        assert.equal(list[0]!.worker, "w1");
        assert.equal(list[1]!.worker, "w2", "the new owner replays the batch");
      }
      const appended = run.calls().flatMap((c) => c.values);
      assert.ok(
        appended.length > expected.size,
        `the call log without dedupe repeats windows (${appended.length} rows for ${expected.size})`,
      );
    } finally {
      await stopAll(run.workers);
    }
  });
});
