/**
 * Property: a stream-stream join gives the same rows in every batch and the same state metrics
 * whether its columnar state lives on the main thread or on 2-3 state threads
 * (arus.state.threads), and a checkpoint moves between thread counts in both directions: the
 * query under test is stopped at random batches and restarted with another thread count, the
 * reference is stopped and restarted at the same batches on the main thread. Random rows cut into random micro-batches
 * on both sides, every join type, joins evicted by a window in the key, by a time range on the
 * values, or never, with and without a residual condition, NULL and NaN keys, random watermark
 * delays and partition counts. Rows are compared per batch, sorted: threads answer in
 * partition order, not in input order.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import { StreamStreamJoinExec } from "../../src/execution/stateful/stream-join.js";
import { functions as F } from "../../src/index.js";
import {
  type JoinRun,
  joinKind,
  joinQuery,
  joinRow,
  LEFT_SCHEMA,
  leftRow,
  RANGE,
  RIGHT_SCHEMA,
  recordJoinStats,
  rightRow,
} from "../state/join-scenarios.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const s = utcSession();
const tempDir = tempDirs("arus-join-threads-");

const scenario = fc.record({
  ...joinKind,
  partitions: fc.constantFrom(1, 2, 3, 5),
  batches: fc.array(fc.tuple(fc.array(joinRow, { maxLength: 6 }), fc.array(joinRow, { maxLength: 6 })), { minLength: 1, maxLength: 6 }),
  // per batch (and the two closing ones): the thread count of the query under test (a change = stop and restart)
  threads: fc.array(fc.constantFrom(1, 2, 3), { minLength: 8, maxLength: 8 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * Batch b runs with `sc.threads[b]` state threads (`onThreads`), or on the main thread but
 * stopped and restarted at the same batches (the reference: a restart skips the no-data batch
 * the running query would have run after the batch before it).
 */
async function run(sc: Scenario, onThreads: boolean): Promise<JoinRun | null> {
  const threadsAt = (b: number) => sc.threads[Math.min(b, sc.threads.length - 1)]!;
  const dir = await tempDir();
  const ls = s.memoryStream(LEFT_SCHEMA);
  const rs = s.memoryStream(RIGHT_SCHEMA);
  if (!joinQuery(ls.toDF(), rs.toDF(), sc)) return null;
  const out: JoinRun = { rows: [], stats: [] };
  const start = async (threads: number) => {
    s.conf.set("arus.state.threads", onThreads ? String(threads) : "1");
    s.conf.set("spark.sql.shuffle.partitions", String(sc.partitions));
    try {
      return await joinQuery(ls.toDF(), rs.toDF(), sc)!
        .writeStream.outputMode("append")
        .option("checkpointLocation", dir)
        .foreachBatch(async (batch, id) => {
          out.rows[id] = (await batch.collect()).map((r) => JSON.stringify(r)).sort();
        })
        .start();
    } finally {
      s.conf.unset("arus.state.threads");
      s.conf.set("spark.sql.shuffle.partitions", "2");
    }
  };
  let current = threadsAt(0);
  let q = await start(current);
  const record = () => recordJoinStats(q, out);
  const step = async (b: number, add: () => void) => {
    const want = threadsAt(b);
    if (want !== current) {
      record();
      await q.stop();
      current = want;
      q = await start(current);
    }
    add();
    await q.processAllAvailable();
  };
  for (let b = 0; b < sc.batches.length; b++) {
    const [left, right] = sc.batches[b]!;
    await step(b, () => {
      ls.addData(left.map(leftRow));
      rs.addData(right.map(rightRow));
    });
  }
  // Far-future rows on both sides move the watermark past everything: outer rows come out.
  const n = sc.batches.length;
  await step(n, () => {
    ls.addData([{ lk: "z", ld: 9, lts: new Date(1_000_000), lv: 0 }]);
    rs.addData([{ rk: "y", rd: 8, rts: new Date(1_000_000), rv: 0 }]);
  });
  await step(n + 1, () => ls.addData([{ lk: "z", ld: 9, lts: new Date(2_000_000), lv: 0 }]));
  record();
  await q.stop();
  return out;
}

describe("stream-stream join state on the state threads", () => {
  it("equals the main thread's, batch by batch, across thread-count changes", async () => {
    const before = { batches: StatePartitionThreads.batchesRun, planned: StreamStreamJoinExec.created.threads };
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const reference = await run(sc, false);
        const threaded = await run(sc, true);
        assert.deepEqual(threaded, reference);
      }),
      { numRuns: 40 },
    );
    assert.ok(StreamStreamJoinExec.created.threads > before.planned, "joins were planned on the state threads");
    assert.ok(StatePartitionThreads.batchesRun > before.batches, "join batches ran on the state threads");
  });

  it("keeps a condition with a user function on the main thread", async () => {
    const ls = s.memoryStream("lk STRING, lts TIMESTAMP");
    const rs = s.memoryStream("rk STRING, rts TIMESTAMP");
    const near = F.udf((a: Date, b: Date) => Math.abs(a.getTime() - b.getTime()) <= 5000, "boolean");
    s.conf.set("arus.state.threads", "2");
    const before = StatePartitionThreads.batchesRun;
    const rows: string[] = [];
    const q = await ls
      .toDF()
      .withWatermark("lts", "1 second")
      .join(rs.toDF().withWatermark("rts", "1 second"), F.expr(`lk = rk AND ${RANGE}`).and(near(F.col("lts"), F.col("rts"))))
      .writeStream.foreachBatch(async (b) => {
        for (const r of await b.collect()) rows.push(JSON.stringify(r));
      })
      .start()
      .finally(() => s.conf.unset("arus.state.threads"));
    try {
      ls.addData([{ lk: "a", lts: new Date(1000) }]);
      rs.addData([{ rk: "a", rts: new Date(3000) }]);
      await q.processAllAvailable();
    } finally {
      await q.stop();
    }
    assert.equal(rows.length, 1, "the pair joined");
    assert.equal(StatePartitionThreads.batchesRun, before, "no batch ran on the state threads");
  });
});
