/**
 * Engine bug found while porting seed 000: the physical EventTimeWatermark node passed its
 * child's attributes through without the `spark.watermarkDelayMs` mark, so a streaming
 * dropDuplicates placed right on top of withWatermark never saw an event-time column: late
 * rows were not dropped and state was never evicted.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Row, Session } from "../../src/index.js";

test("withWatermark + dropDuplicates drops rows at or below the previous batch's watermark", async () => {
  const spark = Session.builder()
    .appName("dedup-wm")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate();
  const ms = spark.memoryStream("event_time TIMESTAMP, tiba INT");
  const late: Row[] = [];
  const q = await ms
    .toDF()
    .withWatermark("event_time", "5 seconds")
    .dropDuplicates(["event_time", "tiba"])
    .writeStream.format("memory")
    .queryName("dedup_wm")
    .outputMode("append")
    .onLateRows(async (df) => {
      late.push(...(await df.collect()));
    })
    .start();
  for (const [et, tiba] of [
    [12, 12],
    [27, 27], // watermark → 22 after this batch
    [13, 28], // 13 <= 22: late
    [24, 29],
  ] as const) {
    ms.addData([{ event_time: new Date(et * 1000), tiba }]);
    await q.processAllAvailable();
  }
  const ops = q.recentProgress.flatMap((p) => p.stateOperators.map((s) => s.numRowsDroppedByWatermark));
  await q.stop();
  const kept = (await spark.table("dedup_wm").collect()).map((r) => r.tiba).sort();
  await spark.stop();
  assert.deepEqual(kept, [12, 27, 29]);
  assert.deepEqual(
    late.map((r) => [r.tiba, (r._late_watermark as Date).getTime(), r._late_by_ms]),
    [[28, 22_000, 9_000]],
  );
  assert.equal(
    ops.reduce((a, b) => a + b, 0),
    1,
  );
});
