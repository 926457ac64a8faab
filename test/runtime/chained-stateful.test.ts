import assert from "node:assert/strict";
import { it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const at = (sec: number) => new Date(sec * 1000);

it("chains stateful operators in append mode, each with its own state (Spark 3.4+)", async () => {
  const ms = s.memoryStream("k STRING, ts TIMESTAMP");
  const perKey = ms.toDF().withWatermark("ts", "5 seconds").dropDuplicates(["k", "ts"]).groupBy(F.window("ts", "10 seconds"), "k").count();
  const perWindow = perKey.groupBy("window").agg(F.sum("count").alias("total"), F.count("*").alias("keys"));
  const q = await perWindow.writeStream.format("memory").queryName("chained").outputMode("append").start();
  try {
    ms.addData([
      { k: "a", ts: at(1) },
      { k: "a", ts: at(1) },
      { k: "b", ts: at(2) },
      { k: "a", ts: at(3) },
    ]);
    await q.processAllAvailable();
    ms.addData([{ k: "c", ts: at(30) }]);
    await q.processAllAvailable();
    const rows = await s.table("chained").collect();
    assert.deepEqual(
      rows.map((r) => [(r.window as { start: Date }).start.toISOString(), r.total, r.keys]),
      [["1970-01-01T00:00:00.000Z", 3, 2]],
    );
    const ops = q.lastProgress!.stateOperators.map((o) => o.operatorName);
    assert.deepEqual(ops, ["stateStoreSave", "stateStoreSave", "dedupe"]);
  } finally {
    await q.stop();
  }
});

it("refuses chained aggregations outside append mode, as Spark does", async () => {
  const ms = s.memoryStream("k STRING, ts TIMESTAMP");
  const twice = ms.toDF().withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds"), "k").count().groupBy("window").count();
  await assert.rejects(
    twice.writeStream.format("noop").outputMode("update").start(),
    /possible 'correctness' issue due to global watermark/,
  );
});
