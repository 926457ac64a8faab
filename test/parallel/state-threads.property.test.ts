/**
 * Property: a streaming aggregation gives the same output, batch by batch, whether its state
 * partitions live on the main thread or on 2-3 state threads (arus.state.threads), and a
 * checkpoint moves between thread counts in both directions: the query under test is stopped
 * at random batches and restarted with another thread count, the reference runs on the main
 * thread without a stop. Random events (event time, key, value with NULLs) over random
 * partition counts, output modes, window shapes and groupings (window + key, key only, none).
 * Rows are compared per batch, sorted: threads answer in partition order, not first-touch order.
 * The rows come to the main thread, which groups them before routing (route-combiner.ts) until a
 * random probe decides whether grouping pays.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { RouteCombiner } from "../../src/execution/parallel/route-combiner.js";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import { type DataFrame, functions as F, type MemoryStream } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-state-threads-");

const event = fc.record({
  s: fc.integer({ min: 0, max: 90 }),
  key: fc.option(fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), { nil: null, freq: 8 }),
  v: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 6 }),
});

const scenario = fc.record({
  partitions: fc.constantFrom(1, 2, 3, 5),
  mode: fc.constantFrom("append", "update", "complete") as fc.Arbitrary<"append" | "update" | "complete">,
  grouping: fc.constantFrom("window+key", "key", "none") as fc.Arbitrary<"window+key" | "key" | "none">,
  sliding: fc.boolean(),
  batches: fc.array(fc.array(event, { minLength: 0, maxLength: 12 }), { minLength: 1, maxLength: 7 }),
  // per batch: the thread count the query under test runs it with (a change = stop and restart)
  threads: fc.array(fc.constantFrom(1, 2, 3), { minLength: 7, maxLength: 7 }),
  // the rows' grouping before routing: probed over this many rows, kept at or under this ratio
  combine: fc.record({ probeRows: fc.integer({ min: 1, max: 40 }), maxGroupRatio: fc.constantFrom(0, 0.5, 1) }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function query(sc: Scenario, ms: MemoryStream): DataFrame {
  const base = ms.toDF().withWatermark("ts", "10 seconds");
  const window = sc.sliding ? F.window("ts", "10 seconds", "5 seconds") : F.window("ts", "10 seconds");
  const aggs = [
    F.count("*").alias("n"),
    F.sum("v").alias("total"),
    F.max("v").alias("hi"),
    F.min("v").alias("lo"),
    F.avg("v").alias("mean"),
    F.max(F.struct("v", "ts")).alias("top"),
    F.first("v").alias("first"),
  ] as const;
  // append mode needs the event-time window in the grouping
  const grouping = sc.mode === "append" ? "window+key" : sc.grouping;
  if (grouping === "window+key") return base.groupBy(window, F.col("key")).agg(...aggs);
  if (grouping === "key") return base.groupBy("key").agg(...aggs);
  return base.groupBy().agg(...aggs);
}

/** Run the batches; `threadsOf(i)` picks the thread count batch i runs with. Rows per batch id, sorted. */
async function run(sc: Scenario, threadsOf: (i: number) => number): Promise<Map<number, string[]>> {
  const checkpoint = await tempDir();
  const ms = session.memoryStream("ts TIMESTAMP, key STRING, v INT");
  const df = query(sc, ms);
  const out = new Map<number, string[]>();
  let q: Awaited<ReturnType<typeof start>> | null = null;
  let running = 0;
  async function start(threads: number) {
    session.conf.set("arus.state.threads", String(threads));
    session.conf.set("arus.exec.partialAggregation.probeRows", String(sc.combine.probeRows));
    session.conf.set("arus.exec.partialAggregation.maxGroupRatio", String(sc.combine.maxGroupRatio));
    try {
      return await df.writeStream
        .outputMode(sc.mode)
        .option("checkpointLocation", checkpoint)
        .foreachBatch(async (batch, id) => {
          const rows = (await batch.collect()).map((r) => JSON.stringify(r)).sort();
          out.set(id, rows);
        })
        .start();
    } finally {
      session.conf.unset("arus.state.threads");
      session.conf.unset("arus.exec.partialAggregation.probeRows");
      session.conf.unset("arus.exec.partialAggregation.maxGroupRatio");
    }
  }
  try {
    for (let i = 0; i < sc.batches.length; i++) {
      const t = threadsOf(i);
      if (q && t !== running) {
        await q.stop();
        q = null;
      }
      if (!q) {
        q = await start(t);
        running = t;
      }
      await ms.addData(sc.batches[i]!.map((e) => ({ ts: new Date(e.s * 1000), key: e.key, v: e.v })));
      await q.processAllAvailable();
    }
  } finally {
    await q?.stop();
  }
  return out;
}

describe("state threads", () => {
  it("give the main thread's output, batch by batch, across restarts that change the thread count", async () => {
    session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false"); // one batch per addData
    const combinedBefore = RouteCombiner.chunksCombined;
    const declinedBefore = RouteCombiner.probesDeclined;
    try {
      await fc.assert(
        fc.asyncProperty(scenario, async (sc) => {
          session.conf.set("spark.sql.shuffle.partitions", String(sc.partitions));
          const expected = await run(sc, () => 1);
          const before = StatePartitionThreads.batchesRun;
          const actual = await run(sc, (i) => sc.threads[i]!);
          assert.deepEqual(actual, expected);
          const threaded = sc.threads.slice(0, sc.batches.length).filter((t) => t > 1).length;
          assert.ok(StatePartitionThreads.batchesRun - before >= threaded, "batches meant for state threads ran on them");
        }),
        { numRuns: 25 },
      );
      assert.ok(RouteCombiner.chunksCombined > combinedBefore, "rows were grouped before they were routed");
      assert.ok(RouteCombiner.probesDeclined > declinedBefore, "a probe turned the grouping off, and rows were routed as rows");
    } finally {
      session.conf.set("spark.sql.shuffle.partitions", "2");
      session.conf.unset("spark.sql.streaming.noDataMicroBatches.enabled");
    }
  });
});
