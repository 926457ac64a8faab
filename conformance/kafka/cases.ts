/**
 * The Kafka differential cases: each names a topic's contents (produced once, read by PySpark
 * with Spark's Kafka connector and by arus), the read options, and the same query for both
 * engines. `maxOffsetsPerTrigger` fixes the batch boundaries; the trigger is availableNow.
 * A case with `sink` also runs a streaming query into a Kafka topic in each engine (arus into
 * one topic, Spark into another), and both output topics are read back by both engines.
 */
import type { JsonValue } from "../case.js";

// biome-ignore lint/suspicious/noExplicitAny: the engine's DataFrame/functions as the conformance cases use them
type Any = any;

export interface KafkaRecord {
  readonly partition: number;
  readonly key?: string | null;
  readonly value: string | null;
  readonly headers?: readonly { key: string; value: string | null }[];
  /** CreateTime in ms; absent: the producer's clock at the run. */
  readonly timestamp?: number;
}

export interface KafkaCaseDef {
  readonly id: string;
  readonly description: string;
  readonly partitions: number;
  readonly records: readonly KafkaRecord[];
  /**
   * Read options besides `kafka.bootstrap.servers`, and `subscribe` to the case's topic unless
   * they hold `assign` or `subscribePattern`; `$TOPIC` is replaced by the topic's name.
   */
  readonly options: Readonly<Record<string, string>>;
  readonly outputMode?: "append" | "update" | "complete";
  /** One Python expression over `df`, `F` (pyspark.sql.functions). */
  readonly pyspark: string;
  readonly arus: (df: Any, F: Any) => Any;
  /** The case's query is written to a Kafka topic of `partitions` partitions (instead of foreachBatch). */
  readonly sink?: { readonly partitions: number };
  /** The query must fail in both engines; the value is a substring expected in Spark's message. */
  readonly expectError?: string;
}

/** What is handed to spark_kafka_runner.py (JSON). */
export interface KafkaSpec {
  id: string;
  topic: string;
  bootstrap: string;
  options: Record<string, string>;
  outputMode: string;
  pyspark: string;
  /** Sink cases: the topic Spark writes to, and the topic arus wrote to (both read back). */
  sinkTopics?: { spark: string; arus: string };
  expectError?: string;
}

const json = (o: Record<string, JsonValue>) => JSON.stringify(o);
const ts = (s: number) => new Date(Date.UTC(2024, 0, 1) + s * 1000).toISOString();
const EVENT_SCHEMA = "id INT, k STRING, ts TIMESTAMP";

/** Events for the windowed cases: `[id, key, seconds]`, one partition unless given. */
function events(list: [number, string, number][], partitions = 1): KafkaRecord[] {
  return list.map(([id, k, s]) => ({ partition: id % partitions, key: k, value: json({ id, k, ts: ts(s) }) }));
}

const WINDOW_EVENTS = events([
  [0, "a", 1],
  [1, "b", 3],
  [2, "a", 12],
  [3, "a", 14],
  [4, "b", 25],
  [5, "a", 4], // late once the watermark passed 10
  [6, "b", 31],
  [7, "a", 33],
  [8, "b", 47],
  [9, "a", 52],
]);

const windowedPy = `df.select(F.from_json(F.col("value").cast("string"), "${EVENT_SCHEMA}").alias("j")).select("j.*").withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds"), "k").count()`;
const windowedArus = (df: Any, F: Any) =>
  df
    .select(F.from_json(F.col("value").cast("string"), EVENT_SCHEMA).alias("j"))
    .select("j.*")
    .withWatermark("ts", "10 seconds")
    .groupBy(F.window("ts", "10 seconds"), "k")
    .count();

/**
 * CreateTimes of the timestamp cases: whole seconds from an hour before the run (recent enough
 * that no retention rule deletes them; both engines read the same produced records).
 */
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
/** Five records a partition, one a second; partition 1's half a second after partition 0's. */
const TIMED = [0, 1].flatMap((p) => [0, 1, 2, 3, 4].map((i) => ({ partition: p, value: `p${p}-${i}`, timestamp: T0 + i * 1000 + p * 500 })));
const timedPy = `df.selectExpr("CAST(value AS STRING) v", "partition", "offset", "timestamp")`;
const timedArus = (df: Any) => df.selectExpr("CAST(value AS STRING) v", "partition", "offset", "timestamp");
const offsetsPy = `df.selectExpr("CAST(value AS STRING) v", "topic", "partition", "offset")`;
const offsetsArus = (df: Any) => df.selectExpr("CAST(value AS STRING) v", "topic", "partition", "offset");

