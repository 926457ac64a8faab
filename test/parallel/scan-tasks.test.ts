/**
 * A streaming JSON scan's stateless stage on the decode threads (`arus.exec.scanTasks`): where
 * it applies (under a sink, a stream-stream join, a deduplication, an aggregation that partial
 * aggregation does not take) and where the query keeps reading rows, with the old path's
 * output, progress and explain(), and its errors (an expression's, a FAILFAST record's).
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { partialCounters } from "../../src/execution/partial/partial-read.js";
import { scanStageCounters } from "../../src/execution/partial/scan-stage-exec.js";
import { type DataFrame, functions as F } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-scan-tasks-unit-");
const SCHEMA = "ts TIMESTAMP, key STRING, v INT, d DOUBLE";

const line = (s: number, key: string, v: number) => JSON.stringify({ ts: new Date(s * 1000).toISOString(), key, v, d: v / 4 });
const FILES = [
  `${[line(1, "a", 1), line(2, "b", 2), line(15, "a", 3)].join("\n")}\n`,
  `${[line(3, "a", 4), line(30, "b", 5)].join("\n")}\n`,
  `${[line(12, "a", 6), line(25, "b", 7), line(41, "a", 8)].join("\n")}\n`,
];

interface Seen {
  /** Sink rows batch by batch, in the order the sink got them. */
  batches: string[][];
  progress: string[];
  explain: string;
  /** Did the query read through the scan tasks? */
  used: boolean;
}

