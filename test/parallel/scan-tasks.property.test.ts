/**
 * Property: random filters and projections (with or without a watermark, above or below them)
 * over random JSON-lines files give the same sink output batch by batch (rows in the same
 * order), the same progress numInputRows, event-time statistics, lateness profile and
 * watermark whether the scan's stateless stage runs on the decode threads
 * (`arus.exec.scanTasks`, local[2]) or the main thread reads rows (the setting off).
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { scanStageCounters } from "../../src/execution/partial/scan-stage-exec.js";
import { type DataFrame, functions as F } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-scan-tasks-");
const SCHEMA = "ts TIMESTAMP, key STRING, v INT, d DOUBLE";

const event = fc.record({
  s: fc.option(fc.integer({ min: 0, max: 90 }), { nil: null, freq: 20 }),
  key: fc.option(fc.constantFrom("a", "b", "cc", "d é", ""), { nil: null, freq: 8 }),
  v: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 6 }),
  d: fc.option(fc.double({ min: -100, max: 100, noNaN: true }), { nil: null, freq: 6 }),
});

/** Predicates and projections over the columns every step keeps (ts, key, v, d). */
const predicate = fc.oneof(
  fc.integer({ min: -40, max: 40 }).map((k) => (df: DataFrame) => df.filter(F.col("v").gt(k))),
  fc.integer({ min: 2, max: 5 }).map((k) => (df: DataFrame) => df.filter(F.col("v").mod(k).equalTo(0))),
  fc.constantFrom("a", "b", "").map((k) => (df: DataFrame) => df.filter(F.col("key").equalTo(k).or(F.col("key").isNull()))),
  fc.double({ min: -50, max: 50, noNaN: true }).map((k) => (df: DataFrame) => df.filter(F.col("d").lt(k))),
  fc.constant((df: DataFrame) => df.filter(F.length(F.col("key")).gt(0))),
  fc.constant((df: DataFrame) =>
    df.filter(
      F.col("v")
        .isNull()
        .or(F.col("v").multiply(2).plus(1).gt(F.col("d"))),
    ),
  ),
);
const projection = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map((k) => (df: DataFrame) => df.withColumn("v", F.col("v").multiply(k).plus(1))),
  fc.constant((df: DataFrame) => df.withColumn("key", F.concat(F.col("key"), F.lit("!")))),
  fc.constant((df: DataFrame) => df.withColumn("d", F.round(F.col("d").divide(3), 2))),
  fc.constant((df: DataFrame) => df.select(F.col("d"), F.col("v"), F.col("key"), F.col("ts"))),
  fc.constant((df: DataFrame) => df.withColumn("ts", F.col("ts").plus(F.expr("INTERVAL 1 SECOND")))),
  fc.constant((df: DataFrame) => df.withColumn("extra", F.upper(F.col("key"))).drop("extra")),
);

const scenario = fc.record({
  steps: fc.array(fc.oneof(predicate, projection), { minLength: 0, maxLength: 4 }),
  /** Where the watermark goes among the steps (null: none). */
  watermarkAt: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null, freq: 3 }),
  /** The consumer: a sink, or a deduplication dropping late rows. */
  dedup: fc.boolean(),
  batches: fc.array(fc.array(event, { minLength: 0, maxLength: 16 }), { minLength: 1, maxLength: 5 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function query(sc: Scenario, dir: string): DataFrame {
  let df = session.readStream.format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1).load(dir);
  const watermarkAt = sc.watermarkAt === null ? -1 : Math.min(sc.watermarkAt, sc.steps.length);
  for (let i = 0; i <= sc.steps.length; i++) {
    if (i === watermarkAt) df = df.withWatermark("ts", "10 seconds");
    if (i < sc.steps.length) df = sc.steps[i]!(df);
  }
  if (sc.dedup && watermarkAt >= 0) df = df.dropDuplicates(["key", "ts"]);
  return df;
}

interface BatchSeen {
  rows: string[];
  progress: string;
}

async function run(sc: Scenario, on: boolean): Promise<BatchSeen[]> {
  const checkpoint = await tempDir();
  const dir = await tempDir();
  const out: BatchSeen[] = [];
  session.conf.set("arus.exec.scanTasks", String(on));
  const q = await query(sc, dir)
    .writeStream.outputMode("append")
    .option("checkpointLocation", checkpoint)
    .foreachBatch(async (batch, id) => {
      const rows = (await batch.collect()).map((r) => JSON.stringify(r));
      out[id] = { rows: sc.dedup ? rows.sort() : rows, progress: "" };
    })
    .start();
  session.conf.unset("arus.exec.scanTasks");
  try {
    for (let i = 0; i < sc.batches.length; i++) {
      const lines = sc.batches[i]!.map((e) =>
        JSON.stringify({ ts: e.s === null ? null : new Date(e.s * 1000).toISOString(), key: e.key, v: e.v, d: e.d }),
      );
      await writeFile(join(dir, `part-${String(i).padStart(3, "0")}.json`), lines.join("\n") + (lines.length ? "\n" : ""));
      await q.processAllAvailable();
    }
  } finally {
    await q.stop();
  }
  for (const p of q.recentProgress) {
    const seen = out[p.batchId];
    if (!seen) continue;
    seen.progress = JSON.stringify({
      input: p.numInputRows,
      eventTime: p.eventTime,
      lateness: p.arus?.lateness ?? null,
      dropped: p.stateOperators.map((s) => s.numRowsDroppedByWatermark),
    });
  }
  return out;
}

describe("a scan's stateless stage on the decode threads (property)", () => {
  setScanThreads(2);
  after(() => setScanThreads(1));

  it("gives the main thread's sink output, input rows, event-time statistics and watermark", async () => {
    session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false"); // one batch per file
    const standIns = scanStageCounters.standIns;
    try {
      await fc.assert(
        fc.asyncProperty(scenario, async (sc) => {
          const expected = await run(sc, false);
          const before = scanStageCounters.standIns;
          const actual = await run(sc, true);
          assert.equal(scanStageCounters.standIns, before + 1, "the query read through the scan's stage");
          assert.deepEqual(actual, expected);
        }),
        { numRuns: 40 },
      );
      assert.ok(scanStageCounters.standIns > standIns);
    } finally {
      session.conf.unset("spark.sql.streaming.noDataMicroBatches.enabled");
    }
  });
});
