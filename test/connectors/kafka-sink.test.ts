/**
 * The Kafka sink against a real broker: Spark's columns and errors, at-least-once by default,
 * and the exactly-once mode (arus.exactlyOnce): a replayed batch is not visible twice to a
 * read_committed reader, and a second producer with the same transactional id fences the first.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, readValues, testClient } from "./kafka-helpers.js";

const tempDir = tempDirs("arus-kafka-sink-");
const bootstrap = kafkaBootstrap() ?? "";
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

function source(topic: string) {
  return session.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("subscribe", topic)
    .option("startingOffsets", "earliest")
    .load();
}

describe("kafka sink", kafkaSkip(), () => {
  it("writes value, key, headers and partition; the topic from a column or the option", async () => {
    const input = await newTopic(bootstrap, 1);
    const out = await newTopic(bootstrap, 2);
    await produce(bootstrap, input, [{ value: "a", key: "k" }, "b"]);
    const q = await source(input)
      .selectExpr("key", "upper(CAST(value AS STRING)) AS value", `'${out}' AS topic`, "1 AS partition")
      .writeStream.format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("checkpointLocation", await tempDir())
      .trigger({ availableNow: true })
      .start();
    await q.awaitTermination();
    assert.deepEqual(await readValues(bootstrap, out), ["A", "B"]);
    const client = testClient(bootstrap);
    const f = await client.fetcher();
    const recs = await f.fetch({ topic: out, partition: 1 }, 0, 2);
    await f.close();
    assert.equal(Buffer.from(recs[0]!.key!).toString(), "k");
    assert.equal(recs[1]!.key, null);
    assert.equal(q.lastProgress!.sink.numOutputRows, 2);

    const out2 = await newTopic(bootstrap, 1);
    const df = session.createDataFrame([{ value: "x", topic: "ignored-by-option" }], "value STRING, topic STRING");
    await df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out2).save();
    assert.deepEqual(await readValues(bootstrap, out2), ["x"]);
  });

  it("writes headers in order, a null header value as Kafka's null (as Spark's sink)", async () => {
    const out = await newTopic(bootstrap, 1);
    const df = session.createDataFrame(
      [
        {
          value: "a",
          headers: [
            { key: "n", value: null },
            { key: "h", value: Buffer.from("x") },
            { key: "n", value: Buffer.from("y") },
          ],
        },
        { value: "b", headers: [{ key: "n", value: null }] },
      ],
      "value STRING, headers ARRAY<STRUCT<key: STRING, value: BINARY>>",
    );
    await df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out).save();
    const f = await testClient(bootstrap).fetcher();
    const recs = await f.fetch({ topic: out, partition: 0 }, 0, 2);
    await f.close();
    const text = (hs: readonly { key: string; value: Uint8Array | null }[]) =>
      hs.map((h) => `${h.key}=${h.value === null ? "null" : Buffer.from(h.value).toString()}`);
    assert.deepEqual(text(recs[0]!.headers), ["n=null", "h=x", "n=y"]); // in order, a repeated key too
    assert.deepEqual(text(recs[1]!.headers), ["n=null"]);
  });

  it("raises Spark's errors for a missing value or topic and wrong types", async () => {
    const w = (ddl: string, row: Record<string, unknown>) =>
      session.createDataFrame([row], ddl).write.format("kafka").option("kafka.bootstrap.servers", bootstrap);
    await assert.rejects(w("key STRING, topic STRING", { key: "a", topic: "t" }).save(), /Required attribute 'value' not found/);
    await assert.rejects(w("value STRING", { value: "a" }).save(), /topic option required when no 'topic' attribute is present/);
    await assert.rejects(w("value INT, topic STRING", { value: 1, topic: "t" }).save(), /value attribute type must be a string or binary/);
    await assert.rejects(w("value STRING, topic STRING", { value: "a", topic: null }).save(), /null topic present in the data/);
    await assert.rejects(
      w("value STRING, topic STRING", { value: "a", topic: "t" }).mode("overwrite").save(),
      /Save mode overwrite not allowed for Kafka/,
    );
    const input = await newTopic(bootstrap, 1);
    await assert.rejects(
      source(input).selectExpr("key").writeStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", "x").start(),
      /Required attribute 'value' not found/,
    );
  });

  it("exactly-once: a batch replayed after its transaction committed is not written again", async () => {
    const input = await newTopic(bootstrap, 1);
    const out = await newTopic(bootstrap, 1);
    await produce(bootstrap, input, ["1", "2", "3"]);
    const cp = await tempDir();
    const run = async () => {
      const q = await source(input)
        .selectExpr("value")
        .writeStream.format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", out)
        .option("arus.exactlyOnce", true)
        .option("checkpointLocation", cp)
        .trigger({ availableNow: true })
        .start();
      await q.awaitTermination();
    };
    await run();
    // Lose the commit log entry: the restart replays batch 0, whose transaction is committed.
    await rm(path.join(cp, "commits", "0"));
    await run();
    await produce(bootstrap, input, ["4"]);
    await run();
    assert.deepEqual(await readValues(bootstrap, out, true), ["1", "2", "3", "4"]);
  });

  it("exactly-once: a second producer with the same transactional id fences the first", async () => {
    const out = await newTopic(bootstrap, 1);
    const client = testClient(bootstrap);
    const a = await client.transactionalProducer("arus-fence-test", 60000);
    const rec = (v: string) => ({ topic: out, partition: 0, key: null, value: Buffer.from(v), headers: [] });
    await a.sendInTransaction([rec("a1")], { groupId: "fence-g", tp: { topic: out, partition: 0 }, offset: 1 });
    const b = await client.transactionalProducer("arus-fence-test", 60000);
    await assert.rejects(a.sendInTransaction([rec("zombie")], { groupId: "fence-g", tp: { topic: out, partition: 0 }, offset: 2 }));
    await b.sendInTransaction([rec("b1")], { groupId: "fence-g", tp: { topic: out, partition: 0 }, offset: 2 });
    await Promise.allSettled([a.close(), b.close()]);
    assert.deepEqual(await readValues(bootstrap, out, true), ["a1", "b1"]);
  });
});
