/**
 * foreachBatch in group mode, a zombie worker process: w2 stops itself (SIGSTOP, crash point
 * `beforePlan:3:pause`) with its batch's rows computed and its plan not yet committed, stays
 * stopped past its 6 s session timeout while w1 takes its tasks over and runs their next batches,
 * then gets SIGCONT. Its plan transaction carries the consumed offsets with its generation, which
 * is over: the group coordinator refuses it, so the zombie never calls the function with a batch
 * id w1 has used for other rows. At the end every (task, batchId) called more than once was
 * called with the same rows, and the table upserted by (task, batchId) holds every id once.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip } from "../connectors/kafka-helpers.js";
import { assertEveryIdOnce, removeRunDirs, replays, setup, stopAll } from "./foreach-batch-run.js";
import { processState, sleep } from "./group-process-failures.js";
import { until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
after(removeRunDirs);

describe("group mode, foreachBatch: a worker paused past its session timeout (zombie)", kafkaSkip(), () => {
  it("paused before its plan: its plan is refused when it wakes, no batch id is called with other rows, every id once", async () => {
    const run = await setup(bootstrap, "stateless", 100);
    try {
      const w1 = run.worker("w1");
      const w2 = run.worker("w2");
      w1.start();
      await until("w1 called", () => run.calls().length > 0, 45_000);
      w2.start("beforePlan:3:pause");
      const pid = w2.runs[0]!.pid;
      await until(
        "w2 paused in its batch 3",
        async () => {
          await run.produceNext(20);
          return processState(pid) === "T";
        },
        60_000,
      );
      const pausedAt = Date.now();
      const w2Tasks = new Set(
        run
          .calls()
          .filter((c) => c.pid === pid)
          .map((c) => c.task),
      );
      assert.ok(w2Tasks.size > 0, "w2 ran tasks before its pause");
      // Past its session timeout: w1 gets w2's tasks and runs their next batches meanwhile.
      while (Date.now() - pausedAt < 14_000) {
        await run.produceNext(20);
        await sleep(300);
      }
      const tookOver = () => run.calls().some((c) => c.worker === "w1" && w2Tasks.has(c.task) && c.batchId > 0);
      assert.ok(tookOver(), "w1 ran w2's tasks while w2 was paused");
      process.kill(pid, "SIGCONT");
      for (let i = 0; i < 10; i++) {
        await run.produceNext(20);
        await sleep(300);
      }
      await until("every id upserted", () => run.upserted().length >= run.produced, 60_000);
      await sleep(1000);
      assert.deepEqual([...w1.errors(), ...w2.errors()], []);
      assert.equal(w2.runs.length, 1, "w2 was never restarted: it woke as a zombie");
      // A (task, batchId) called twice with other rows throws here: the zombie's refused plan called nothing.
      replays(run.calls());
      assertEveryIdOnce(run.upserted(), run.produced);
    } finally {
      await stopAll(run.workers);
    }
  });
});