export const KAFKA_CASES: readonly KafkaCaseDef[] = [
  {
    id: "kafka/passthrough-all-columns",
    description:
      "Every column of Spark's Kafka schema (key, value, topic, partition, offset, timestamp set by the producer, timestampType, headers), null keys and a null value, 2 records per batch.",
    partitions: 1,
    records: [
      { partition: 0, key: "k1", value: "v1", headers: [{ key: "h", value: "x" }] },
      { partition: 0, key: null, value: "v2" },
      { partition: 0, key: "k3", value: null },
      {
        partition: 0,
        key: "k4",
        value: "",
        headers: [
          { key: "a", value: "" },
          { key: "b", value: "2" },
        ],
      },
      { partition: 0, key: "", value: "v5" },
    ],
    options: { startingOffsets: "earliest", maxOffsetsPerTrigger: "2", includeHeaders: "true" },
    pyspark: "df",
    arus: (df) => df,
  },
  {
    id: "kafka/multi-partition-split",
    description:
      "Three partitions of uneven length (4, 1, 6 records) with maxOffsetsPerTrigger 4: Spark splits the limit over the partitions in proportion to what each has left.",
    partitions: 3,
    records: [
      ...[0, 1, 2, 3].map((i) => ({ partition: 0, value: `p0-${i}` })),
      { partition: 1, value: "p1-0" },
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ partition: 2, value: `p2-${i}` })),
    ],
    options: { startingOffsets: "earliest", maxOffsetsPerTrigger: "4" },
    pyspark: `df.selectExpr("CAST(value AS STRING) v", "topic", "partition", "offset", "timestamp")`,
    arus: (df) => df.selectExpr("CAST(value AS STRING) v", "topic", "partition", "offset", "timestamp"),
  },
  {
    id: "kafka/starting-offsets-json",
    description:
      "startingOffsets as per-partition JSON: partition 0 from offset 2, partition 1 from earliest (-2), partition 2 from latest (-1, so its records are never read).",
    partitions: 3,
    records: [
      ...[0, 1, 2, 3, 4].map((i) => ({ partition: 0, value: `p0-${i}` })),
      ...[0, 1, 2].map((i) => ({ partition: 1, value: `p1-${i}` })),
      ...[0, 1].map((i) => ({ partition: 2, value: `p2-${i}` })),
    ],
    options: { startingOffsets: '{"$TOPIC":{"0":2,"1":-2,"2":-1}}', maxOffsetsPerTrigger: "3" },
    pyspark: `df.selectExpr("CAST(value AS STRING) v", "partition", "offset")`,
    arus: (df) => df.selectExpr("CAST(value AS STRING) v", "partition", "offset"),
  },
  {
    id: "kafka/from-json-window-append",
    description:
      "from_json of the value, a 10-second watermark and a windowed count per key in append mode, 3 records per batch: windows are emitted once the watermark passes their end; the late record is dropped.",
    partitions: 1,
    records: WINDOW_EVENTS,
    options: { startingOffsets: "earliest", maxOffsetsPerTrigger: "3" },
    outputMode: "append",
    pyspark: windowedPy,
    arus: windowedArus,
  },
  {
    id: "kafka/from-json-window-update",
    description:
      "The same windowed count in update mode over two partitions, 4 records per batch, with one malformed JSON value (from_json gives a struct of NULL fields in PERMISSIVE mode, so its NULL ts falls in no window).",
    partitions: 2,
    records: [
      ...events(
        WINDOW_EVENTS.map((_, i) => [i, i % 3 ? "a" : "b", [1, 3, 12, 14, 25, 4, 31, 33, 47, 52][i]!]),
        2,
      ),
      { partition: 1, value: "{not json" },
    ],
    options: { startingOffsets: "earliest", maxOffsetsPerTrigger: "4" },
    outputMode: "update",
    pyspark: windowedPy,
    arus: windowedArus,
  },
  {
    id: "kafka/min-offsets-per-trigger",
    description:
      "minOffsetsPerTrigger 4 beside maxOffsetsPerTrigger 5 under trigger availableNow, over two partitions (7 and 4 records): the batch boundaries Spark's admission control draws.",
    partitions: 2,
    records: [
      ...[0, 1, 2, 3, 4, 5, 6].map((i) => ({ partition: 0, value: `p0-${i}` })),
      ...[0, 1, 2, 3].map((i) => ({ partition: 1, value: `p1-${i}` })),
    ],
    options: { startingOffsets: "earliest", minOffsetsPerTrigger: "4", maxOffsetsPerTrigger: "5" },
    pyspark: `df.selectExpr("CAST(value AS STRING) v", "partition", "offset")`,
    arus: (df) => df.selectExpr("CAST(value AS STRING) v", "partition", "offset"),
  },
  {
    id: "kafka/starting-offsets-latest",
    description: "startingOffsets latest (the default) with every record produced before the start: nothing is read.",
    partitions: 2,
    records: [0, 1, 2, 3].map((i) => ({ partition: i % 2, value: `v${i}` })),
    options: { maxOffsetsPerTrigger: "2" },
    pyspark: `df.selectExpr("CAST(value AS STRING) v", "partition", "offset")`,
    arus: (df) => df.selectExpr("CAST(value AS STRING) v", "partition", "offset"),
  },
  {
    id: "kafka/from-json-dedup-within-watermark",
    description:
      "from_json of the value, a 10-second watermark and dropDuplicatesWithinWatermark on the key, 3 records per batch: a key's first record passes and keeps the key until the watermark passes its event time plus the delay.",
    partitions: 1,
    records: WINDOW_EVENTS,
    options: { startingOffsets: "earliest", maxOffsetsPerTrigger: "3" },
    pyspark: `df.select(F.from_json(F.col("value").cast("string"), "${EVENT_SCHEMA}").alias("j")).select("j.*").withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"])`,
    arus: (df, F) =>
      df
        .select(F.from_json(F.col("value").cast("string"), EVENT_SCHEMA).alias("j"))
        .select("j.*")
        .withWatermark("ts", "10 seconds")
        .dropDuplicatesWithinWatermark(["k"]),
  },
  {
    id: "kafka/sink-round-trip",
    description:
      "A windowed count written to Kafka as to_json values keyed by the group key, by each engine into its own topic (2 partitions, partition column set): each engine reads back both topics, and Spark's and arus's topics hold the same records.",
    partitions: 1,
    records: WINDOW_EVENTS,
    options: { startingOffsets: "earliest", maxOffsetsPerTrigger: "3" },
    outputMode: "append",
    pyspark: `${windowedPy}.select(F.col("k").cast("binary").alias("key"), F.to_json(F.struct("window", "count")).alias("value"), F.when(F.col("k") == "a", 0).otherwise(1).alias("partition"), F.array(F.struct(F.lit("src").alias("key"), F.lit("conf").cast("binary").alias("value"))).alias("headers"))`,
    arus: (df, F) =>
      windowedArus(df, F).select(
        F.col("k").cast("binary").alias("key"),
        F.to_json(F.struct("window", "count")).alias("value"),
        F.when(F.col("k").equalTo("a"), 0).otherwise(1).alias("partition"),
        F.array(F.struct(F.lit("src").alias("key"), F.lit("conf").cast("binary").alias("value"))).alias("headers"),
      ),
    sink: { partitions: 2 },
  },
  {
    id: "kafka/assign-partitions",
    description:
      "assign as JSON (partitions 0 and 2 of three) instead of subscribe, from earliest, 3 records per batch: partition 1's records are never read, and the offsets name the assigned partitions only.",
    partitions: 3,
    records: [
      ...[0, 1, 2].map((i) => ({ partition: 0, value: `p0-${i}` })),
      ...[0, 1].map((i) => ({ partition: 1, value: `p1-${i}` })),
      ...[0, 1, 2, 3].map((i) => ({ partition: 2, value: `p2-${i}` })),
    ],
    options: { assign: '{"$TOPIC":[0,2]}', startingOffsets: "earliest", maxOffsetsPerTrigger: "3" },
    pyspark: offsetsPy,
    arus: offsetsArus,
  },
  {
    id: "kafka/subscribe-pattern",
    description:
      "subscribePattern, a regular expression that matches the case's topic as a whole (an alternative with a name no topic has), from earliest over two partitions, 2 records per batch.",
    partitions: 2,
    records: [0, 1, 2, 3, 4].map((i) => ({ partition: i % 2, value: `v${i}` })),
    options: { subscribePattern: "no-such-topic|$TOPIC", startingOffsets: "earliest", maxOffsetsPerTrigger: "2" },
    pyspark: offsetsPy,
    arus: offsetsArus,
  },
  {
    id: "kafka/starting-timestamp",
    description:
      "startingTimestamp between two records' CreateTimes (2.5 s after the first of partition 0, 2 s after partition 1's first): each partition starts at its first record at or after it; the timestamp column is the producer's.",
    partitions: 2,
    records: TIMED,
    options: { startingTimestamp: String(T0 + 2500), maxOffsetsPerTrigger: "3" },
    pyspark: timedPy,
    arus: timedArus,
  },
  {
    id: "kafka/starting-offsets-by-timestamp",
    description:
      "startingOffsetsByTimestamp per partition (partition 0 from a CreateTime it has exactly, partition 1 from one between two records), 4 records per batch.",
    partitions: 2,
    records: TIMED,
    options: { startingOffsetsByTimestamp: `{"$TOPIC":{"0":${T0 + 1000},"1":${T0 + 3000}}}`, maxOffsetsPerTrigger: "4" },
    pyspark: timedPy,
    arus: timedArus,
  },
  {
    id: "kafka/starting-timestamp-after-every-record",
    description:
      "startingTimestamp after every record with startingOffsetsByTimestampStrategy latest: each partition starts at its end, so nothing is read.",
    partitions: 2,
    records: TIMED,
    options: { startingTimestamp: String(T0 + 60_000), startingOffsetsByTimestampStrategy: "latest", maxOffsetsPerTrigger: "3" },
    pyspark: timedPy,
    arus: timedArus,
  },
  {
    id: "kafka/starting-timestamp-unmatched-fails",
    description:
      "startingTimestamp after every record with the default strategy (error): the query fails at its start, before a batch.",
    partitions: 1,
    records: TIMED.filter((r) => r.partition === 0),
    options: { startingTimestamp: String(T0 + 60_000), maxOffsetsPerTrigger: "3" },
    pyspark: timedPy,
    arus: timedArus,
    expectError: "No offset matched from request of topic-partition",
  },
];
