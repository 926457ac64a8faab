/**
 * Seed 003 — "Implementing Watermark Strategies for Late Data": the lesson's snippet,
 *
 *     streaming_df = spark.readStream.table("sensor_data") \
 *         .withWatermark("event_time", "10 minutes") \
 *         .groupBy(window(col("event_time"), "5 minutes"), col("device_id")).count()
 *
 * made runnable: a `sensor_data` table is created in a temporary warehouse and appended to in
 * rounds (each append is one table version, read by the stream as one micro-batch); the counts
 * go to the console in append mode, so a window appears once it is final.
 *
 *   node --import tsx examples/seed003-table-watermark.ts
 *
 * What the lesson says: with a 10-minute watermark, once the latest event time seen is 10:30
 * the engine treats data before 10:20 as too late; once the watermark passes a window, the
 * window's state is finalized and later data for it is ignored. Here the 10:30 reading moves
 * the watermark to 10:20, the windows up to [10:15, 10:20) are emitted as final, and late
 * readings from 10:16 and 10:19 are dropped (shown with arus's onLateRows) while 10:21 and
 * 10:26 — late, but above the watermark — are still counted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { functions as F, type Row, Session } from "../src/index.js";
import { type ExampleOptions, isMain, printer } from "./lib/run.js";

const SCHEMA = "device_id STRING, event_time TIMESTAMP, suhu DOUBLE";

export interface Seed003Options extends ExampleOptions {
  /** Warehouse directory for the table (default: a fresh temporary directory, removed at the end). */
  warehouse?: string;
  /** Calendar day of the readings (UTC), default 2026-10-16. */
  day?: string;
}

export interface Seed003Result {
  /** Readings dropped as too late, with the watermark they were compared with. */
  dropped: { device_id: string; event_time: Date; watermark: Date }[];
  /** Watermark after each round of appends. */
  watermarks: Date[];
}

export async function seed003TableWatermark(opts: Seed003Options = {}): Promise<Seed003Result> {
  const say = printer(opts.out);
  const warehouse = opts.warehouse ?? mkdtempSync(join(tmpdir(), "arus_warehouse_"));
  const tz = opts.timeZone ?? "UTC";
  const spark = Session.builder()
    .appName("seed003-table-watermark")
    .master("local[1]")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.session.timeZone", tz)
    .config("spark.sql.warehouse.dir", warehouse)
    .getOrCreate();
  const day = opts.day ?? "2026-10-16";
  const at = (hhmm: string) => new Date(`${day}T${hhmm}:00Z`);
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  const reading = (device_id: string, t: string, suhu: number) => ({ device_id, event_time: at(t), suhu });

  // The table the lesson streams from: created with the first readings.
  await spark
    .createDataFrame([reading("A", "10:01", 21.5), reading("B", "10:03", 22.0), reading("A", "10:07", 21.7)], SCHEMA)
    .write.saveAsTable("sensor_data");

  // The lesson's query, as written.
  const streamingDf = spark.readStream
    .table("sensor_data")
    .withWatermark("event_time", "10 minutes")
    .groupBy(F.window(F.col("event_time"), "5 minutes"), F.col("device_id"))
    .count();

  const dropped: Seed003Result["dropped"] = [];
  const q = await streamingDf.writeStream
    .format("console")
    .outputMode("append")
    .option("truncate", "false")
    .onLateRows(async (late) => {
      for (const r of (await late.collect()) as Row[]) {
        dropped.push({ device_id: r.device_id as string, event_time: r.event_time as Date, watermark: r._late_watermark as Date });
        say(
          `(arus onLateRows) too late, dropped: ${r.device_id} ${hhmm(r.event_time as Date)} — watermark ${hhmm(r._late_watermark as Date)}`,
        );
      }
    })
    .start();

  const watermarks: Date[] = [];
  const round = async (label: string, rows: ReturnType<typeof reading>[]) => {
    if (rows.length) await spark.createDataFrame(rows, SCHEMA).write.mode("append").saveAsTable("sensor_data");
    await q.processAllAvailable();
    const wm = new Date(q.currentWatermarkMs);
    watermarks.push(wm);
    say(`>> ${label}: watermark now ${hhmm(wm)}`);
    say();
  };

  await round("readings 10:01-10:07 (the table as created)", []);
  await round("readings up to 10:14", [reading("B", "10:09", 22.4), reading("A", "10:12", 21.9), reading("B", "10:14", 22.8)]);
  // The lesson's example: the latest event time is now 10:30, so the watermark is 10:20.
  await round("a reading at 10:30", [reading("A", "10:30", 23.1)]);
  // Late arrivals: below 10:20 they are too late; above it they still count.
  await round("late readings 10:16, 10:19, 10:21, 10:26", [
    reading("B", "10:16", 22.9),
    reading("A", "10:19", 23.0),
    reading("B", "10:21", 23.2),
    reading("A", "10:26", 23.4),
  ]);
  await round("a reading at 10:41", [reading("B", "10:41", 23.8)]);

  await q.stop();
  await spark.stop();
  if (!opts.warehouse) rmSync(warehouse, { recursive: true, force: true });
  return { dropped, watermarks };
}

if (isMain(import.meta.filename)) await seed003TableWatermark();
