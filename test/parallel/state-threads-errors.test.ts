/**
 * A state thread that cannot write its partition's state file fails the batch with an error
 * naming the file, loses nothing already committed, and a restart after the cause is gone
 * continues to exactly the output of a run that never failed — although the other thread had
 * already committed its partition's new version when the first one failed.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import { type DataFrame, functions as F, type MemoryStream } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession(); // 2 shuffle partitions
const tempDir = tempDirs("arus-state-thread-errors-");
const keys = ["a", "b", "c", "d", "e", "f", "g", "h"];
const batch = (s: number) => keys.map((key, i) => ({ ts: new Date((s + i) * 1000), key }));

function query(ms: MemoryStream): DataFrame {
  return ms.toDF().withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds"), F.col("key")).count();
}

async function start(df: DataFrame, checkpoint: string, out: Map<number, string[]>) {
  session.conf.set("arus.state.threads", "2");
  try {
    return await df.writeStream
      .outputMode("update")
      .option("checkpointLocation", checkpoint)
      .foreachBatch(async (b, id) => {
        out.set(id, (await b.collect()).map((r) => JSON.stringify(r)).sort());
      })
      .start();
  } finally {
    session.conf.unset("arus.state.threads");
  }
}

test("a state thread's failed write fails the batch, names the file, and a restart continues exactly", async () => {
  session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false");
  try {
    // reference: no failure
    const expected = new Map<number, string[]>();
    {
      const ms = session.memoryStream("ts TIMESTAMP, key STRING");
      const q = await start(query(ms), await tempDir(), expected);
      for (const s of [0, 20, 40]) {
        await ms.addData(batch(s));
        await q.processAllAvailable();
      }
      await q.stop();
    }

    const checkpoint = await tempDir();
    const actual = new Map<number, string[]>();
    const ms = session.memoryStream("ts TIMESTAMP, key STRING");
    const df = query(ms);
    let q = await start(df, checkpoint, actual);
    await ms.addData(batch(0));
    await q.processAllAvailable();
    // both partitions got keys: each thread wrote a delta
    const partDir = path.join(checkpoint, "state", "0", "1");
    assert.ok(
      readdirSync(partDir).some((f) => f.endsWith(".delta")),
      "partition 1 holds state",
    );
    // partition 1's folder becomes a file: its next delta cannot be written
    renameSync(partDir, `${partDir}.aside`);
    writeFileSync(partDir, "not a folder");
    await ms.addData(batch(20));
    const before = StatePartitionThreads.batchesRun;
    await assert.rejects(q.processAllAvailable(), (e: Error) => {
      assert.match(String(e.message), /state[/\\]0[/\\]1/, "the error names the partition's state file");
      return true;
    });
    assert.equal(StatePartitionThreads.batchesRun, before + 1, "the batch ran on the state threads");
    assert.ok(q.exception, "the query stopped with the error");
    assert.ok(!existsSync(path.join(checkpoint, "commits", "1")), "batch 1 was not committed");
    await q.stop();

    rmSync(partDir);
    renameSync(`${partDir}.aside`, partDir);
    q = await start(df, checkpoint, actual);
    await q.processAllAvailable(); // batch 1 again, from its recorded offsets
    await ms.addData(batch(40));
    await q.processAllAvailable();
    await q.stop();
    assert.deepEqual(actual, expected);
  } finally {
    session.conf.unset("spark.sql.streaming.noDataMicroBatches.enabled");
  }
});
