/**
 * `arus.state.threads` = auto (the default): a streaming aggregation whose partial aggregation
 * runs on the decode threads (JSON files, local[N ≥ 2]) keeps its state on N state threads, with
 * the output of the main thread; every other query keeps it on the main thread. Either starts on
 * the main thread and moves its state after `arus.state.threads.moveAfter` of work there.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { scanThreads } from "../../src/connectors/files/decode-pool.js";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import { type DataFrame, functions as F } from "../../src/index.js";
import { stateThreadCount } from "../../src/runtime/state-registry.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-state-auto-");
const SCHEMA = "ts TIMESTAMP, key STRING, v INT";
const line = (s: number, key: string, v: number) => JSON.stringify({ ts: new Date(s * 1000).toISOString(), key, v });
// four files, one per batch: windows closing as the watermark passes them, a late row in the last
const FILES = [
  [line(1, "a", 1), line(2, "b", 2), line(3, "a", 3)],
  [line(12, "a", 4), line(14, "c", 5), line(4, "b", 6)],
  [line(25, "b", 7), line(27, "a", 8)],
  [line(41, "c", 9), line(2, "a", 10), line(43, "c", 11)],
].map((rows) => `${rows.join("\n")}\n`);

const byWindow = (df: DataFrame) =>
  df
    .withWatermark("ts", "10 seconds")
    .groupBy(F.window("ts", "10 seconds"), F.col("key"))
    .agg(F.count("*").alias("n"), F.sum("v").alias("s"));

/** The windowed aggregation over FILES under `conf`: every batch's output rows, and how many batches ran on state threads. */
async function overFiles(conf: Record<string, string>): Promise<{ batches: string[][]; onStateThreads: number }> {
  const dir = await tempDir();
  for (const [k, v] of Object.entries(conf)) session.conf.set(k, v);
  const before = StatePartitionThreads.batchesRun;
  const batches: string[][] = [];
  const reader = session.readStream.format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1);
  const checkpoint = await tempDir();
  const q = await byWindow(reader.load(dir))
    .writeStream.outputMode("append")
    .option("checkpointLocation", checkpoint)
    .foreachBatch(async (b) => {
      batches.push((await b.collect()).map((r) => JSON.stringify(r)).sort());
    })
    .start()
    .finally(() => {
      for (const k of Object.keys(conf)) session.conf.unset(k);
    });
  try {
    for (let i = 0; i < FILES.length; i++) {
      await writeFile(join(dir, `f${i}.json`), FILES[i]!);
      await q.processAllAvailable();
    }
  } finally {
    await q.stop();
  }
  return { batches, onStateThreads: StatePartitionThreads.batchesRun - before };
}

