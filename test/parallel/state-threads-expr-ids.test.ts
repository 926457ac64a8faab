/**
 * Regression: a state thread rebuilds the aggregation from the main thread's expressions and
 * creates attributes of its own (one per aggregate call); its expression-id counter started at
 * 1, so in a process that had made few expressions — this file's first query — `sum(v)` got
 * the id of the key column `k` and the output's `total` read the keys ("a" instead of 3).
 * The thread now reserves the main thread's ids first (`reserveExprIds`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { functions as F, Session } from "../../src/index.js";

test("a state thread's own attributes do not reuse the main thread's expression ids", async () => {
  const s = Session.builder().config("spark.sql.shuffle.partitions", "2").config("arus.state.threads", "2").getOrCreate();
  const ms = s.memoryStream("k STRING, v INT");
  const df = ms.toDF().groupBy("k").agg(F.sum("v").alias("total"), F.max("v").alias("mx"), F.count("*").alias("n"));
  const batches: Record<string, unknown>[][] = [];
  const q = await df.writeStream
    .outputMode("update")
    .foreachBatch(async (b) => {
      batches.push(await b.collect());
    })
    .start();
  try {
    ms.addData([
      { k: "a", v: 1 },
      { k: "a", v: 2 },
      { k: "b", v: 5 },
    ]);
    await q.processAllAvailable();
  } finally {
    await q.stop();
  }
  const rows = batches.flat().sort((x, y) => String(x.k).localeCompare(String(y.k)));
  assert.deepEqual(rows, [
    { k: "a", total: 3, mx: 2, n: 2 },
    { k: "b", total: 5, mx: 5, n: 1 },
  ]);
});
