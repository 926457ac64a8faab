/**
 * Partial aggregation on the decode threads (`arus.exec.partialAggregation`): where it applies
 * and where the query keeps reading rows, and the files a thread does not take (a compressed
 * file, a FAILFAST record) giving the row path's rows and errors.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import { partialCounters } from "../../src/execution/partial/partial-read.js";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import { type DataFrame, functions as F } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-partial-agg-unit-");
const SCHEMA = "ts TIMESTAMP, key STRING, v INT, d DOUBLE";

const line = (s: number, key: string, v: number) => JSON.stringify({ ts: new Date(s * 1000).toISOString(), key, v, d: v / 4 });

/** Runs `build` over `files` (written one per batch) with the setting as given; output rows sorted, and whether stage A was used. */
async function run(
  partial: boolean,
  files: readonly (string | Buffer)[],
  build: (df: DataFrame) => DataFrame,
  options: {
    names?: readonly string[];
    mode?: "append" | "update" | "complete";
    lateRows?: boolean;
    readOptions?: Record<string, string>;
  } = {},
): Promise<{ rows: string[]; usedStageA: boolean; explain: string }> {
  const dir = await tempDir();
  const checkpoint = await tempDir();
  session.conf.set("arus.exec.partialAggregation", String(partial));
  const before = StreamingAggregateExec.withPartialInput;
  const rows: string[] = [];
  let reader = session.readStream.format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1);
  for (const [k, v] of Object.entries(options.readOptions ?? {})) reader = reader.option(k, v);
  let w = build(reader.load(dir).withWatermark("ts", "10 seconds"))
    .writeStream.outputMode(options.mode ?? "update")
    .option("checkpointLocation", checkpoint)
    .foreachBatch(async (b) => {
      for (const r of await b.collect()) rows.push(JSON.stringify(r));
    });
  if (options.lateRows) w = w.onLateRows(async () => {});
  const q = await w.start();
  session.conf.unset("arus.exec.partialAggregation");
  try {
    for (let i = 0; i < files.length; i++) {
      await writeFile(join(dir, options.names?.[i] ?? `f${i}.json`), files[i]!);
      await q.processAllAvailable();
    }
  } finally {
    await q.stop();
  }
  return { rows: rows.sort(), usedStageA: StreamingAggregateExec.withPartialInput > before, explain: q.explainString() };
}

const byWindow = (df: DataFrame) =>
  df.groupBy(F.window("ts", "10 seconds"), F.col("key")).agg(F.count("*").alias("n"), F.max("v").alias("hi"));
const FILES = [
  `${[line(1, "a", 1), line(2, "b", 2), line(15, "a", 3)].join("\n")}\n`,
  `${[line(3, "a", 4), line(30, "b", 5)].join("\n")}\n`,
  `${[line(12, "a", 6), line(25, "b", 7), line(41, "a", 8)].join("\n")}\n`,
];

