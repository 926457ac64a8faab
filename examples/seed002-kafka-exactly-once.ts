/**
 * Seed 002 on Kafka: the same pipeline as seed002-stateful-checkpoint-foreachbatch.ts — per-
 * product counts in 8-second windows with a 4-second watermark, enriched with the category
 * table by a stream-static join — but the orders come from a Kafka topic (JSON values, read
 * with from_json) and the windowed counts go to a Kafka topic exactly once (to_json values,
 * `arus.exactlyOnce`: each micro-batch is one Kafka transaction tied to its batch id).
 *
 *   export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"
 *   node --import tsx examples/seed002-kafka-exactly-once.ts
 *
 * What happens: 36 orders (3 per second of event time, from 14:10:00) are produced, the query
 * runs with availableNow (12 offsets per batch: three data batches, then a no-data batch for
 * the watermark); 36 more orders, the query runs again from its
 * checkpoint; then the last batch's commit is removed (a crash between the Kafka transaction and
 * commits/N) and the query runs once more: that batch is replayed, and the sink skips it. The
 * output topic, read with read_committed, holds each closed window once: [14:10:00, 14:10:08)
 * and [14:10:08, 14:10:16), 6 orders per product each.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { functions as F, Session } from "../src/index.js";
import { isMain, type Out, printer, seedSession } from "./lib/run.js";

export interface Seed002KafkaOptions {
  /** Kafka bootstrap servers (default: ARUS_KAFKA_BOOTSTRAP). */
  bootstrap?: string;
  out?: Out;
  /** Keep the checkpoint directory (default: deleted at the end). */
  keepCheckpoint?: boolean;
}

export interface Seed002KafkaResult {
  ordersTopic: string;
  countsTopic: string;
  /** Batch ids of the three runs (the third is the replay of the second's last batch). */
  runs: number[][];
  /** The output topic read with read_committed, sorted by window and product. */
  counts: { mulai: string; selesai: string; produk: string; kategori: string; count: number }[];
}

const PRODUK = ["Rok Tenun", "Kain Songket", "Tas Rotan", "Blouse Katun"];
const T0 = Date.UTC(2026, 9, 16, 14, 10, 0);

export async function seed002KafkaExactlyOnce(opts: Seed002KafkaOptions = {}): Promise<Seed002KafkaResult> {
  const bootstrap = opts.bootstrap ?? process.env.ARUS_KAFKA_BOOTSTRAP;
  if (!bootstrap) throw new Error('no Kafka broker: export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"');
  const say = printer(opts.out);
  const spark = seedSession(Session, "seed002-kafka-exactly-once", "UTC");
  const suffix = randomUUID().slice(0, 8);
  const ordersTopic = `pesanan-${suffix}`;
  const countsTopic = `ringkasan-${suffix}`;

  // Orders i = from..to-1: 3 per second of event time, products in turn (the first write
  // creates the topic, with the broker's default partition count).
  const produce = async (from: number, to: number) => {
    const rows = [];
    for (let i = from; i < to; i++) {
      const event_time = new Date(T0 + Math.floor((i * 1000) / 3)).toISOString();
      rows.push({ key: PRODUK[i % 4], value: JSON.stringify({ order_id: i, produk: PRODUK[i % 4], event_time }) });
    }
    await spark
      .createDataFrame(rows, "key STRING, value STRING")
      .write.format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("topic", ordersTopic)
      .save();
    say(`${to - from} pesanan dikirim ke topik ${ordersTopic}`);
  };

  const kategoriDf = spark.createDataFrame(
    [
      ["Rok Tenun", "pakaian"],
      ["Kain Songket", "pakaian"],
      ["Tas Rotan", "aksesoris"],
      ["Blouse Katun", "pakaian"],
    ],
    "produk STRING, kategori STRING",
  );

  const pesanan = spark.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("subscribe", ordersTopic)
    .option("startingOffsets", "earliest")
    .option("maxOffsetsPerTrigger", 12)
    .load()
    .select(F.from_json(F.col("value").cast("string"), "order_id INT, produk STRING, event_time TIMESTAMP").alias("o"))
    .select(F.col("o.order_id").alias("order_id"), F.col("o.produk").alias("produk"), F.col("o.event_time").alias("event_time"));

  const ringkasan = pesanan.withWatermark("event_time", "4 seconds").groupBy(F.window("event_time", "8 seconds"), F.col("produk")).count();
  const laporan = ringkasan
    .join(kategoriDf, "produk")
    .select(F.col("window.start").alias("mulai"), F.col("window.end").alias("selesai"), "produk", "kategori", "count");

  const ckpt = mkdtempSync(join(tmpdir(), "ckpt_kafka_"));
  say(`lokasi checkpoint: ${ckpt}`);
  const run = async (): Promise<number[]> => {
    const q = await laporan
      .select(F.col("produk").alias("key"), F.to_json(F.struct("mulai", "selesai", "produk", "kategori", "count")).alias("value"))
      .writeStream.format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("topic", countsTopic)
      .option("arus.exactlyOnce", true)
      .option("checkpointLocation", ckpt)
      .outputMode("append")
      .trigger({ availableNow: true })
      .start();
    await q.awaitTermination();
    const ids = q.recentProgress.map((p) => p.batchId);
    say(`kueri selesai: batch ${ids.join(", ")}`);
    return ids;
  };

  const runs: number[][] = [];
  await produce(0, 36);
  runs.push(await run());
  await produce(36, 72);
  runs.push(await run());

  // A crash after the Kafka transaction of the last batch, before its commits/N: the restart
  // replays that batch; the sink finds its batch id committed in Kafka and writes nothing.
  const commits = readdirSync(join(ckpt, "commits")).filter((f) => /^\d+$/.test(f));
  const last = Math.max(...commits.map(Number));
  rmSync(join(ckpt, "commits", String(last)));
  say(`commits/${last} dihapus (crash sebelum commit log): batch ${last} akan diulang`);
  runs.push(await run());

  say("== isi topik hasil (read_committed) ==");
  const hasil = spark.read
    .format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("subscribe", countsTopic)
    .option("kafka.isolation.level", "read_committed")
    .load()
    .select(
      F.from_json(F.col("value").cast("string"), "mulai TIMESTAMP, selesai TIMESTAMP, produk STRING, kategori STRING, count BIGINT").alias(
        "r",
      ),
    )
    .select(...["mulai", "selesai", "produk", "kategori", "count"].map((c) => F.col(`r.${c}`).alias(c)))
    .orderBy("mulai", "produk");
  await hasil.show({ truncate: false });
  const counts = (
    await hasil.selectExpr("CAST(mulai AS STRING) mulai", "CAST(selesai AS STRING) selesai", "produk", "kategori", "count").collect()
  ).map((r) => r as unknown as Seed002KafkaResult["counts"][number]);
  if (!opts.keepCheckpoint) rmSync(ckpt, { recursive: true, force: true });
  await spark.stop();
  return { ordersTopic, countsTopic, runs, counts };
}

if (isMain(import.meta.filename)) await seed002KafkaExactlyOnce();
