/**
 * The Kafka source against a real broker (ARUS_KAFKA_BOOTSTRAP; see kafka-helpers.ts): Spark's
 * schema, offsets JSON in offsets/N, startingOffsets, maxOffsetsPerTrigger split, new
 * partitions, data loss, availableNow/once, progress offsets and metrics, batch reads.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";
import { tempDirs } from "../temp-dirs.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "./kafka-helpers.js";

const tempDir = tempDirs("arus-kafka-");
const bootstrap = kafkaBootstrap() ?? "";
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

function stream(opts: Record<string, string | number | boolean>) {
  return session.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).options(opts).load();
}

/** Runs an availableNow query into a memory table; returns the rows and the query. */
async function runAvailableNow(df: ReturnType<typeof stream>, checkpoint: string, name: string) {
  const q = await df.writeStream
    .format("memory")
    .queryName(name)
    .option("checkpointLocation", checkpoint)
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return q;
}

async function offsetsLog(checkpoint: string): Promise<unknown[]> {
  const dir = path.join(checkpoint, "offsets");
  const files = (await readdir(dir)).filter((f) => /^\d+$/.test(f)).sort((a, b) => Number(a) - Number(b));
  return Promise.all(files.map(async (f) => JSON.parse((await readFile(path.join(dir, f), "utf8")).trim().split("\n")[2]!)));
}