/** Runs `build` over `files` (one per batch) with the setting as given. */
async function run(
  on: boolean,
  files: readonly string[],
  build: (df: DataFrame) => DataFrame,
  options: { mode?: "append" | "update"; readOptions?: Record<string, string>; sort?: boolean } = {},
): Promise<Seen> {
  const dir = await tempDir();
  const checkpoint = await tempDir();
  session.conf.set("arus.exec.scanTasks", String(on));
  const before = scanStageCounters.standIns;
  const batches: string[][] = [];
  let reader = session.readStream.format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1);
  for (const [k, v] of Object.entries(options.readOptions ?? {})) reader = reader.option(k, v);
  const q = await build(reader.load(dir).withWatermark("ts", "10 seconds"))
    .writeStream.outputMode(options.mode ?? "append")
    .option("checkpointLocation", checkpoint)
    .foreachBatch(async (b) => {
      const rows = (await b.collect()).map((r) => JSON.stringify(r));
      batches.push(options.sort ? rows.sort() : rows);
    })
    .start();
  session.conf.unset("arus.exec.scanTasks");
  try {
    for (let i = 0; i < files.length; i++) {
      await writeFile(join(dir, `f${i}.json`), files[i]!);
      await q.processAllAvailable();
    }
  } finally {
    await q.stop();
  }
  const progress = q.recentProgress.map((p) =>
    JSON.stringify({
      n: p.numInputRows,
      et: p.eventTime,
      late: p.arus?.lateness ?? null,
      ops: p.stateOperators.map((s) => s.numRowsDroppedByWatermark),
    }),
  );
  return { batches, progress, explain: q.explainString().replace(/#\d+/g, "#N"), used: scanStageCounters.standIns > before };
}

const filtered = (df: DataFrame) =>
  df.filter(F.col("v").mod(2).equalTo(1)).select(F.col("key"), F.col("ts"), F.col("v").multiply(10).alias("v10"));

async function failure(on: boolean, files: readonly string[], build: (df: DataFrame) => DataFrame, readOptions?: Record<string, string>) {
  try {
    await run(on, files, build, readOptions ? { readOptions } : {});
  } catch (e) {
    return (e as Error).message.replace(/\S*arus-scan-tasks-unit-[^/]+\//g, "DIR/");
  }
  return "no error";
}

describe("a scan's stateless stage on the decode threads", () => {
  setScanThreads(2);
  after(() => setScanThreads(1));

  it("runs a filter and projection under a sink on the threads, with the old path's rows, progress and explain()", async () => {
    const ranges = partialCounters.rowRanges;
    const on = await run(true, FILES, filtered);
    const off = await run(false, FILES, filtered);
    assert.ok(on.used, "the stage stood in for the projection");
    assert.ok(!off.used);
    assert.ok(partialCounters.rowRanges > ranges, "ranges ran on the threads");
    assert.ok(on.batches.flat().length > 0);
    assert.deepEqual(on.batches, off.batches);
    assert.deepEqual(on.progress, off.progress);
    assert.equal(on.explain, off.explain);
  });

  it("is the old path at local[1] and with the setting off", async () => {
    setScanThreads(1);
    try {
      assert.ok(!(await run(true, FILES, filtered)).used);
    } finally {
      setScanThreads(2);
    }
    assert.ok(!(await run(false, FILES, filtered)).used);
  });

  it("runs under a deduplication and an aggregation that partial aggregation does not take (late rows dropped as before)", async () => {
    const dedup = (df: DataFrame) => filtered(df).dropDuplicates(["key", "ts"]);
    const on = await run(true, FILES, dedup, { sort: true });
    assert.ok(on.used);
    const off = await run(false, FILES, dedup, { sort: true });
    assert.deepEqual(on.batches, off.batches);
    assert.deepEqual(on.progress, off.progress);
    // a double sum: not merged exactly by partial aggregation, so the rows come from the scan's stage
    const doubleSum = (df: DataFrame) => df.filter(F.col("v").gt(1)).groupBy(F.window("ts", "10 seconds")).agg(F.sum("d").alias("s"));
    session.conf.set("arus.exec.partialAggregation", "true");
    try {
      const agg = await run(true, FILES, doubleSum, { mode: "update", sort: true });
      assert.ok(agg.used);
      const aggOff = await run(false, FILES, doubleSum, { mode: "update", sort: true });
      assert.deepEqual(agg.batches, aggOff.batches);
      assert.deepEqual(agg.progress, aggOff.progress);
      assert.ok(
        agg.progress.some((p) => /"ops":\[[1-9]/.test(p)),
        "some rows were late",
      );
    } finally {
      session.conf.unset("arus.exec.partialAggregation");
    }
  });

  it("keeps a non-deterministic operator and what is above it on the main thread", async () => {
    const stamped = (df: DataFrame) => df.filter(F.col("v").gt(1)).withColumn("r", F.rand(7)).filter(F.col("v").lt(8));
    const on = await run(true, FILES, stamped);
    assert.ok(on.used, "the filter below rand() ran on the threads");
    assert.deepEqual(on.batches, (await run(false, FILES, stamped)).batches);
  });

  it("keeps a JavaScript UDF (a function of this thread only) and what is above it on the main thread", async () => {
    const tag = F.udf((k: string, v: number) => `${k}:${v * 2}`);
    const tagged = (df: DataFrame) =>
      df
        .filter(F.col("v").gt(1))
        .withColumn("t", tag("key", "v"))
        .filter(F.col("t").endsWith("4").or(F.col("v").gt(5)));
    const on = await run(true, FILES, tagged);
    assert.ok(on.used, "the filter below the UDF ran on the threads");
    assert.deepEqual(on.batches, (await run(false, FILES, tagged)).batches);
    assert.ok(on.batches.flat().some((r) => r.includes('"t":"a:12"')));
  });

  it("runs both sides of a stream-stream join on the threads, with the same output", async () => {
    const dir2 = await tempDir();
    for (let i = 0; i < FILES.length; i++) await writeFile(join(dir2, `g${i}.json`), FILES[i]!);
    const joined = (df: DataFrame) => {
      const other = session.readStream
        .format("json")
        .schema(SCHEMA)
        .load(dir2)
        .withWatermark("ts", "10 seconds")
        .select(F.col("key").alias("k2"), F.col("ts").alias("ts2"), F.col("v").alias("w"));
      return df.select(F.col("key"), F.col("ts"), F.col("v")).join(
        other,
        F.col("key")
          .equalTo(F.col("k2"))
          .and(F.col("ts2").between(F.col("ts").minus(F.expr("INTERVAL 5 SECONDS")), F.col("ts"))),
      );
    };
    const before = scanStageCounters.standIns;
    const on = await run(true, FILES, joined, { sort: true });
    assert.equal(scanStageCounters.standIns - before, 2, "both scans");
    const off = await run(false, FILES, joined, { sort: true });
    assert.ok(on.batches.flat().length > 0);
    assert.deepEqual(on.batches, off.batches);
    assert.deepEqual(on.progress, off.progress);
  });

  it("derives decimal result types with the session's allowPrecisionLoss on the threads too", async () => {
    const product = (df: DataFrame) =>
      df.select(F.col("v").cast("decimal(20,10)").multiply(F.col("d").cast("decimal(20,12)")).alias("p"), F.col("ts"));
    session.conf.set("spark.sql.decimalOperations.allowPrecisionLoss", "false");
    try {
      const on = await run(true, FILES, product);
      assert.ok(on.used);
      const off = await run(false, FILES, product);
      assert.deepEqual(on.batches, off.batches);
      assert.match(on.batches.flat()[0]!, /"p":"?0\.2500000000000000000000"?/, "scale 22: no precision loss");
    } finally {
      session.conf.unset("spark.sql.decimalOperations.allowPrecisionLoss");
    }
  });

  it("runs under a stream-static join, with the same output", async () => {
    const names = session.createDataFrame(
      [
        { key: "a", name: "alpha" },
        { key: "b", name: "beta" },
      ],
      "key STRING, name STRING",
    );
    const joined = (df: DataFrame) => filtered(df).join(names, "key");
    const on = await run(true, FILES, joined, { sort: true });
    assert.ok(on.used);
    const off = await run(false, FILES, joined, { sort: true });
    assert.ok(on.batches.flat().length > 0);
    assert.deepEqual(on.batches, off.batches);
    assert.deepEqual(on.progress, off.progress);
  });

  it("fails an ANSI DIVIDE_BY_ZERO in a filter as the main thread does", async () => {
    const divided = (df: DataFrame) => df.filter(F.expr("10 div (v - v) > 0"));
    const off = await failure(false, FILES, divided);
    assert.match(off, /DIVIDE_BY_ZERO/);
    const before = scanStageCounters.standIns;
    assert.equal(await failure(true, FILES, divided), off);
    assert.ok(scanStageCounters.standIns > before, "the failing query ran the stage");
  });

  it("fails a FAILFAST record with the old path's error, naming the file", async () => {
    const files = [`${line(1, "a", 1)}\n{"ts": broken\n`];
    const off = await failure(false, files, filtered, { mode: "FAILFAST" });
    assert.match(off, /FAILFAST|Malformed/i);
    assert.match(off, /f0\.json/);
    assert.equal(await failure(true, files, filtered, { mode: "FAILFAST" }), off);
  });
});
