// The worker pool runs tasks on real threads: results per task, moved buffers, a task's own
// error against a thread that cannot run (WorkerCrashError), and recovery after a crash.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WorkerCrashError, WorkerPool } from "../../src/common/worker-pool.js";

type Req = { values: Float64Array; fail?: boolean; exit?: boolean };
const echo = new URL("./worker-fixtures/echo-worker.ts", import.meta.url);

describe("WorkerPool", () => {
  it("answers every task with its own result, more tasks than threads", async () => {
    const pool = new WorkerPool<Req, Float64Array>(echo, 2);
    try {
      const inputs = Array.from({ length: 7 }, (_, i) => Float64Array.of(i, i + 0.5));
      const outs = await Promise.all(inputs.map((values) => pool.run({ values })));
      assert.deepEqual(
        outs.map((o) => [...o]),
        inputs.map((v) => [...v].map((x) => x * 2)),
      );
      const values = Float64Array.of(1, 2, 3);
      await pool.run({ values }, [values.buffer]);
      assert.equal(values.byteLength, 0, "the request's buffer was moved, not copied");
    } finally {
      await pool.close();
    }
  });

  it("a task's error rejects that task only; a dying thread is a WorkerCrashError and is replaced", async () => {
    const pool = new WorkerPool<Req, Float64Array>(echo, 1);
    try {
      await assert.rejects(
        pool.run({ values: Float64Array.of(1), fail: true }),
        (e: Error) => !(e instanceof WorkerCrashError) && e.message === "task refused",
      );
      await assert.rejects(pool.run({ values: Float64Array.of(1), exit: true }), WorkerCrashError);
      assert.deepEqual([...(await pool.run({ values: Float64Array.of(4) }))], [8]);
    } finally {
      await pool.close();
    }
  });

  it("a thread that cannot start fails its task with WorkerCrashError", async () => {
    const pool = new WorkerPool<Req, Float64Array>(new URL("./worker-fixtures/broken-worker.ts", import.meta.url), 1);
    try {
      await assert.rejects(pool.run({ values: Float64Array.of(1) }), WorkerCrashError);
    } finally {
      await pool.close();
    }
  });
});
