/**
 * Seed 001 — "Micro-batch Structured Streaming: rate source, window, dan watermark".
 *
 * 5 rows/s from the rate source; event_time = the arrival second shifted back (value % 3)
 * seconds; 8-second windows with a 4-second watermark, append mode, a 4-second trigger, run
 * for 48 seconds, then stop and print the status message.
 *
 *   node --import tsx examples/seed001-rate-window-watermark.ts      (48 s of real time)
 *
 * What the seed says happens: append mode prints a window only once the watermark has passed
 * its end, so windows show up about every second batch and the batches in between print an
 * empty table; the first window is partial (the query starts in the middle of it); every
 * later window holds 5 rows/s × 8 s = 40 rows; after stop() the status message is "Stopped".
 */
import { functions as F, Session } from "../src/index.js";
import { cliOptions, type ExampleOptions, isMain, printer, runFor, seedSession } from "./lib/run.js";

/** Seed-like start for accelerated runs: inside the window [13:29:20, 13:29:28), on the seed's 4 s trigger grid. */
export const FAST_START_MS = Date.UTC(2026, 9, 16, 13, 29, 22, 800);

export interface Seed001Options extends ExampleOptions {
  /** How long the query runs before stop(); the seed uses awaitTermination(48). */
  seconds?: number;
}

export interface Seed001Result {
  statusAfterStop: string;
  /** Batch ids the query ran, in order. */
  batchIds: number[];
}

export async function seed001RateWindowWatermark(opts: Seed001Options = {}): Promise<Seed001Result> {
  const say = printer(opts.out);
  const spark = seedSession(Session, "seed001-rate-window-watermark", opts.timeZone);

  // The "rate" source produces (timestamp, value) rows, 5 per second. event_time is shifted
  // back 0, 1 or 2 seconds to imitate events that arrive late from their source.
  const kunjungan = spark.readStream
    .format("rate")
    .option("rowsPerSecond", 5)
    .option("numPartitions", 1)
    .load()
    .withColumn("event_time", F.unix_timestamp("timestamp").minus(F.col("value").mod(3)).cast("timestamp"));

  const ringkasan = kunjungan.withWatermark("event_time", "4 seconds").groupBy(F.window("event_time", "8 seconds")).count();

  const batchIds: number[] = [];
  spark.streams.addListener({ onQueryProgress: (e) => batchIds.push(e.progress.batchId) });

  let writer = ringkasan.writeStream
    .format("console")
    .outputMode("append")
    .trigger({ processingTime: "4 seconds" })
    .option("truncate", "false");
  if (opts.clock) writer = writer.withClock(opts.clock);
  const q = await writer.start();

  await runFor(q, opts.seconds ?? 48, opts.clock);
  await q.stop();
  say(`status kueri setelah stop: ${q.status.message}`);

  await spark.stop();
  return { statusAfterStop: q.status.message, batchIds };
}

if (isMain(import.meta.filename)) await seed001RateWindowWatermark(cliOptions(FAST_START_MS));