describe("arus.state.threads = auto", () => {
  it("is the default", () => {
    assert.equal(session.conf.get("arus.state.threads"), "auto");
    // local[N]'s N for a query whose stage A runs on the decode threads, else the main thread
    const conf = { get: (_k: string, d?: string) => d, getOption: () => "local[3]" } as never;
    assert.equal(
      stateThreadCount(conf, () => true),
      3,
    );
    assert.equal(
      stateThreadCount(conf, () => false),
      1,
    );
  });

  it("puts a file-source aggregation's state on the state threads under local[N ≥ 2], with the main thread's output", async (t) => {
    if (scanThreads() < 2) return t.skip("one decode thread here: stage A never runs on threads");
    const auto = await overFiles({ "arus.state.threads.moveAfter": "0" });
    assert.ok(auto.onStateThreads >= FILES.length, `every batch ran on the state threads (${auto.onStateThreads})`);
    const main = await overFiles({ "arus.state.threads": "1" });
    assert.equal(main.onStateThreads, 0, "with 1 the main thread keeps the state");
    assert.deepEqual(auto.batches, main.batches);
    assert.ok(main.batches.flat().length > 0, "the windows closed and came out (the comparison is not of empty outputs)");
    // by default the state moves after 5 s of work on the main thread: this short query's never does
    const short = await overFiles({});
    assert.equal(short.onStateThreads, 0, "a short run's state stays on the main thread");
    assert.deepEqual(short.batches, main.batches);
    // two batches on the main thread, then the state moves to the threads
    const moved = await overFiles({ "arus.test.stateMoveAfterBatches": "2" });
    assert.ok(moved.onStateThreads > 0 && moved.onStateThreads < auto.onStateThreads, `moved during the run (${moved.onStateThreads})`);
    assert.deepEqual(moved.batches, main.batches);
  });

  it("keeps the state on the main thread where stage A does not run on the decode threads", async () => {
    const rowsOnly = await overFiles({ "arus.exec.partialAggregation": "false" });
    assert.equal(rowsOnly.onStateThreads, 0, "partial aggregation off: rows to the main thread, state there");
    const local1 = await overFiles({ "spark.master": "local[1]" });
    assert.equal(local1.onStateThreads, 0, "local[1]: no state threads");
    // a memory stream's small batches: no round trip to other threads
    const before = StatePartitionThreads.batchesRun;
    const ms = session.memoryStream(SCHEMA);
    const q = await byWindow(ms.toDF()).writeStream.format("noop").outputMode("update").start();
    try {
      await ms.addData([{ ts: new Date(1000), key: "a", v: 1 }]);
      await q.processAllAvailable();
    } finally {
      await q.stop();
    }
    assert.equal(StatePartitionThreads.batchesRun, before, "memory stream: state on the main thread");
  });

  it("puts a stream-stream join over JSON files on the state threads, a memory stream's join on the main thread", async (t) => {
    if (scanThreads() < 2) return t.skip("one decode thread here: no scan runs on threads");
    const joinOver = async (conf: Record<string, string>) => {
      const dir = await tempDir();
      await mkdir(join(dir, "l"));
      await mkdir(join(dir, "r"));
      for (const [k, v] of Object.entries(conf)) session.conf.set(k, v);
      const before = StatePartitionThreads.batchesRun;
      const routedBefore = StatePartitionThreads.joinSidesRoutedAhead;
      const rows: string[] = [];
      const side = (name: string) =>
        session.readStream
          .format("json")
          .schema(SCHEMA)
          .option("maxFilesPerTrigger", 1)
          .load(join(dir, name))
          .withWatermark("ts", "10 seconds")
          .select(F.col("key").alias(`${name}_key`), F.col("v").alias(`${name}_v`), F.window("ts", "10 seconds").alias(`${name}_w`));
      const q = await side("l")
        .join(side("r"), F.expr("l_key = r_key AND l_w = r_w"))
        .writeStream.option("checkpointLocation", await tempDir())
        .foreachBatch(async (b) => {
          for (const r of await b.collect()) rows.push(JSON.stringify(r));
        })
        .start()
        .finally(() => {
          for (const k of Object.keys(conf)) session.conf.unset(k);
        });
      try {
        for (let i = 0; i < FILES.length; i++) {
          await writeFile(join(dir, "l", `f${i}.json`), FILES[i]!);
          await writeFile(join(dir, "r", `f${i}.json`), FILES[FILES.length - 1 - i]!);
          await q.processAllAvailable();
        }
      } finally {
        await q.stop();
      }
      // rows dropped as late over the run (on the state threads they are counted there); not per
      // batch: the running query may take a step's left file a batch before its right one
      const dropped = q.recentProgress.reduce((n, p) => n + (p.stateOperators[0]?.numRowsDroppedByWatermark ?? 0), 0);
      return {
        rows: rows.sort(),
        dropped,
        onStateThreads: StatePartitionThreads.batchesRun - before,
        routedAhead: StatePartitionThreads.joinSidesRoutedAhead - routedBefore,
      };
    };
    const auto = await joinOver({ "arus.state.threads.moveAfter": "0" });
    assert.ok(auto.onStateThreads >= FILES.length, "every batch of the join ran on the state threads");
    assert.ok(auto.routedAhead > 0, "the decode threads split the sides' rows by owning state thread");
    const main = await joinOver({ "arus.state.threads": "1" });
    assert.equal(main.onStateThreads, 0);
    assert.deepEqual(auto.rows, main.rows);
    assert.equal(auto.dropped, main.dropped);
    assert.ok(main.dropped > 0, "late rows were dropped (the comparison covers the late-row filter)");
    assert.ok(main.rows.length > 0, "rows joined (the comparison is not of empty outputs)");
    // by default a join moves after 5 s of work on the main thread: this short query never does
    const short = await joinOver({});
    assert.equal(short.onStateThreads, 0, "a short run's join stays on the main thread");
    assert.deepEqual(short.rows, main.rows);
    assert.equal(short.dropped, main.dropped);
    // two batches on the main thread, then the state moves to the threads
    // (a reload from the checkpoint), and the decode threads start splitting the rows by owner
    const moved = await joinOver({ "arus.test.stateMoveAfterBatches": "2" });
    assert.ok(moved.onStateThreads > 0 && moved.onStateThreads < auto.onStateThreads, `moved during the run (${moved.onStateThreads})`);
    assert.ok(moved.routedAhead > 0, "after the move the decode threads split the rows by owner");
    assert.deepEqual(moved.rows, main.rows);
    assert.equal(moved.dropped, main.dropped);
    // an explicit thread count puts the state on the threads from the first batch
    const explicit = await joinOver({ "arus.state.threads": "2" });
    assert.ok(explicit.onStateThreads >= FILES.length);
    assert.deepEqual(explicit.rows, main.rows);

    const ls = session.memoryStream(SCHEMA);
    const rs = session.memoryStream(SCHEMA);
    const before = StatePartitionThreads.batchesRun;
    const q = await ls
      .toDF()
      .withWatermark("ts", "10 seconds")
      .alias("a")
      .join(rs.toDF().withWatermark("ts", "10 seconds").alias("b"), F.expr("a.key = b.key AND a.ts = b.ts"))
      .writeStream.format("noop")
      .start();
    try {
      await ls.addData([{ ts: new Date(1000), key: "a", v: 1 }]);
      await rs.addData([{ ts: new Date(1000), key: "a", v: 2 }]);
      await q.processAllAvailable();
    } finally {
      await q.stop();
    }
    assert.equal(StatePartitionThreads.batchesRun, before, "memory streams: the join's state on the main thread");
  });

  it("refuses a value that is neither a count, 'local' nor 'auto'", async () => {
    await assert.rejects(
      overFiles({ "arus.state.threads": "many" }),
      /arus\.state\.threads must be a positive integer, 'local' or 'auto', got 'many'/,
    );
    await assert.rejects(
      overFiles({ "arus.state.threads.moveAfter": "-1" }),
      /Config arus\.state\.threads\.moveAfter must be a duration like 10ms, 5s, 2min or 1h, got '-1'/,
    );
  });
});