describe("partial aggregation on the decode threads", () => {
  setScanThreads(2);
  after(() => setScanThreads(1));

  it("a higher-order function (a lambda) in the aggregated expression runs on the threads too, with the row path's output", async () => {
    const withLambda = (df: DataFrame) =>
      df
        .groupBy(F.window("ts", "10 seconds"), F.col("key"))
        .agg(F.sum(F.aggregate(F.array("v", F.col("v").multiply(10)), F.lit(0), (acc, x) => acc.plus(x))).alias("s"));
    const on = await run(true, FILES, withLambda);
    const off = await run(false, FILES, withLambda);
    assert.ok(on.usedStageA, on.explain);
    assert.ok(on.rows.length > 0);
    assert.deepEqual(on.rows, off.rows);
  });

  it("runs on the threads and gives the row path's output", async () => {
    const ranges = partialCounters.ranges;
    const on = await run(true, FILES, byWindow);
    const off = await run(false, FILES, byWindow);
    assert.ok(on.usedStageA);
    assert.ok(!off.usedStageA);
    assert.ok(partialCounters.ranges > ranges, "ranges ran on the stage-A threads");
    assert.ok(on.rows.length > 0);
    assert.deepEqual(on.rows, off.rows);
  });

  it("explain() shows the partial HashAggregate under the final aggregation when it is used", async () => {
    const on = await run(true, FILES, byWindow);
    assert.match(
      on.explain,
      /StateStoreSave \[window, key\][^\n]*functions=\[count\(1\), max\(v\)\][^\n]*\n\+- HashAggregate \(keys=\[window, key\], functions=\[partial_count\(1\), partial_max\(v\)\]\), on the decode threads\n {3}\+- /,
    );
    assert.match(on.explain, /\n {3}\+- Project[^\n]*\n(?: {3})+\+- /, "stage A's operators below it");
    assert.match(on.explain, /StreamingScan json/);
    const off = await run(false, FILES, byWindow);
    assert.doesNotMatch(off.explain, /HashAggregate|partial_/);
    // not used (local[1]): not shown either
    setScanThreads(1);
    try {
      assert.doesNotMatch((await run(true, FILES, byWindow)).explain, /partial_/);
    } finally {
      setScanThreads(2);
    }
  });

  it("stops aggregating on the threads when the partial groups do not shrink the rows enough, with the same output", async () => {
    // every row its own group (ratio 1) against 3 files of many rows per window (ratio ≤ 1/4)
    const perRow = (df: DataFrame) => df.groupBy(F.col("ts"), F.col("v")).agg(F.count("*").alias("n"));
    const manyRows = (first: number) => `${Array.from({ length: 12 }, (_, i) => line(first + (i % 3), i % 2 ? "a" : "b", i)).join("\n")}\n`;
    const dense = [manyRows(1), manyRows(4), manyRows(21)];
    session.conf.set("arus.exec.partialAggregation.probeRows", "5");
    session.conf.set("arus.exec.partialAggregation.maxGroupRatio", "0.5");
    // skipping applies with the state on the main thread (routed to state threads, stage A never skips)
    session.conf.set("arus.state.threads", "1");
    try {
      const skipped = partialCounters.skippedQueries;
      const rowRanges = partialCounters.rowRanges;
      const on = await run(true, FILES, perRow);
      assert.ok(on.usedStageA);
      assert.equal(partialCounters.skippedQueries, skipped + 1, "the probe (the first file) stopped the aggregation");
      assert.ok(partialCounters.rowRanges > rowRanges, "later files came back as rows");
      assert.deepEqual(on.rows, (await run(false, FILES, perRow)).rows);
      const kept = await run(true, dense, byWindow);
      assert.equal(partialCounters.skippedQueries, skipped + 1, "a few groups per many rows: still aggregating");
      assert.deepEqual(kept.rows, (await run(false, dense, byWindow)).rows);
    } finally {
      session.conf.unset("arus.exec.partialAggregation.probeRows");
      session.conf.unset("arus.exec.partialAggregation.maxGroupRatio");
      session.conf.unset("arus.state.threads");
    }
  });

  it("refuses adaptive settings that are not numbers", async () => {
    session.conf.set("arus.exec.partialAggregation.maxGroupRatio", "half");
    try {
      await assert.rejects(run(true, FILES, byWindow), /maxGroupRatio must be a ratio of 0 or more, got 'half'/);
    } finally {
      session.conf.unset("arus.exec.partialAggregation.maxGroupRatio");
      session.conf.unset("arus.exec.partialAggregation"); // run() left it set: start() failed
    }
  });

  it("a streaming DataFrame's explain() shows the partial HashAggregate where a started query would use it", async () => {
    const dir = await tempDir();
    const df = byWindow(session.readStream.format("json").schema(SCHEMA).load(dir).withWatermark("ts", "10 seconds"));
    session.conf.set("arus.exec.partialAggregation", "true");
    try {
      const plan = df.explainString();
      assert.match(
        plan,
        /^== Physical Plan ==\nStateStoreSave \[window, key\][^\n]*\n\+- HashAggregate \(keys=\[window, key\], functions=\[partial_count\(1\), partial_max\(v\)\]\), on the decode threads\n/,
      );
      assert.match(
        df.explainString(true),
        /== Optimized Logical Plan ==[\s\S]*== Physical Plan ==\nStateStoreSave[^\n]*\n\+- HashAggregate/,
      );
      setScanThreads(1);
      try {
        assert.doesNotMatch(df.explainString(), /partial_/, "local[1]: not used, not shown");
      } finally {
        setScanThreads(2);
      }
    } finally {
      session.conf.unset("arus.exec.partialAggregation");
    }
    assert.match(df.explainString(), /on the decode threads/, "the default: on");
    session.conf.set("arus.exec.partialAggregation", "false");
    try {
      assert.match(
        df.explainString(),
        /^== Physical Plan ==\nStateStoreSave[^\n]*\n\+- (?!HashAggregate)/,
        "the setting off: the row path",
      );
    } finally {
      session.conf.unset("arus.exec.partialAggregation");
    }
  });

  it("with state threads, hands each thread the groups stage A routed to it, and never skips aggregating", async () => {
    session.conf.set("arus.state.threads", "2");
    // settings under which a query without state threads stops aggregating after its first file
    session.conf.set("arus.exec.partialAggregation.probeRows", "0");
    session.conf.set("arus.exec.partialAggregation.maxGroupRatio", "0");
    try {
      const routed = StatePartitionThreads.chunksRoutedAhead;
      const skipped = partialCounters.skippedQueries;
      const rowRanges = partialCounters.rowRanges;
      const on = await run(true, FILES, byWindow);
      assert.ok(on.usedStageA);
      assert.ok(StatePartitionThreads.chunksRoutedAhead > routed, "chunks came routed by stage A");
      assert.equal(partialCounters.skippedQueries, skipped, "routed groups: no skipping");
      assert.equal(partialCounters.rowRanges, rowRanges, "every range aggregated");
      assert.deepEqual(on.rows, (await run(false, FILES, byWindow)).rows);
    } finally {
      session.conf.unset("arus.state.threads");
      session.conf.unset("arus.exec.partialAggregation.probeRows");
      session.conf.unset("arus.exec.partialAggregation.maxGroupRatio");
    }
  });

  it("is not used at local[1], nor for a double sum, nor with a late-rows handler", async () => {
    setScanThreads(1);
    try {
      assert.ok(!(await run(true, FILES, byWindow)).usedStageA);
    } finally {
      setScanThreads(2);
    }
    const doubleSum = (df: DataFrame) => df.groupBy(F.window("ts", "10 seconds")).agg(F.sum("d").alias("s"));
    assert.ok(!(await run(true, FILES, doubleSum)).usedStageA);
    assert.ok(!(await run(true, FILES, byWindow, { lateRows: true })).usedStageA);
    // the same query qualifies without those
    assert.ok((await run(true, FILES, byWindow)).usedStageA);
  });

  it("reads a compressed file on the main thread, with the same output", async () => {
    const files = [FILES[0]!, gzipSync(FILES[1]!), FILES[2]!];
    const names = ["f0.json", "f1.json.gz", "f2.json"];
    const main = partialCounters.mainThreadFiles;
    const on = await run(true, files, byWindow, { names });
    assert.ok(on.usedStageA);
    assert.ok(partialCounters.mainThreadFiles > main, "the .gz file went through stage A on the main thread");
    assert.deepEqual(on.rows, (await run(false, files, byWindow, { names })).rows);
  });

  it("fails an expression's error as the row path does (not as a read error)", async () => {
    const divided = (df: DataFrame) =>
      df.withColumn("r", F.expr("10 div (v - v)")).groupBy(F.window("ts", "10 seconds")).agg(F.max("r").alias("r"));
    const failure = async (partial: boolean) => {
      try {
        await run(partial, FILES, divided);
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    const off = await failure(false);
    assert.match(off, /DIVIDE_BY_ZERO/);
    const before = StreamingAggregateExec.withPartialInput;
    assert.equal(await failure(true), off);
    assert.ok(StreamingAggregateExec.withPartialInput > before, "the failing query ran stage A");
  });

  it("fails a FAILFAST record with the row path's error", async () => {
    const files = [`${line(1, "a", 1)}\n{"ts": broken\n`];
    const failure = async (partial: boolean) => {
      try {
        await run(partial, files, byWindow, { readOptions: { mode: "FAILFAST" } });
      } catch (e) {
        return (e as Error).message.replace(/\S*arus-partial-agg-unit-[^/]+\//, "DIR/");
      }
      return "no error";
    };
    const off = await failure(false);
    assert.match(off, /FAILFAST|Malformed/i);
    assert.equal(await failure(true), off);
  });
});
