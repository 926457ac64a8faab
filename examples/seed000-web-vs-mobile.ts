/**
 * Seed 000, part 2 — "Watermark demo v2: web on-time vs mobile tertahan 40 detik".
 *
 * 10 rows/s from the rate source: even values are web checkouts (event_time = arrival),
 * odd values are mobile checkouts held back 40 seconds (event_time = arrival - 40 s), like a
 * phone that stored events while offline. 5-second watermark, 6-second windows per source,
 * update mode, a 3-second trigger, 45 seconds.
 *
 *   node --import tsx examples/seed000-web-vs-mobile.ts      (45 s of real time)
 *
 * What the seed says happens: mobile rows show up only in the first two batches with data,
 * while the watermark still has its initial value; as soon as web rows push the max event time
 * forward, every mobile row is below the 5-second watermark and is dropped without an error —
 * the mobile count stops at 20 although mobile events keep coming; later batches only update
 * web windows. (Spark filters late rows with the previous batch's watermark, which is still the
 * initial one in the second batch — that is why mobile rows get through twice.)
 */
import { functions as F, Session } from "../src/index.js";
import { cliOptions, type ExampleOptions, isMain, printer, runFor, seedSession } from "./lib/run.js";

/** Seed-like start for accelerated runs: 50 ms after a 6 s window boundary, so the first mobile window gets 20 rows. */
export const FAST_START_MS = Date.UTC(2026, 9, 16, 14, 2, 0, 50);

export interface WebVsMobileOptions extends ExampleOptions {
  /** How long the query runs before stop(); the seed uses awaitTermination(45). */
  seconds?: number;
}

export interface WebVsMobileResult {
  /** Late rows the aggregation dropped, per source (arus: progress `arus.numLateInputRows` + onLateRows). */
  droppedBySource: Record<string, number>;
  numBatches: number;
}

export async function seed000WebVsMobile(opts: WebVsMobileOptions = {}): Promise<WebVsMobileResult> {
  const say = printer(opts.out);
  const now = () => opts.clock?.now() ?? Date.now();
  const spark = seedSession(Session, "seed000-web-vs-mobile", opts.timeZone);
  const t0 = now();

  // Even rows = web checkouts (event_time = arrival time).
  // Odd rows = mobile-app checkouts held back 40 seconds (event_time 40 s behind arrival).
  const checkout = spark.readStream
    .format("rate")
    .option("rowsPerSecond", 10)
    .option("numPartitions", 1)
    .load()
    .withColumn("sumber", F.when(F.col("value").mod(2).equalTo(0), "web").otherwise("mobile"))
    .withColumn(
      "event_time",
      F.unix_timestamp("timestamp")
        .minus(F.when(F.col("value").mod(2).equalTo(1), F.lit(40)).otherwise(F.lit(0)))
        .cast("timestamp"),
    );

  const ringkasan = checkout.withWatermark("event_time", "5 seconds").groupBy(F.window("event_time", "6 seconds"), "sumber").count();

  const droppedBySource: Record<string, number> = {};
  let numBatches = 0;
  spark.streams.addListener({ onQueryProgress: () => numBatches++ });
  let writer = ringkasan.writeStream
    .format("console")
    .outputMode("update")
    .trigger({ processingTime: "3 seconds" })
    .option("truncate", "false")
    // arus: Spark drops late rows silently; here we count what was dropped, per source.
    .onLateRows(async (late) => {
      for (const r of await late.groupBy("sumber").count().collect()) {
        droppedBySource[r.sumber as string] = (droppedBySource[r.sumber as string] ?? 0) + (r.count as number);
      }
    });
  if (opts.clock) writer = writer.withClock(opts.clock);
  const q = await writer.start();
  await runFor(q, opts.seconds ?? 45, opts.clock);
  await q.stop();

  say(`durasi script: ${((now() - t0) / 1000).toFixed(1)} detik`);
  say(`(arus) baris terlambat yang dibuang per sumber: ${JSON.stringify(droppedBySource)}`);
  await spark.stop();
  return { droppedBySource, numBatches };
}

if (isMain(import.meta.filename)) await seed000WebVsMobile(cliOptions(FAST_START_MS));
