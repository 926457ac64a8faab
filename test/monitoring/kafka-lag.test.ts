/**
 * Source lag from a real Kafka broker (ARUS_KAFKA_BOOTSTRAP; skipped without one, required on
 * CI): maxOffsetsPerTrigger leaves offsets behind the latest, the sourceLag rule fires on the
 * bound and resolves once the query caught up, and /metrics exports the lag in offsets, for
 * the source and per partition (arus_kafka_partition_lag).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, describe, it } from "node:test";
import { prometheusMetrics, type QueryAlertEvent, Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce } from "../connectors/kafka-helpers.js";
import { tempDirs } from "../temp-dirs.js";

const tempDir = tempDirs("arus-kafka-lag-");
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (
  text: string,
) => { name: string; metrics: { value?: string; labels?: Record<string, string> }[] }[];

/** arus_kafka_partition_lag of one query in a /metrics text: partition → lag. */
function partitionLags(text: string, queryName: string): Record<string, number> {
  const family = parse(text).find((f) => f.name === "arus_kafka_partition_lag");
  const out: Record<string, number> = {};
  for (const m of family?.metrics ?? []) if (m.labels?.query_name === queryName) out[m.labels.partition!] = Number(m.value);
  return out;
}
const bootstrap = kafkaBootstrap() ?? "";

describe("Kafka source lag", kafkaSkip(), () => {
  const session = new Session({
    "spark.app.name": "kafka-lag",
    "spark.ui.enabled": "false",
    "arus.monitoring.query.kafka_lag.alerts.sourceLag.max": "3",
    "arus.monitoring.query.kafka_lag.alerts.sourceLag.resolveBatches": "1",
  });
  after(() => session.stop());

  it("fires sourceLag while the query trails the topic's end and resolves when it caught up", async () => {
    const topic = await newTopic(bootstrap, 1, "monitoring-lag");
    await produce(
      bootstrap,
      topic,
      Array.from({ length: 8 }, (_, i) => `m${i}`),
    );
    const alerts: QueryAlertEvent[] = [];
    session.streams.addListener({ onQueryAlert: (e) => alerts.push(e) });
    const q = await session.readStream
      .format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("subscribe", topic)
      .option("startingOffsets", "earliest")
      .option("maxOffsetsPerTrigger", 2)
      .load()
      .writeStream.format("memory")
      .queryName("kafka_lag")
      .option("checkpointLocation", await tempDir())
      .trigger({ availableNow: true })
      .start();
    await q.awaitTermination();
    const lags = q.recentProgress.filter((p) => p.numInputRows > 0).map((p) => Number(p.sources[0]!.metrics!.maxOffsetsBehindLatest));
    assert.deepEqual(lags, [6, 4, 2, 0]);
    assert.deepEqual(
      alerts.map((a) => [a.alert, a.subject, a.state, a.value]),
      [
        ["sourceLag", "source[0]", "firing", 6],
        ["sourceLag", "source[0]", "resolved", 2],
      ],
    );
    assert.match(await prometheusMetrics(session), /arus_streaming_source_lag\{[^}]*query_name="kafka_lag"[^}]*unit="offsets"\} 0/);
  });

  it("exports each partition's lag, going down to 0 as the batches catch up (arus_kafka_partition_lag)", async () => {
    const topic = await newTopic(bootstrap, 2, "monitoring-partition-lag");
    // 6 records in each partition; maxOffsetsPerTrigger 4 reads 2 of each per batch (Spark's rateLimit prorates)
    await produce(
      bootstrap,
      topic,
      Array.from({ length: 12 }, (_, i) => ({ value: `m${i}`, partition: i % 2 })),
    );
    // The monitor's listener (attached with the session) saw the entry first; /metrics is read
    // before the next batch's broker round trips can deliver another.
    const texts: Promise<string>[] = [];
    const listener = {
      onQueryProgress: (e: { progress: { name: string | null; numInputRows: number } }) => {
        if (e.progress.name === "partition_lag" && e.progress.numInputRows > 0) texts.push(prometheusMetrics(session));
      },
    };
    session.streams.addListener(listener);
    try {
      const q = await session.readStream
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", 4)
        .load()
        .writeStream.format("memory")
        .queryName("partition_lag")
        .option("checkpointLocation", await tempDir())
        .trigger({ availableNow: true })
        .start();
      await q.awaitTermination();
      const batches = q.recentProgress.filter((p) => p.numInputRows > 0);
      // progress: each partition's batch end and latest offset, as Spark's Kafka source reports them
      assert.deepEqual(
        batches.map((p) => [p.sources[0]!.endOffset, p.sources[0]!.latestOffset]),
        [2, 4, 6].map((end) => [{ [topic]: { "0": end, "1": end } }, { [topic]: { "0": 6, "1": 6 } }]),
      );
      assert.deepEqual(
        batches.map((p) => p.sources[0]!.metrics),
        [4, 2, 0].map((n) => ({ avgOffsetsBehindLatest: `${n}.0`, maxOffsetsBehindLatest: `${n}`, minOffsetsBehindLatest: `${n}` })),
      );
      const seen = (await Promise.all(texts)).map((t) => partitionLags(t, "partition_lag"));
      assert.deepEqual(seen, [
        { "0": 4, "1": 4 },
        { "0": 2, "1": 2 },
        { "0": 0, "1": 0 },
      ]);
      assert.doesNotMatch(await prometheusMetrics(session), /arus_kafka_partition_lag\{[^}]*worker=/, "no worker label outside group mode");
    } finally {
      session.streams.removeListener(listener);
    }
  });
});
