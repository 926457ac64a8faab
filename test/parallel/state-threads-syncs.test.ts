/**
 * The state threads' deltas are synced off the batch's path (a thread answers once a delta's
 * temp file is written) but never after `commits/N`: when the batch's progress arrives (after
 * the commit log), every partition's delta of that version is under its final name and no
 * temp file is left — the rule the main thread's deferred writes follow (docs/reliability.md).
 * The threads hold each delta's sync back 300 ms (a test setting), so a loop that did not wait
 * for them would find the files missing.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { SPARE_NAME_RE } from "../../src/checkpoint/spare-files.js";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import { functions as F } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

// read by the state threads when they start (this process's first aggregation on them)
process.env.ARUS_TEST_STATE_SYNC_DELAY_MS = "300";
const session = utcSession(); // 2 shuffle partitions
const tempDir = tempDirs("arus-state-thread-syncs-");

test("state threads: each batch's deltas are synced and named before its commit log entry", async () => {
  session.conf.set("arus.state.threads", "2");
  session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false");
  const checkpoint = await tempDir();
  const seen: { batch: number; files: string[][] }[] = [];
  const stateDir = path.join(checkpoint, "state", "0");
  try {
    const ms = session.memoryStream("ts TIMESTAMP, key STRING");
    const before = StatePartitionThreads.batchesRun;
    const q = await ms
      .toDF()
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds"), F.col("key"))
      .count()
      .writeStream.outputMode("update")
      .option("checkpointLocation", checkpoint)
      .format("noop")
      .start();
    for (let b = 0; b < 6; b++) {
      await ms.addData(["a", "b", "c", "d", "e"].map((key, i) => ({ ts: new Date((b * 10 + i) * 1000), key })));
      await q.processAllAvailable();
      // the batch's progress is reported after commits/N: its deltas must be there by now
      seen.push({ batch: b, files: ["0", "1"].map((p) => readdirSync(path.join(stateDir, p)).sort()) });
    }
    await q.stop();
    assert.ok(StatePartitionThreads.batchesRun >= before + 6, "the batches ran on the state threads");
  } finally {
    session.conf.unset("arus.state.threads");
    session.conf.unset("spark.sql.streaming.noDataMicroBatches.enabled");
  }
  const commits = readdirSync(path.join(checkpoint, "commits")).filter((f) => /^\d+$/.test(f));
  assert.equal(commits.length, 6);
  for (const { batch, files } of seen) {
    for (const [p, names] of files.entries()) {
      assert.ok(names.includes(`${batch + 1}.delta`), `partition ${p} has ${batch + 1}.delta after batch ${batch}: ${names.join(", ")}`);
      assert.deepEqual(
        names.filter((n) => n.endsWith(".tmp") && !SPARE_NAME_RE.test(n)), // spares are made ahead (spare-files.ts)
        [],
        `partition ${p}: no temp file left after batch ${batch}`,
      );
    }
  }
});
