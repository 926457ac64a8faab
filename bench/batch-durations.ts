/**
 * Where a streaming aggregation's batches spend their time, run after run in one process: the
 * checkout orders per (8 s window, product) count of seed002 (without its static join), each
 * run a fresh query over every file, summing its batches' progress durations and its state
 * operator's update / removal / commit times. The later runs show the warm figures (each worker
 * thread compiles its own code in the first).
 *
 *   node --import tsx bench/batch-durations.ts [--data bench/data/out/full] [--runs 3] [--conf key=value]...
 *   (e.g. --conf arus.state.threads=2, --conf arus.checkpoint.fsync=false)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { functions as F, Session } from "../src/index.js";
import { ORDER_SCHEMA } from "./arus/queries.js";

const argv = process.argv.slice(2);
const get = (k: string) => {
  const i = argv.indexOf(k);
  return i >= 0 ? argv[i + 1] : undefined;
};
const data = path.resolve(get("--data") ?? path.join(import.meta.dirname, "data/out/full"));
const runs = Number(get("--runs") ?? 3);
let builder = Session.builder()
  .master("local[2]")
  .config("spark.sql.shuffle.partitions", "2") // as bench/arus/run.ts
  .config("spark.sql.streaming.numRecentProgressUpdates", "100000");
for (const [i, a] of argv.entries()) {
  const kv = a === "--conf" ? argv[i + 1] : undefined;
  const at = kv?.indexOf("=") ?? -1;
  if (kv !== undefined && at > 0) builder = builder.config(kv.slice(0, at), kv.slice(at + 1));
}
const session = builder.getOrCreate();

for (let run = 0; run < runs; run++) {
  const checkpoint = mkdtempSync(path.join(tmpdir(), "arus-bench-durations-"));
  const df = session.readStream
    .format("json")
    .schema(ORDER_SCHEMA)
    .option("maxFilesPerTrigger", 1)
    .load(path.join(data, "checkout/orders"))
    .withWatermark("event_time", "4 seconds")
    .groupBy(F.window("event_time", "8 seconds"), F.col("produk"))
    .count();
  const t = performance.now();
  const q = await df.writeStream.format("noop").outputMode("append").option("checkpointLocation", checkpoint).start();
  await q.processAllAvailable();
  const wall = performance.now() - t;
  const batches = q.recentProgress.filter((p) => p.numInputRows > 0);
  const total = (f: (p: (typeof batches)[number]) => number) => Math.round(batches.reduce((s, p) => s + f(p), 0));
  const d = (k: string) => total((p) => p.durationMs?.[k] ?? 0);
  const s = (k: "allUpdatesTimeMs" | "allRemovalsTimeMs" | "commitTimeMs") => total((p) => p.stateOperators[0]?.[k] ?? 0);
  process.stdout.write(
    `run ${run}: wall ${wall.toFixed(0)} ms, ${batches.length} batches; ms summed over them: triggerExecution ${d("triggerExecution")}, getBatch ${d("getBatch")}, addBatch ${d("addBatch")}; state updates ${s("allUpdatesTimeMs")}, removals ${s("allRemovalsTimeMs")}, commit ${s("commitTimeMs")}\n`,
  );
  await q.stop();
  rmSync(checkpoint, { recursive: true, force: true });
}
await session.stop();
