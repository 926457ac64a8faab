/**
 * Property: a streaming aggregation over JSON files gives the same output, batch by batch,
 * whether its stage A (filters, projections, window assignment, partial aggregation, event-time
 * statistics) runs on the decode threads (`arus.exec.partialAggregation`) or the main thread
 * aggregates the decoded rows; and a checkpoint moves between the two in both directions: the
 * query under test is stopped at random batches and restarted with the setting flipped, the
 * reference reads rows, stopped and restarted at the same batches (its files, all under the 4 MiB
 * of a split, are decoded on the main thread: local[1]'s row path). Random events (event time going back past the watermark,
 * key, value with NULLs) over random partition counts, state on the main thread or on two state
 * threads (the partial groups routed to their owners; from the first batch, or under
 * `arus.state.threads` = auto after a move from the main thread in each run, the groups routed
 * from then on) or in the row stores, sliding windows by
 * panes or expanded row by row, output modes, window shapes and
 * groupings, and adaptive skipping (the threads stop aggregating after a random number of rows
 * and ship stage A's rows); per batch the late-row metrics, the input rows, the event-time statistics and the
 * lateness profile must agree too. Rows are compared
 * per batch, sorted (groups come out in another first-touch order).
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { StateMove } from "../../src/execution/parallel/state-move.js";
import { partialCounters } from "../../src/execution/partial/partial-read.js";
import { type DataFrame, functions as F } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-partial-agg-");

const event = fc.record({
  s: fc.option(fc.integer({ min: 0, max: 90 }), { nil: null, freq: 25 }),
  key: fc.option(fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), { nil: null, freq: 8 }),
  v: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 6 }),
});

const scenario = fc.record({
  partitions: fc.constantFrom(1, 2, 3),
  // the partial groups merged on the main thread, or routed to the state threads (from the start,
  // or, under auto, once the state has moved there after `moveAfter` batches of a run on the main thread)
  stateThreads: fc.constantFrom("1", "1", "2", "auto"),
  moveAfter: fc.integer({ min: 0, max: 4 }),
  // the other state backend (row stores) and the sliding window expanded row by row (no panes)
  columnar: fc.constantFrom(true, true, false),
  panes: fc.constantFrom(true, true, false),
  mode: fc.constantFrom("append", "update", "complete") as fc.Arbitrary<"append" | "update" | "complete">,
  grouping: fc.constantFrom("window+key", "key", "none") as fc.Arbitrary<"window+key" | "key" | "none">,
  sliding: fc.boolean(),
  filtered: fc.boolean(),
  batches: fc.array(fc.array(event, { minLength: 0, maxLength: 14 }), { minLength: 1, maxLength: 6 }),
  // per batch: partial aggregation on or off for the query under test (a change = stop and restart)
  partial: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  // adaptive skipping: never, or once the probe saw that many rows (the threads then ship rows)
  skipAfterRows: fc.constantFrom(null, null, 0, 1, 8, 20),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const SCHEMA = "ts TIMESTAMP, key STRING, v INT";

function query(sc: Scenario, dir: string): DataFrame {
  let base = session.readStream.format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1).load(dir).withWatermark("ts", "10 seconds");
  if (sc.filtered) base = base.filter(F.col("v").isNull().or(F.col("v").gt(-40))).withColumn("v", F.col("v").multiply(2));
  const window = sc.sliding ? F.window("ts", "10 seconds", "5 seconds") : F.window("ts", "10 seconds");
  const aggs = [
    F.count("*").alias("n"),
    F.sum("v").alias("total"),
    F.max("v").alias("hi"),
    // a STRING min keeps the state in the row stores: the columnar scenarios take an INT's
    sc.columnar ? F.min("v").alias("lo") : F.min("key").alias("lo"),
    F.avg("v").alias("mean"),
  ] as const;
  const grouping = sc.mode === "append" ? "window+key" : sc.grouping;
  if (grouping === "window+key") return base.groupBy(window, F.col("key")).agg(...aggs);
  if (grouping === "key") return base.groupBy("key").agg(...aggs);
  return base.groupBy().agg(...aggs);
}

interface BatchSeen {
  rows: string[];
  dropped: number;
  late: number;
  lateness: string;
  eventTime: string;
  input: number;
}

/**
 * Run the batches, one file each; the query stops and restarts where `sc.partial` changes, and
 * `partialOf(i)` picks the setting batch i runs with (the reference restarts at the same
 * batches, so that the per-run lateness profile starts over at the same points).
 */
