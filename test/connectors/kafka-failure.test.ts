/**
 * Bad input and failures of the Kafka connector against a real broker (ARUS_KAFKA_BOOTSTRAP):
 * an unreachable broker, an unknown topic, malformed JSON values under PERMISSIVE and FAILFAST,
 * a record too large for the sink (and a micro-batch larger than the broker's message limit),
 * and Spark's errors for invalid option values. The broker stopped and started mid-query is in
 * kafka-broker-restart.test.ts (it runs a broker of its own).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, readValues } from "./kafka-helpers.js";

const tempDir = tempDirs("arus-kafka-failure-");
const bootstrap = kafkaBootstrap() ?? "";
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const UNREACHABLE = "127.0.0.1:1";

const stream = (servers: string, opts: Record<string, string | number | boolean>) =>
  session.readStream.format("kafka").option("kafka.bootstrap.servers", servers).options(opts).load();

async function runOnce(df: ReturnType<typeof stream>, name: string, checkpoint?: string) {
  const q = await df.writeStream
    .format("memory")
    .queryName(name)
    .option("checkpointLocation", checkpoint ?? (await tempDir()))
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return q;
}

describe("kafka: bad input and failures", kafkaSkip(), () => {
  it("an unreachable broker fails every entry point with an error naming the bootstrap servers", async () => {
    // The bound is the client's: connection timeout (<= 10 s) times its few retries; the test's
    // own timeout is the guard.
    const names = new RegExp(`Kafka at bootstrap servers '${UNREACHABLE.replace(/\./g, "\\.")}' \\(option kafka\\.bootstrap\\.servers\\)`);
    const q = await stream(UNREACHABLE, { subscribe: "t", "fetchOffset.retryIntervalMs": 10 })
      .writeStream.format("memory")
      .queryName("unreachable")
      .option("checkpointLocation", await tempDir())
      .start();
    await assert.rejects(q.awaitTermination(), names);
    assert.equal(q.isActive, false);
    await assert.rejects(
      session.read.format("kafka").option("kafka.bootstrap.servers", UNREACHABLE).option("subscribe", "t").load().collect(),
      names,
    );
    const out = session.createDataFrame([{ value: "x" }], "value STRING");
    await assert.rejects(out.write.format("kafka").option("kafka.bootstrap.servers", UNREACHABLE).option("topic", "t").save(), names);
    const host = "no-such-host.invalid:9092";
    await assert.rejects(
      session.read.format("kafka").option("kafka.bootstrap.servers", host).option("subscribe", "t").load().collect(),
      /Kafka at bootstrap servers 'no-such-host\.invalid:9092'/,
    );
  });

  it("an unknown topic reads as empty, in a stream and in a batch (as Spark: it may appear later)", async () => {
    const topic = `missing-${Date.now()}`;
    const q = await runOnce(stream(bootstrap, { subscribe: topic, startingOffsets: "earliest" }), "unknown_topic");
    assert.equal(q.exception, null);
    assert.equal(await session.table("unknown_topic").count(), 0);
    const batch = session.read.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic).load();
    assert.equal(await batch.count(), 0);
  });

  it("from_json of a malformed value: fields null under PERMISSIVE; FAILFAST names topic, partition and offset", async () => {
    const topic = await newTopic(bootstrap, 2);
    await produce(bootstrap, topic, [
      { value: '{"id":1,"name":"a"}', partition: 0 },
      { value: '{"id":2,"name":"b"}', partition: 1 },
      { value: '{"id":3,"name":', partition: 1 },
      { value: '{"id":4,"name":"d"}', partition: 1 },
    ]);
    const parsed = (mode: string | null) =>
      stream(bootstrap, { subscribe: topic, startingOffsets: "earliest" }).select(
        F.col("partition"),
        F.col("offset"),
        F.from_json(F.col("value").cast("string"), "id INT, name STRING", mode ? { mode } : {}).alias("j"),
      );
    await runOnce(parsed(null).select("partition", "offset", "j.id", "j.name"), "permissive");
    const rows = (await session.sql("SELECT * FROM permissive ORDER BY partition, offset").collect()).map((r) => Object.values(r));
    assert.deepEqual(rows, [
      [0, 0, 1, "a"],
      [1, 0, 2, "b"],
      [1, 1, null, null],
      [1, 2, 4, "d"],
    ]);
    const q = await parsed("FAILFAST")
      .writeStream.format("memory")
      .queryName("failfast")
      .option("checkpointLocation", await tempDir())
      .trigger({ availableNow: true })
      .start();
    await assert.rejects(q.awaitTermination(), (e: Error) => {
      assert.match(e.message, /MALFORMED_RECORD_IN_PARSING/);
      assert.match(e.message, /Parse Mode: FAILFAST/);
      assert.match(e.message, new RegExp(`topic ${topic}, partition 1, offset 1\\b`));
      return true;
    });
  });

  it("a record too large for the sink fails its batch with Kafka's message; the committed batches stay, exactly once", async () => {
    const input = await newTopic(bootstrap, 1);
    const out = await newTopic(bootstrap, 1);
    await produce(bootstrap, input, ["small-1", "small-2"]);
    const cp = await tempDir();
    const run = () =>
      stream(bootstrap, { subscribe: input, startingOffsets: "earliest" })
        .selectExpr("CAST(value AS STRING) AS v")
        .selectExpr("CASE WHEN v = 'big' THEN lpad('', 2000000, 'x') ELSE v END AS value")
        .writeStream.format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", out)
        .option("arus.exactlyOnce", true)
        .option("checkpointLocation", cp)
        .trigger({ availableNow: true })
        .start();
    await (await run()).awaitTermination();
    await produce(bootstrap, input, ["small-3", "big"]);
    const q = await run();
    await assert.rejects(
      q.awaitTermination(),
      /The message is 2000\d{3} bytes when serialized which is larger than 1048576, which is the value of the max\.request\.size configuration/,
    );
    assert.deepEqual(await readValues(bootstrap, out, true), ["small-1", "small-2"]);
    assert.ok(existsSync(path.join(cp, "commits", "0")));
    assert.ok(!existsSync(path.join(cp, "commits", "1")), "the failed batch is not committed");
    const batch = session.createDataFrame([{ value: "x".repeat(1_100_000) }], "value STRING");
    await assert.rejects(
      batch.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out).save(),
      /The message is 1100\d{3} bytes when serialized which is larger than 1048576/,
    );
  });

  it("a record for a partition the topic does not have is an error, not a silent loss", async () => {
    const out = await newTopic(bootstrap, 1);
    const df = session.createDataFrame(
      [
        { value: "p0", partition: 0 },
        { value: "p1", partition: 1 },
      ],
      "value STRING, partition INT",
    );
    await assert.rejects(
      df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out).save(),
      new RegExp(`Partition 1 of topic ${out} is not present in metadata`),
    );
    const input = await newTopic(bootstrap, 1);
    await produce(bootstrap, input, ["x"]);
    const q = await stream(bootstrap, { subscribe: input, startingOffsets: "earliest" })
      .selectExpr("value", "1 AS partition")
      .writeStream.format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("topic", out)
      .option("arus.exactlyOnce", true)
      .option("checkpointLocation", await tempDir())
      .trigger({ availableNow: true })
      .start();
    await assert.rejects(q.awaitTermination(), /Partition 1 of topic .* is not present in metadata/);
    assert.deepEqual(await readValues(bootstrap, out, true), ["p0"]);
  });

  it("a micro-batch larger than the broker's message limit is sent in chunks", async () => {
    const out = await newTopic(bootstrap, 1);
    const pad = "x".repeat(100);
    const df = session.range(0, 15_000).select(F.concat(F.col("id").cast("string"), F.lit(pad)).alias("value"));
    await df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out).save();
    const got = await readValues(bootstrap, out);
    assert.equal(got.length, 15_000);
    assert.equal(got[14_999], `14999${pad}`);
  });

  it("invalid option values give Spark's errors", async () => {
    const base = () => session.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", "t");
    const batch = () => session.read.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", "t");
    assert.throws(
      () => base().option("kafka.auto.offset.reset", "earliest").load(),
      (e: Error) =>
        e.message.startsWith("\nKafka option 'auto.offset.reset' is not supported.\nInstead set the source option 'startingoffsets'"),
    );
    assert.throws(() => base().option("kafka.enable.auto.commit", "true").load(), {
      message: "Kafka option 'enable.auto.commit' is not supported",
    });
    assert.throws(() => base().option("startingOffsets", "garbage").load(), {
      message: 'Expected e.g. {"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}, got garbage',
    });
    assert.throws(() => base().option("startingTimestamp", "soon").load(), { message: "Expected a single long value, got soon" });
    assert.throws(() => base().option("minOffsetsPerTrigger", 10).option("maxOffsetsPerTrigger", 5).load(), {
      message: "The value of minOffsetPerTrigger(10) is higher than the maxOffsetsPerTrigger(5).",
    });
    // Spark accepts a negative maxOffsetsPerTrigger and then moves offsets backwards; arus refuses it.
    assert.throws(() => base().option("maxOffsetsPerTrigger", -1).load(), /Invalid value '-1' for Kafka option 'maxOffsetsPerTrigger'/);
    assert.throws(() => session.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("assign", "t:0").load(), {
      message: "No topicpartitions to assign as specified value for option 'assign' is 't:0'",
    });
    assert.throws(() => base().option("endingOffsetsByTimestamp", '{"t":{"0":1}}').load(), {
      message: "ending timestamp not valid in streaming queries",
    });
    assert.throws(() => base().option("minPartitions", 0).load(), { message: "minPartitions must be positive" });
    assert.throws(() => batch().option("endingOffsets", '{"t":{"0":-2}}').load(), {
      message: "ending offset for t-0 can't be earliest for batch queries on Kafka",
    });
    assert.throws(() => batch().option("startingOffsets", '{"t":{"0":-1}}').load(), {
      message: "startingOffsets for t-0 can't be latest for batch queries on Kafka",
    });
    const sink = () =>
      session
        .createDataFrame([{ value: "x" }], "value STRING")
        .write.format("kafka")
        .option("kafka.bootstrap.servers", bootstrap);
    await Promise.all([
      assert.rejects(sink().option("kafka.key.serializer", "x").option("topic", "t").save(), {
        message: "Kafka option 'key.serializer' is not supported as keys are serialized with ByteArraySerializer.",
      }),
      assert.rejects(sink().option("kafka.value.serializer", "x").option("topic", "t").save(), {
        message: "Kafka option 'value.serializer' is not supported as value are serialized with ByteArraySerializer.",
      }),
    ]);
  });
});
