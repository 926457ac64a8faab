import { mkdtempSync } from "node:fs";
import * as arus from "./src/index.js";
import { kafkaQuery } from "./bench/kafka/arus-engine.js";
const session = arus.Session.builder().master("local[2]").config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const topic = process.argv[2]!;
for (let rep = 0; rep < 2; rep++) {
const t0 = performance.now(); const c0 = process.cpuUsage();
const q = await kafkaQuery(arus, session, "127.0.0.1:40779", { cmd: "throughput", topic, out: topic + "-o" + rep + Date.now(), maxOffsets: 100000 }, mkdtempSync("/tmp/kq-")).trigger({ availableNow: true }).start();
await q.awaitTermination();
const c = process.cpuUsage(c0);
console.log("wall", (performance.now() - t0).toFixed(0), "cpu", ((c.user + c.system) / 1000).toFixed(0));
for (const p of q.recentProgress) console.log(p.numInputRows, JSON.stringify(p.durationMs));
}
await session.stop();