describe("kafka source", kafkaSkip(), () => {
  it("reads Spark's schema with earliest starting offsets and writes Spark's offsets JSON", async () => {
    const topic = await newTopic(bootstrap, 2);
    await produce(bootstrap, topic, [
      { value: "a", key: "k1", partition: 0 },
      { value: "b", partition: 1, headers: [{ key: "h", value: "x" }] },
      { value: "c", partition: 0 },
    ]);
    const df = stream({ subscribe: topic, startingOffsets: "earliest", includeHeaders: true });
    assert.equal(
      simpleString(df.schema),
      "struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,timestampType:int,headers:array<struct<key:string,value:binary>>>",
    );
    const cp = await tempDir();
    const q = await runAvailableNow(
      df.selectExpr("CAST(key AS STRING) k", "CAST(value AS STRING) v", "topic", "partition", "offset", "headers"),
      cp,
      "k1",
    );
    const rows = (await session.sql("SELECT k, v, partition, offset FROM k1 ORDER BY partition, offset").collect()).map((r) => [
      ...Object.values(r),
    ]);
    assert.deepEqual(rows, [
      ["k1", "a", 0, 0],
      [null, "c", 0, 1],
      [null, "b", 1, 0],
    ]);
    assert.deepEqual(await offsetsLog(cp), [{ [topic]: { "0": 2, "1": 1 } }]);
    const p = q.lastProgress!;
    assert.equal(p.sources[0]!.description, `KafkaV2[Subscribe[${topic}]]`);
    assert.deepEqual(p.sources[0]!.endOffset, { [topic]: { "0": 2, "1": 1 } });
    assert.deepEqual(p.sources[0]!.latestOffset, { [topic]: { "0": 2, "1": 1 } });
    assert.deepEqual(p.sources[0]!.metrics, { avgOffsetsBehindLatest: "0.0", maxOffsetsBehindLatest: "0", minOffsetsBehindLatest: "0" });
    const hdr = await session.sql("SELECT headers FROM k1 WHERE v = 'b'").collect();
    const h = (hdr[0] as { headers: { key: string; value: Uint8Array }[] }).headers;
    assert.equal(h[0]!.key, "h");
    assert.equal(Buffer.from(h[0]!.value).toString(), "x");
  });

  it("splits maxOffsetsPerTrigger over partitions as Spark does, and progress trails latest", async () => {
    const topic = await newTopic(bootstrap, 2);
    await produce(bootstrap, topic, [
      ...Array.from({ length: 6 }, (_, i) => ({ value: `p0-${i}`, partition: 0 })),
      ...Array.from({ length: 2 }, (_, i) => ({ value: `p1-${i}`, partition: 1 })),
    ]);
    const cp = await tempDir();
    const q = await runAvailableNow(stream({ subscribe: topic, startingOffsets: "earliest", maxOffsetsPerTrigger: 4 }), cp, "k2");
    // 8 available, limit 4: p0 gets floor(4*6/8)=3, p1 floor(4*2/8)=1; then 3+1 again; then the rest.
    assert.deepEqual(await offsetsLog(cp), [{ [topic]: { "0": 3, "1": 1 } }, { [topic]: { "0": 6, "1": 2 } }]);
    const first = q.recentProgress[0]!;
    assert.deepEqual(first.sources[0]!.latestOffset, { [topic]: { "0": 6, "1": 2 } });
    assert.deepEqual(first.sources[0]!.metrics, {
      avgOffsetsBehindLatest: "2.0",
      maxOffsetsBehindLatest: "3",
      minOffsetsBehindLatest: "1",
    });
    assert.equal(await session.sql("SELECT * FROM k2").count(), 8);
  });

  it("startingOffsets latest and JSON with -2/-1; resumes exactly after a restart; picks up new partitions", async () => {
    const topic = await newTopic(bootstrap, 1);
    await produce(bootstrap, topic, ["old1", "old2"]);
    const cp = await tempDir();
    const df = () =>
      stream({ subscribe: topic, startingOffsets: JSON.stringify({ [topic]: { "0": 1 } }) }).selectExpr("CAST(value AS STRING) v");
    await runAvailableNow(df(), cp, "k3");
    assert.deepEqual(
      (await session.sql("SELECT v FROM k3").collect()).map((r) => r.v),
      ["old2"],
    );
    await produce(bootstrap, topic, ["new1"]);
    const admin = await testClient(bootstrap).admin();
    await admin.addPartitions(topic, 2);
    await admin.close();
    await produce(bootstrap, topic, [{ value: "p1", partition: 1 }]);
    await runAvailableNow(df(), cp, "k3b");
    assert.deepEqual(
      (await session.sql("SELECT v FROM k3b ORDER BY v").collect()).map((r) => r.v),
      ["new1", "p1"],
    );
    const logs = await offsetsLog(cp);
    assert.deepEqual(logs[logs.length - 1], { [topic]: { "0": 3, "1": 1 } });

    const latestTopic = await newTopic(bootstrap, 1);
    await produce(bootstrap, latestTopic, ["before"]);
    const cp2 = await tempDir();
    const dfl = stream({ subscribe: latestTopic }).selectExpr("CAST(value AS STRING) v");
    await runAvailableNow(dfl, cp2, "k3c"); // fixes the start at latest (sources/0/0)
    const initial = await readFile(path.join(cp2, "sources", "0", "0"));
    assert.equal(initial[0], 0);
    assert.equal(initial.subarray(1).toString(), `v1\n{"${latestTopic}":{"0":1}}`);
    await produce(bootstrap, latestTopic, ["after"]);
    await runAvailableNow(dfl, cp2, "k3d");
    assert.deepEqual(
      (await session.sql("SELECT v FROM k3d").collect()).map((r) => r.v),
      ["after"],
    );
  });

  it("subscribePattern and assign", async () => {
    const prefix = `pat${Date.now() % 100000}`;
    const t1 = await newTopic(bootstrap, 1, prefix);
    const t2 = await newTopic(bootstrap, 2, prefix);
    await produce(bootstrap, t1, ["x"]);
    await produce(bootstrap, t2, [
      { value: "y", partition: 1 },
      { value: "z", partition: 0 },
    ]);
    await runAvailableNow(
      stream({ subscribePattern: `${prefix}-.*`, startingOffsets: "earliest" }).selectExpr("CAST(value AS STRING) v"),
      await tempDir(),
      "k4",
    );
    assert.deepEqual(
      (await session.sql("SELECT v FROM k4 ORDER BY v").collect()).map((r) => r.v),
      ["x", "y", "z"],
    );
    const assign = JSON.stringify({ [t2]: [1] });
    await runAvailableNow(stream({ assign, startingOffsets: "earliest" }).selectExpr("CAST(value AS STRING) v"), await tempDir(), "k5");
    assert.deepEqual(
      (await session.sql("SELECT v FROM k5").collect()).map((r) => r.v),
      ["y"],
    );
  });

  it("a running query picks up a partition added and a subscribePattern topic created meanwhile", async () => {
    const prefix = `run${Date.now() % 100000}`;
    const topic = await newTopic(bootstrap, 1, prefix);
    await produce(bootstrap, topic, ["a"]);
    const q = await stream({ subscribePattern: `${prefix}-.*`, startingOffsets: "earliest" })
      .selectExpr("CAST(value AS STRING) v")
      .writeStream.format("memory")
      .queryName("k9")
      .option("checkpointLocation", await tempDir())
      .start();
    const seen = async (want: string[]) => {
      // The partition list is refreshed in the background about once a second (reader.ts).
      for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
        const got = (await session.sql("SELECT v FROM k9 ORDER BY v").collect()).map((r) => r.v as string);
        if (got.length >= want.length) return got;
      }
      return (await session.sql("SELECT v FROM k9 ORDER BY v").collect()).map((r) => r.v as string);
    };
    try {
      assert.deepEqual(await seen(["a"]), ["a"]);
      const admin = await testClient(bootstrap).admin();
      await admin.addPartitions(topic, 2);
      await admin.close();
      await produce(bootstrap, topic, [{ value: "b", partition: 1 }]);
      assert.deepEqual(await seen(["a", "b"]), ["a", "b"]);
      const later = await newTopic(bootstrap, 1, prefix);
      await produce(bootstrap, later, ["c"]);
      assert.deepEqual(await seen(["a", "b", "c"]), ["a", "b", "c"]);
      assert.equal(q.exception, null);
    } finally {
      await q.stop();
    }
  });

  it("fails with Spark's data-loss error when the start offset was deleted, and continues under failOnDataLoss=false", async () => {
    const topic = await newTopic(bootstrap, 1);
    await produce(bootstrap, topic, ["a", "b"]);
    const cp = await tempDir();
    const df = (fail: boolean) =>
      stream({ subscribe: topic, startingOffsets: "earliest", failOnDataLoss: fail }).selectExpr("CAST(value AS STRING) v");
    const q = await df(true).writeStream.format("memory").queryName("k6").option("checkpointLocation", cp).trigger({ once: true }).start();
    await q.awaitTermination();
    await produce(bootstrap, topic, ["c", "d"]);
    const admin = await testClient(bootstrap).admin();
    await admin.deleteRecords({ topic, partition: 0 }, 3);
    await admin.close();
    const q2 = await df(true)
      .writeStream.format("memory")
      .queryName("k6b")
      .option("checkpointLocation", cp)
      .trigger({ availableNow: true })
      .start();
    await assert.rejects(q2.awaitTermination(), /KAFKA_DATA_LOSS/);
    const q3 = await df(false)
      .writeStream.format("memory")
      .queryName("k6c")
      .option("checkpointLocation", cp)
      .trigger({ availableNow: true })
      .start();
    await q3.awaitTermination();
    assert.deepEqual(
      (await session.sql("SELECT v FROM k6c").collect()).map((r) => r.v),
      ["d"],
    );
  });

  it("batch read honours startingOffsets and endingOffsets", async () => {
    const topic = await newTopic(bootstrap, 1);
    await produce(bootstrap, topic, ["a", "b", "c", "d"]);
    const df = session.read
      .format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("subscribe", topic)
      .option("startingOffsets", JSON.stringify({ [topic]: { "0": 1 } }))
      .option("endingOffsets", JSON.stringify({ [topic]: { "0": 3 } }))
      .load();
    assert.deepEqual(
      (await df.selectExpr("CAST(value AS STRING) v").collect()).map((r) => r.v),
      ["b", "c"],
    );
    const all = session.read.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic).load();
    assert.equal(await all.count(), 4);
  });

  it("rejects invalid options with Spark's messages", () => {
    const base = () => session.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap);
    assert.throws(
      () => base().load(),
      /One of the following options must be specified for Kafka source: subscribe, subscribePattern, assign/,
    );
    assert.throws(() => base().option("subscribe", "a").option("assign", '{"a":[0]}').load(), /Only one of the following options/);
    assert.throws(
      () => base().option("subscribe", "a").option("kafka.auto.offset.reset", "earliest").load(),
      /Kafka option 'auto.offset.reset' is not supported/,
    );
    assert.throws(
      () => base().option("subscribe", "a").option("endingOffsets", "latest").load(),
      /ending offset not valid in streaming queries/,
    );
    assert.throws(() => base().option("subscribe", "a").option("startingOffsets", "{bad").load(), /Expected e\.g\. \{"topicA"/);
    assert.throws(() => base().option("subscribe", "a").option("maxOffsetsPerTrigger", "0").load(), /maxOffsetsPerTrigger/);
    assert.throws(() => base().option("subscribe", "a").option("failOnDataLoss", "maybe").load(), /failOnDataLoss/);
    assert.throws(
      () => session.readStream.format("kafka").option("subscribe", "a").load(),
      /Option 'kafka.bootstrap.servers' must be specified/,
    );
    assert.throws(() => base().option("subscribe", "a").schema("x INT").load(), /fixed schema/);
    const batch = () => session.read.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", "a");
    assert.throws(() => batch().option("startingOffsets", "latest").load(), /starting offset can't be latest for batch queries on Kafka/);
    assert.throws(() => batch().option("endingOffsets", "earliest").load(), /ending offset can't be earliest for batch queries on Kafka/);
  });

  it("an unreachable broker fails the query with an error naming the bootstrap servers", async () => {
    const df = session.readStream.format("kafka").option("kafka.bootstrap.servers", "127.0.0.1:1").option("subscribe", "x").load();
    const q = await df.writeStream
      .format("memory")
      .queryName("k7")
      .option("checkpointLocation", await tempDir())
      .trigger({ once: true })
      .start();
    await assert.rejects(q.awaitTermination(), /127\.0\.0\.1:1/);
  });

  it("an unknown topic yields no rows (as Spark, it may appear later)", async () => {
    const topic = `missing-${Date.now()}`;
    const q = await runAvailableNow(stream({ subscribe: topic }), await tempDir(), "k8");
    assert.equal(q.recentProgress.filter((p) => p.numInputRows > 0).length, 0);
  });
});
