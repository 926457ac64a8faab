import { Session } from "./src/index.js";
const s = Session.builder().getOrCreate();
for (const t of process.argv.slice(2)) {
const df = s.read.format("kafka").option("kafka.bootstrap.servers", "127.0.0.1:40779").option("subscribe", t).option("includeHeaders", "true").load();
const rows = await df.collect();
console.log(t, rows.length, JSON.stringify(rows[5]), String(rows[299]?.value).length);
}
await s.stop();
