/**
 * The Kafka source wakes an idle query when records arrive (StreamSource.onDataAvailable, through
 * a Fetch that waits on the broker). The query runs on a ManualClock that never moves, so its
 * polling wait can only end through a wake-up: without one the test would never finish (the
 * per-test timeout turns that into a failure). Against the real broker (kafka-helpers.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IDLE_WATCH_MS } from "../../src/connectors/kafka/source.js";
import { Session } from "../../src/index.js";
import { ManualClock } from "../../src/testing/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce } from "./kafka-helpers.js";

const bootstrap = kafkaBootstrap() ?? "";
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("kafka source: idle wake-up", () => {
  it("an idle query starts its next batch when records arrive, one batch per arrival", { ...kafkaSkip(), timeout: 60_000 }, async () => {
    const topic = await newTopic(bootstrap, 2);
    const clock = new ManualClock(0);
    const seen: { id: number; values: string[] }[] = [];
    let delivered: () => void = () => {};
    const q = await session.readStream
      .format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("subscribe", topic)
      .option("startingOffsets", "earliest")
      .load()
      .selectExpr("CAST(value AS STRING) AS v")
      .writeStream.withClock(clock)
      .foreachBatch(async (df, id) => {
        seen.push({ id, values: (await df.collect()).map((r) => String(r.v)).sort() });
        delivered();
      })
      .start();
    try {
      await q.processAllAvailable(); // idle: the polling wait never ends by itself
      const arrivals: { value: string; partition: number }[][] = [
        [{ value: "a", partition: 0 }],
        [{ value: "b", partition: 1 }],
        [
          { value: "c", partition: 0 },
          { value: "d", partition: 1 },
        ],
      ];
      for (const records of arrivals) {
        const next = new Promise<void>((r) => {
          delivered = r;
        });
        // Longer than one watch: the records come after a watch that found nothing.
        await new Promise((r) => setTimeout(r, 3 * IDLE_WATCH_MS));
        await produce(bootstrap, topic, records);
        await next;
      }
      // batch 0 is the start's own, with no rows (the initial offsets are an offset, as in Spark)
      assert.deepEqual(seen, [
        { id: 0, values: [] },
        { id: 1, values: ["a"] },
        { id: 2, values: ["b"] },
        { id: 3, values: ["c", "d"] },
      ]);
      assert.equal(clock.now(), 0, "no batch needed the clock to move");
    } finally {
      await q.stop();
    }
  });
});
