/**
 * Seed 002 — "Stateful streaming + checkpoint: agregasi window diperkaya dimensi statis".
 *
 * One script, four mechanisms: a windowed per-product count (state store), enriched with the
 * product category by a stream-static join, written in append mode with a checkpoint; then the
 * checkpoint directory is listed; then a second query writes the raw orders with foreachBatch.
 *
 *   node --import tsx examples/seed002-stateful-checkpoint-foreachbatch.ts   (about 44 s)
 *
 * What the seed says happens: batches 0-3 print empty tables (append mode waits for the
 * watermark to pass the end of a window), batch 4 prints the first (partial) window, one row
 * per product with its category; the checkpoint holds offsets/, commits/, metadata, sources/
 * and state/; the foreachBatch query prints "foreachBatch batch N: M baris" with 0, 6, 12, 12
 * rows (3 rows/s, 4-second trigger, the first interval cut short by the start).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DataFrame, functions as F, Session } from "../src/index.js";
import { cliOptions, type ExampleOptions, isMain, printer, runFor, seedSession } from "./lib/run.js";

/** Seed-like start for accelerated runs: 2.6 s before the end of [14:10:08, 14:10:16), as in the seed's Batch 4. */
export const FAST_START_MS = Date.UTC(2026, 9, 16, 14, 10, 13, 400);

export interface Seed002Options extends ExampleOptions {
  /** Run time of the aggregation query (seed: awaitTermination(32)). */
  seconds?: number;
  /** Run time of the foreachBatch query (seed: awaitTermination(12)). */
  foreachBatchSeconds?: number;
  /** Keep the checkpoint directories instead of deleting them at the end. */
  keepCheckpoints?: boolean;
}

export interface Seed002Result {
  checkpoint: string;
  /** Top-level entries of the first query's checkpoint, sorted, as listed. */
  checkpointEntries: { name: string; isDir: boolean; children: string[] }[];
  /** Row counts the foreachBatch function saw, by batch id. */
  foreachBatchRows: { batchId: number; rows: number }[];
}

export async function seed002StatefulCheckpointForeachBatch(opts: Seed002Options = {}): Promise<Seed002Result> {
  const say = printer(opts.out);
  const now = () => opts.clock?.now() ?? Date.now();
  const spark = seedSession(Session, "seed002-stateful-checkpoint-foreachbatch", opts.timeZone);
  const t0 = now();

  // A small static dimension: category per product.
  const kategoriDf = spark.createDataFrame(
    [
      ["Rok Tenun", "pakaian"],
      ["Kain Songket", "pakaian"],
      ["Tas Rotan", "aksesoris"],
      ["Blouse Katun", "pakaian"],
    ],
    "produk STRING, kategori STRING",
  );

  const daftar = F.array(F.lit("Rok Tenun"), F.lit("Kain Songket"), F.lit("Tas Rotan"), F.lit("Blouse Katun"));

  // Stream: 3 orders/s, event_time = arrival time.
  const pesanan = spark.readStream
    .format("rate")
    .option("rowsPerSecond", 3)
    .option("numPartitions", 1)
    .load()
    .withColumn("produk", F.element_at(daftar, F.col("value").mod(4).plus(1).cast("int")))
    .withColumn("event_time", F.col("timestamp"));

  // Query 1: stateful aggregation (window + watermark), then a stream-static join that adds
  // the category column from the static dimension to the aggregated rows.
  const ringkasan = pesanan.withWatermark("event_time", "4 seconds").groupBy(F.window("event_time", "8 seconds"), F.col("produk")).count();

  const laporan = ringkasan
    .join(kategoriDf, "produk")
    .select(F.col("window.start").alias("mulai"), F.col("window.end").alias("selesai"), "produk", "kategori", "count");

  const ckpt = mkdtempSync(join(tmpdir(), "ckpt_demo_"));
  say(`lokasi checkpoint: ${ckpt}`);

  let w1 = laporan.writeStream
    .format("console")
    .outputMode("append")
    .trigger({ processingTime: "5 seconds" })
    .option("truncate", "false")
    .option("checkpointLocation", ckpt);
  if (opts.clock) w1 = w1.withClock(opts.clock);
  const q = await w1.start();
  await runFor(q, opts.seconds ?? 32, opts.clock);
  await q.stop();

  say("== isi direktori checkpoint ==");
  const checkpointEntries: Seed002Result["checkpointEntries"] = [];
  for (const nama of readdirSync(ckpt).sort()) {
    const jalur = join(ckpt, nama);
    if (statSync(jalur).isDirectory()) {
      const isi = readdirSync(jalur).sort();
      checkpointEntries.push({ name: nama, isDir: true, children: isi });
      say(`  ${nama}/ (${isi.length} entri: ${isi.slice(0, 6).join(", ")})`);
    } else {
      checkpointEntries.push({ name: nama, isDir: false, children: [] });
      say(`  ${nama}`);
    }
  }

  // Query 2: foreachBatch — a custom sink that receives each micro-batch and its batch id.
  const ckpt2 = mkdtempSync(join(tmpdir(), "ckpt_feb_"));
  const foreachBatchRows: Seed002Result["foreachBatchRows"] = [];
  async function catat(df: DataFrame, batchId: number): Promise<void> {
    const n = await df.count();
    foreachBatchRows.push({ batchId, rows: n });
    say(`foreachBatch batch ${batchId}: ${n} baris`);
  }

  let w2 = pesanan.writeStream.foreachBatch(catat).trigger({ processingTime: "4 seconds" }).option("checkpointLocation", ckpt2);
  if (opts.clock) w2 = w2.withClock(opts.clock);
  const q2 = await w2.start();
  await runFor(q2, opts.foreachBatchSeconds ?? 12, opts.clock);
  await q2.stop();

  if (!opts.keepCheckpoints) {
    rmSync(ckpt, { recursive: true, force: true });
    rmSync(ckpt2, { recursive: true, force: true });
  }
  say();
  say(`durasi script: ${((now() - t0) / 1000).toFixed(1)} detik`);
  await spark.stop();
  return { checkpoint: ckpt, checkpointEntries, foreachBatchRows };
}

if (isMain(import.meta.filename)) await seed002StatefulCheckpointForeachBatch(cliOptions(FAST_START_MS));
