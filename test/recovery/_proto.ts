import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { Session, F } from "../../src/index.js";
const t0 = performance.now();
const base = "/tmp/arus-proto";
rmSync(base, { recursive: true, force: true });
mkdirSync(`${base}/in`, { recursive: true });
const start = Date.UTC(2024, 0, 1);
for (let i = 0; i < 20; i++) {
  const lines = [];
  for (let j = 0; j < 20; j++) lines.push(JSON.stringify({ id: i * 20 + j, key: `k${j % 3}`, ts: new Date(start + i * 5000 + ((j * 7) % 20) * 250).toISOString() }));
  writeFileSync(`${base}/in/part-${String(i).padStart(4, "0")}.json`, lines.join("\n") + "\n");
}
const session = Session.builder().appName("p").config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
console.log("session", performance.now() - t0);
const df = session.readStream.format("json").schema("id LONG, key STRING, ts TIMESTAMP").option("maxFilesPerTrigger", 1).load(`${base}/in`);
const agg = df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds"), F.col("key")).count();
const q = await agg.writeStream.format("json").outputMode("append").option("checkpointLocation", `${base}/ckpt`).trigger({ availableNow: true }).start(`${base}/out`);
await q.awaitTermination();
console.log("done", performance.now() - t0, q.lastProgress?.batchId);
const rows = await session.read.json(`${base}/out`).collect();
console.log(rows.length, rows.slice(0, 3));
const q2 = await agg.writeStream.foreachBatch(async (d, id) => { const r = await d.collect(); if (id < 2 || r.length) console.log(id, JSON.stringify(r.slice(0, 2))); }).outputMode("append").option("checkpointLocation", `${base}/ckpt2`).trigger({ availableNow: true }).start();
await q2.awaitTermination();
console.log("done2", performance.now() - t0);