async function run(sc: Scenario, partialOf: (i: number) => boolean, reference = false): Promise<Map<number, BatchSeen>> {
  const checkpoint = await tempDir();
  const dir = await tempDir();
  const df = query(sc, dir);
  const out = new Map<number, BatchSeen>();
  type Query = Awaited<ReturnType<typeof start>>;
  let q: Query | null = null;
  let segment: boolean | null = null;
  const record = (qq: Query) => {
    for (const p of qq.recentProgress) {
      const seen = out.get(p.batchId);
      if (!seen) continue;
      seen.dropped = p.stateOperators.reduce((n, s) => n + s.numRowsDroppedByWatermark, 0);
      seen.late = p.arus?.numLateInputRows ?? 0;
      seen.lateness = JSON.stringify(p.arus?.lateness ?? null);
      seen.eventTime = JSON.stringify(p.eventTime);
      seen.input = p.numInputRows;
    }
  };
  async function start(partial: boolean) {
    session.conf.set("arus.exec.partialAggregation", String(partial));
    // the reference reads rows on the main thread; the run under test reads the scan's stage on the threads when not aggregating there
    session.conf.set("arus.exec.scanTasks", String(!reference));
    session.conf.set("arus.exec.partialAggregation.probeRows", String(sc.skipAfterRows ?? 0));
    session.conf.set("arus.exec.partialAggregation.maxGroupRatio", sc.skipAfterRows === null ? "1" : "0");
    try {
      return await df.writeStream
        .outputMode(sc.mode)
        .option("checkpointLocation", checkpoint)
        .foreachBatch(async (batch, id) => {
          const rows = (await batch.collect()).map((r) => JSON.stringify(r)).sort();
          out.set(id, { rows, dropped: -1, late: -1, lateness: "", eventTime: "", input: -1 });
        })
        .start();
    } finally {
      session.conf.unset("arus.exec.partialAggregation");
      session.conf.unset("arus.exec.scanTasks");
      session.conf.unset("arus.exec.partialAggregation.probeRows");
      session.conf.unset("arus.exec.partialAggregation.maxGroupRatio");
    }
  }
  try {
    for (let i = 0; i < sc.batches.length; i++) {
      if (q && sc.partial[i] !== segment) {
        record(q);
        await q.stop();
        q = null;
      }
      if (!q) {
        q = await start(partialOf(i));
        segment = sc.partial[i]!;
      }
      const lines = sc.batches[i]!.map((e) =>
        JSON.stringify({ ts: e.s === null ? null : new Date(e.s * 1000).toISOString(), key: e.key, v: e.v }),
      );
      await writeFile(join(dir, `part-${String(i).padStart(3, "0")}.json`), lines.join("\n") + (lines.length ? "\n" : ""));
      await q.processAllAvailable();
    }
    if (q) record(q);
  } finally {
    await q?.stop();
  }
  return out;
}

/** The settings the properties set, back to their defaults. */
function resetConf(): void {
  session.conf.set("spark.sql.shuffle.partitions", "2");
  for (const k of [
    "arus.state.threads",
    "arus.test.stateMoveAfterBatches",
    "arus.state.aggregation.columnar",
    "arus.state.aggregation.panes",
    "spark.sql.streaming.noDataMicroBatches.enabled",
  ])
    session.conf.unset(k);
}

describe("partial aggregation on the decode threads", () => {
  setScanThreads(2);
  after(() => setScanThreads(1));

  it("gives the row path's output and late-row metrics, batch by batch, across restarts that flip the setting", async () => {
    session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false"); // one batch per file
    const rowRanges = partialCounters.rowRanges;
    try {
      await fc.assert(
        fc.asyncProperty(scenario, async (sc) => {
          session.conf.set("spark.sql.shuffle.partitions", String(sc.partitions));
          session.conf.set("arus.state.threads", sc.stateThreads);
          session.conf.set("arus.test.stateMoveAfterBatches", String(sc.moveAfter));
          session.conf.set("arus.state.aggregation.columnar", String(sc.columnar));
          session.conf.set("arus.state.aggregation.panes", String(sc.panes));
          const expected = await run(sc, () => false, true);
          const before = partialCounters.ranges + partialCounters.mainThreadFiles;
          const actual = await run(sc, (i) => sc.partial[i]!);
          assert.deepEqual(actual, expected);
          const onFiles = sc.partial.slice(0, sc.batches.length).filter((p, i) => p && sc.batches[i]!.length > 0).length;
          assert.ok(
            partialCounters.ranges + partialCounters.mainThreadFiles - before >= onFiles,
            "files meant for stage A went through it",
          );
        }),
        { numRuns: 40 },
      );
      assert.ok(partialCounters.rowRanges > rowRanges, "some ranges skipped aggregating and shipped rows");
    } finally {
      resetConf();
    }
  });

  it("gives it with the state moving from the main thread to the state threads in each run (auto)", async () => {
    session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false");
    const moves = StateMove.movedFromMain;
    // columnar state under auto: each run (a restart where `partial` flips) starts on the main
    // thread and moves after `moveAfter` batches, stage A's groups routed from then on
    const moving = scenario.map((sc) => ({ ...sc, stateThreads: "auto" as const, columnar: true }));
    try {
      await fc.assert(
        fc.asyncProperty(moving, async (sc) => {
          session.conf.set("spark.sql.shuffle.partitions", String(sc.partitions));
          session.conf.set("arus.state.threads", "auto");
          session.conf.set("arus.test.stateMoveAfterBatches", String(sc.moveAfter));
          session.conf.set("arus.state.aggregation.panes", String(sc.panes));
          const expected = await run(sc, () => false, true);
          const actual = await run(sc, () => true);
          assert.deepEqual(actual, expected);
        }),
        { numRuns: 25 },
      );
      assert.ok(StateMove.movedFromMain > moves, "some runs moved their state after batches on the main thread");
    } finally {
      resetConf();
    }
  });
});
