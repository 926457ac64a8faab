// Cold start: import the built package, define a streaming query and run its first batch;
// prints the ms from process start (performance.timeOrigin) to the first batch's progress.
// Plain JS over dist/ so the figure has no TypeScript loader in it (bench/run.ts builds first).
import { functions as F, Session } from "../dist/index.js";

const session = Session.builder().config("spark.sql.shuffle.partitions", "2").getOrCreate();
const q = await session.readStream
  .format("rate-micro-batch")
  .option("rowsPerBatch", 10)
  .load()
  .withWatermark("timestamp", "4 seconds")
  .groupBy(F.window("timestamp", "8 seconds"))
  .count()
  .writeStream.format("noop")
  .outputMode("update")
  .start();
while (!q.lastProgress) await new Promise((r) => setTimeout(r, 1));
const elapsed = performance.now();
await q.stop();
process.stdout.write(`${elapsed.toFixed(0)}\n`);
