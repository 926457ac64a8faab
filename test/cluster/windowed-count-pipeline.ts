/**
 * The in-process group-mode tests' query: a Kafka topic of JSON events `{id, k, v, ts}` → a
 * 10-second windowed count and sum per key → JSON rows `{start, k, n, s}` on a Kafka topic,
 * append mode, one worker of `group`. Each test varies the watermark delay and adds options.
 */
import { F, type Session } from "../../src/index.js";

export interface WindowedCountOptions {
  readonly bootstrap: string;
  readonly input: string;
  readonly output: string;
  readonly group: string;
  /** The watermark delay; default "2 seconds". */
  readonly delay?: string;
  /** Extra reader options (e.g. fetchOffset retries). */
  readonly source?: Record<string, string | number>;
  /** Extra writer options (arus.cluster.*). */
  readonly sink?: Record<string, string | number>;
}

export function startWindowedCount(s: Session, o: WindowedCountOptions) {
  return s.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", o.bootstrap)
    .option("subscribe", o.input)
    .option("startingOffsets", "earliest")
    .options(o.source ?? {})
    .load()
    .select(F.from_json(F.col("value").cast("string"), "id BIGINT, k STRING, v BIGINT, ts TIMESTAMP").alias("e"))
    .select("e.*")
    .withWatermark("ts", o.delay ?? "2 seconds")
    .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
    .agg(F.count("*").alias("n"), F.sum("v").alias("s"))
    .select(F.to_json(F.struct(F.col("window.start").alias("start"), "k", "n", "s")).alias("value"))
    .writeStream.format("kafka")
    .option("kafka.bootstrap.servers", o.bootstrap)
    .option("topic", o.output)
    .option("arus.cluster.group", o.group)
    .option("arus.cluster.sessionTimeoutMs", 6000)
    .options(o.sink ?? {})
    .outputMode("append")
    .start();
}
