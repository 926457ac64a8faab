/**
 * Source lag from a real Kafka broker (ARUS_KAFKA_BOOTSTRAP; skipped without one, required on
 * CI): maxOffsetsPerTrigger leaves offsets behind the latest, the sourceLag rule fires on the
 * bound and resolves once the query caught up, and /metrics exports the lag in offsets.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { prometheusMetrics, type QueryAlertEvent, Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce } from "../connectors/kafka-helpers.js";
import { tempDirs } from "../temp-dirs.js";

const tempDir = tempDirs("arus-kafka-lag-");
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
});
