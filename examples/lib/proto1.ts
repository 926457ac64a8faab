import { Session, functions as F } from "../../src/index.js";
import { ManualClock } from "../../src/runtime/clock.js";
const session = Session.builder().master("local[1]").config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const start = Date.UTC(2026, 9, 16, 13, 29, 13, 400);
const clock = new ManualClock(start);
const kunjungan = session.readStream.format("rate").option("rowsPerSecond", 5).option("numPartitions", 1).load()
  .withColumn("event_time", F.unix_timestamp("timestamp").minus(F.col("value").mod(3)).cast("timestamp"));
const ringkasan = kunjungan.withWatermark("event_time", "4 seconds").groupBy(F.window("event_time", "8 seconds")).count();
const q = await ringkasan.writeStream.format("console").outputMode("append").trigger({ processingTime: "4 seconds" }).option("truncate", "false").withClock(clock).start();
const tick = () => new Promise((r) => setImmediate(r));
async function settle() { while (q.isActive && !clock.isWaiting()) await tick(); }
const end = start + 48000;
while (clock.now() < end) { await settle(); clock.setTime(Math.min(end, Math.floor(clock.now() / 100) * 100 + 100)); }
await settle();
await q.stop();
console.log(`status kueri setelah stop: ${q.status.message}`);
await session.stop();
