/**
 * The broker stopped mid-query and started again, on a broker of this test's own (a fresh
 * scripts/kafka.sh cluster in a temp ARUS_KAFKA_DIR, stopped at the end; the shared broker is
 * never stopped). A Kafka → Kafka query with the exactly-once sink:
 *   1. with fetchOffset.numRetries high enough to outlast the outage, the query keeps retrying
 *      its offset look-ups and continues once the broker is back;
 *   2. with Spark's default retries (3 × 1 s), it fails with an error naming the bootstrap
 *      servers; restarted from its checkpoint after the broker is back, it resumes exactly.
 * At the end the output read with read_committed holds every input record exactly once, and
 * every batch in offsets/ is committed. Slow (a broker start and two restarts: 1-3 minutes here);
 * runs when a broker is configured (it needs the same Java and cached jars).
 */
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";
import { kafkaSkip, newTopic, produce, readValues } from "./kafka-helpers.js";
import { privateBroker } from "./private-broker.js";

const tempDir = tempDirs("arus-kafka-restart-");
const kafkaSh = privateBroker(tempDir);

describe("kafka: the broker stopped and started again mid-query", kafkaSkip(), () => {
  it("retries then continues, or fails clearly and resumes exactly from its checkpoint", { timeout: 600_000 }, async () => {
    const bootstrap = await kafkaSh("start");
    const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
    const input = await newTopic(bootstrap, 2, "restart-in");
    const output = await newTopic(bootstrap, 1, "restart-out");
    const checkpoint = path.join(await tempDir(), "ckpt");
    const expected: string[] = [];
    const addInput = async (n: number) => {
      const recs = Array.from({ length: n }, () => {
        const v = String(expected.length);
        expected.push(v);
        return { value: v, partition: Number(v) % 2 };
      });
      await produce(bootstrap, input, recs);
    };
    const start = (retries: Record<string, number>) =>
      session.readStream
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", input)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", 7)
        .options(retries)
        .load()
        .selectExpr("value")
        .writeStream.format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", output)
        .option("arus.exactlyOnce", true)
        .option("checkpointLocation", checkpoint)
        .trigger({ processingTime: "300 milliseconds" })
        .start();

    // 1. An outage shorter than the retries: the query waits it out and continues.
    await addInput(20);
    const q1 = await start({ "fetchOffset.numRetries": 400, "fetchOffset.retryIntervalMs": 500 });
    await q1.processAllAvailable();
    await kafkaSh("stop");
    await kafkaSh("restart");
    await addInput(20);
    await q1.processAllAvailable();
    assert.equal(q1.isActive, true, `the query stopped: ${q1.exception?.message}`);
    await q1.stop();
    assert.deepEqual([...(await readValues(bootstrap, output, true))].sort(), [...expected].sort());

    // 2. An outage longer than Spark's default retries: a clear error, then an exact resume.
    const q2 = await start({});
    await q2.processAllAvailable();
    await kafkaSh("stop");
    await assert.rejects(q2.awaitTermination(), new RegExp(`Kafka at bootstrap servers '${bootstrap.replace(/\./g, "\\.")}'`));
    await kafkaSh("restart");
    await addInput(20);
    const q3 = await start({});
    await q3.processAllAvailable();
    await q3.stop();
    const got = await readValues(bootstrap, output, true);
    assert.equal(got.length - new Set(got).size, 0, "duplicated records");
    assert.deepEqual([...got].sort(), [...expected].sort());
    const ids = async (d: string) => (await readdir(path.join(checkpoint, d))).filter((f) => /^\d+$/.test(f)).sort();
    assert.deepEqual(await ids("commits"), await ids("offsets"), "every planned batch is committed");
    await session.stop();
  });
});
