/**
 * The Kafka source's latest offsets from its own Fetch answers (arus.latestOffsetsFromFetch,
 * src/connectors/kafka/latest-from-fetch.ts): a running query sends no ListOffsets request per
 * trigger, yet reads every record exactly once, never past what read_committed may see, holds
 * minOffsetsPerTrigger back as before, fails on a deleted topic; Trigger.Once and AvailableNow
 * still ask the broker. Requests counted on the wire against the real broker (kafka-helpers.ts).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { Kafka, logLevel } from "kafkajs";
import { Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "./kafka-helpers.js";

const require = createRequire(import.meta.url);
const Connection = require("kafkajs/src/network/connection.js");

/** Requests kafkajs sent, by API name, since the last reset (every client of this process). */
const sent = new Map<string, number>();
const send = Connection.prototype.send;
Connection.prototype.send = function (this: unknown, p: { request: { apiName: string } }) {
  sent.set(p.request.apiName, (sent.get(p.request.apiName) ?? 0) + 1);
  return send.call(this, p);
};
const listOffsets = () => sent.get("ListOffsets") ?? 0;

const tempDir = tempDirs("arus-kafka-lff-");
const bootstrap = kafkaBootstrap() ?? "";
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stream(opts: Record<string, string | number | boolean>) {
  return session.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).options(opts).load();
}

/** A query collecting every value it reads, and the batches that had rows. */
async function collecting(opts: Record<string, string | number | boolean>) {
  const values: string[] = [];
  let batches = 0;
  const q = await stream(opts)
    .selectExpr("CAST(value AS STRING) AS v")
    .writeStream.option("checkpointLocation", await tempDir())
    .foreachBatch(async (df) => {
      const rows = await df.collect();
      if (rows.length) batches++;
      for (const r of rows) values.push(String(r.v));
    })
    .start();
  const until = async (n: number, ms = 30_000) => {
    for (const end = Date.now() + ms; values.length < n && Date.now() < end; ) await sleep(20);
    return values;
  };
  return { q, values, batches: () => batches, until };
}

/** Produces `rounds` records per partition, one round every `gapMs`, over one producer; the values. */
async function produceWhileRunning(topic: string, partitions: number, rounds: number, gapMs: number): Promise<string[]> {
  const p = await testClient(bootstrap).producer();
  const all: string[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const recs = Array.from({ length: partitions }, (_, partition) => ({
        topic,
        partition,
        key: null,
        value: Buffer.from(`${r}-${partition}`),
        headers: [],
      }));
      await p.send(recs);
      all.push(...recs.map((x) => x.value.toString()));
      await sleep(gapMs);
    }
  } finally {
    await p.close();
  }
  return all;
}

describe("kafka source: latest offsets from the Fetch answers", kafkaSkip(), () => {
  for (const fromFetch of [true, false]) {
    it(`arus.latestOffsetsFromFetch=${fromFetch}: records produced while the query runs arrive exactly once; ListOffsets ${fromFetch ? "only at the start" : "every trigger"}`, async () => {
      const topic = await newTopic(bootstrap, 2);
      await produce(bootstrap, topic, [{ value: "before", partition: 1 }]);
      const { q, values, batches, until } = await collecting({
        subscribe: topic,
        startingOffsets: "earliest",
        "arus.latestOffsetsFromFetch": fromFetch,
      });
      try {
        await until(1);
        sent.clear();
        const before = batches();
        const expected = ["before", ...(await produceWhileRunning(topic, 2, 40, 15))];
        await until(expected.length);
        const busy = { listOffsets: listOffsets(), batches: batches() - before };
        // Idle: the query polls every 10 ms (spark.sql.streaming.pollingDelay) while a watch waits on the broker.
        sent.clear();
        await sleep(600);
        const idleListOffsets = listOffsets();
        assert.equal(q.exception, null);
        assert.deepEqual([...values].sort(), [...expected].sort(), "every record once");
        assert.ok(busy.batches >= 5, `batches while producing: ${busy.batches}`);
        if (fromFetch) {
          assert.ok(busy.listOffsets <= Math.max(2, busy.batches / 5), `ListOffsets ${busy.listOffsets} for ${busy.batches} batches`);
          assert.equal(idleListOffsets, 0, "an idle query asks nothing but its watch");
        } else {
          assert.ok(busy.listOffsets >= busy.batches, `ListOffsets ${busy.listOffsets} for ${busy.batches} batches`);
          assert.ok(idleListOffsets >= 10, `ListOffsets while idle: ${idleListOffsets}`);
        }
        // The progress reports the batch's end as the latest offsets, nothing behind.
        const p = q.lastProgress!;
        assert.deepEqual(p.sources[0]!.latestOffset, { [topic]: { "0": 40, "1": 41 } });
      } finally {
        await q.stop();
      }
    });
  }

  // A batch planned past the last stable offset would wait for records read_committed never
  // shows (a hang until the fetch gives up): the timeout makes that a failure.
  it("read_committed: never reads past the last stable offset (an open transaction holds its partition back)", {
    timeout: 60_000,
  }, async () => {
    const topic = await newTopic(bootstrap, 2);
    const { q, values, until } = await collecting({
      subscribe: topic,
      startingOffsets: "earliest",
      "kafka.isolation.level": "read_committed",
    });
    const kafka = new Kafka({ brokers: [bootstrap], clientId: "arus-test-txn", logLevel: logLevel.NOTHING });
    const txnProducer = kafka.producer({ transactionalId: `lff-${topic}`, idempotent: true, maxInFlightRequests: 1 });
    await txnProducer.connect();
    try {
      await produce(bootstrap, topic, [{ value: "c0", partition: 1 }]);
      await until(1);
      const txn = await txnProducer.transaction();
      await txn.send({
        topic,
        messages: [
          { value: "t1", partition: 0 },
          { value: "t2", partition: 0 },
        ],
      });
      // Past the open transaction on partition 0 (its high watermark moves, its last stable offset does not).
      await produce(bootstrap, topic, [
        { value: "u1", partition: 0 },
        { value: "c1", partition: 1 },
      ]);
      await until(2);
      await sleep(500);
      assert.deepEqual([...values].sort(), ["c0", "c1"]);
      const progress = q.lastProgress!.sources[0]!;
      assert.deepEqual(progress.endOffset, { [topic]: { "0": 0, "1": 2 } });
      assert.deepEqual(progress.latestOffset, { [topic]: { "0": 0, "1": 2 } });
      await txn.commit();
      await until(5);
      await sleep(300);
      assert.equal(q.exception, null);
      assert.deepEqual([...values].sort(), ["c0", "c1", "t1", "t2", "u1"]);
    } finally {
      await q.stop();
      await txnProducer.disconnect();
    }
  });

  it("maxOffsetsPerTrigger splits a backlog as before; progress latestOffset and the offsets-behind metrics from the Fetch answers", async () => {
    const topic = await newTopic(bootstrap, 2);
    await produce(
      bootstrap,
      topic,
      Array.from({ length: 12 }, (_, i) => ({ value: `m${i}`, partition: i % 2 })),
    );
    const { q, until } = await collecting({ subscribe: topic, startingOffsets: "earliest", maxOffsetsPerTrigger: 4 });
    try {
      assert.equal((await until(12)).length, 12);
      await q.processAllAvailable(); // the last batch's progress is reported after its commit
      const batches = q.recentProgress.filter((p) => p.numInputRows > 0);
      assert.deepEqual(
        batches.map((p) => [p.sources[0]!.endOffset, p.sources[0]!.latestOffset]),
        [2, 4, 6].map((end) => [{ [topic]: { "0": end, "1": end } }, { [topic]: { "0": 6, "1": 6 } }]),
      );
      assert.deepEqual(
        batches.map((p) => p.sources[0]!.metrics),
        [4, 2, 0].map((n) => ({ avgOffsetsBehindLatest: `${n}.0`, maxOffsetsBehindLatest: `${n}`, minOffsetsBehindLatest: `${n}` })),
      );
    } finally {
      await q.stop();
    }
  });

  it("minOffsetsPerTrigger still holds a batch back until enough records are there", async () => {
    const topic = await newTopic(bootstrap, 1);
    const { q, values, until } = await collecting({ subscribe: topic, startingOffsets: "earliest", minOffsetsPerTrigger: 5 });
    try {
      await q.processAllAvailable(); // the first trigger (which never delays: Spark's delayBatch) has run
      await produce(bootstrap, topic, ["a", "b", "c"]);
      await sleep(700);
      assert.deepEqual(values, [], "3 records < minOffsetsPerTrigger 5");
      await produce(bootstrap, topic, ["d", "e"]);
      assert.deepEqual(await until(5), ["a", "b", "c", "d", "e"]);
      await q.processAllAvailable(); // the batch's progress is reported after its commit, after the sink saw its rows
      assert.equal(q.recentProgress.filter((p) => p.numInputRows > 0).length, 1, "one batch of 5");
    } finally {
      await q.stop();
    }
  });

  it("Trigger.Once and AvailableNow ask the broker for the latest offsets", async () => {
    const topic = await newTopic(bootstrap, 2);
    await produce(bootstrap, topic, ["a"]);
    const cp = await tempDir();
    const run = async (trigger: { once: true } | { availableNow: true }, name: string) => {
      const q = await stream({ subscribe: topic, startingOffsets: "earliest" })
        .selectExpr("CAST(value AS STRING) v")
        .writeStream.format("memory")
        .queryName(name)
        .option("checkpointLocation", cp)
        .trigger(trigger)
        .start();
      await q.awaitTermination();
      return (await session.sql(`SELECT v FROM ${name} ORDER BY v`).collect()).map((r) => r.v);
    };
    assert.deepEqual(await run({ availableNow: true }, "lff1"), ["a"]); // fixes the initial offsets
    await produce(bootstrap, topic, ["b", { value: "c", partition: 1 }]);
    sent.clear();
    assert.deepEqual(await run({ once: true }, "lff2"), ["b", "c"]);
    assert.ok(listOffsets() >= 1, "Trigger.Once's latest offsets come from the broker");
    await produce(bootstrap, topic, ["d"]);
    sent.clear();
    assert.deepEqual(await run({ availableNow: true }, "lff3"), ["d"]);
    assert.ok(listOffsets() >= 1, "AvailableNow's end comes from the broker");
  });

  it("a topic deleted under a running query fails it with Spark's data-loss error", async () => {
    const topic = await newTopic(bootstrap, 1);
    await produce(bootstrap, topic, ["a", "b"]);
    const { q, until } = await collecting({ subscribe: topic, startingOffsets: "earliest" });
    try {
      await until(2);
      await sleep(300); // idle, a watch on its way
      const admin = await testClient(bootstrap).admin();
      await admin.deleteTopic(topic);
      await admin.close();
      await assert.rejects(Promise.race([q.awaitTermination(), sleep(30_000).then(() => assert.fail("still running"))]), /KAFKA_DATA_LOSS/);
    } finally {
      await q.stop();
    }
  });

  // The trigger processAllAvailable waits on asks the broker: a watch not yet answered (its
  // answer, the records just produced, on its way) or a Fetch answer a few ms old read as
  // "nothing new", and processAllAvailable returned before the records were read.
  it("processAllAvailable reads the records produced just before it, while the query idles on a watch", async () => {
    const topic = await newTopic(bootstrap, 2);
    const { q, values } = await collecting({ subscribe: topic, startingOffsets: "earliest" });
    const p = await testClient(bootstrap).producer();
    try {
      const expected: string[] = [];
      for (let i = 0; i < 40; i++) {
        await sleep(i % 4 === 0 ? 30 : 0); // sometimes long enough to go idle (a watch out), sometimes not
        const recs = [0, 1].map((partition) => ({ topic, partition, key: null, value: Buffer.from(`${i}-${partition}`), headers: [] }));
        await p.send(recs);
        expected.push(...recs.map((r) => r.value.toString()));
        await q.processAllAvailable();
        assert.equal(
          values.length,
          expected.length,
          `round ${i}: processAllAvailable returned with ${values.length} of ${expected.length} records read`,
        );
      }
      assert.deepEqual([...values].sort(), [...expected].sort());
    } finally {
      await p.close();
      await q.stop();
    }
  });
});

describe("kafka fetcher: logEnds", kafkaSkip(), () => {
  it("answers from the trigger's Fetch; a watch on its way is the end at once; never waits behind it; stale and failed answers are unknown", async () => {
    const topic = await newTopic(bootstrap, 1);
    const tp = { topic, partition: 0 };
    await produce(bootstrap, topic, ["a", "b", "c"]);
    const f = await testClient(bootstrap).fetcher();
    const timed = async (starts: { tp: typeof tp; offset: number }[]) => {
      const t0 = Date.now();
      const ends = await f.logEnds!(starts, 100, 1000);
      return { ends, ms: Date.now() - t0 };
    };
    try {
      // The Fetch sent by the call itself answers: the high watermark.
      assert.deepEqual((await timed([{ tp, offset: 1 }])).ends, [3]);
      assert.deepEqual((await timed([{ tp, offset: 3 }])).ends, [3]);
      // An idle watch holds the fetch connection for up to 2 s: its offset is the end, at once.
      const watching = f.watch!([{ tp, offset: 3 }], 2000);
      const during = await timed([{ tp, offset: 3 }]);
      assert.deepEqual(during.ends, [3]);
      assert.ok(during.ms < 500, `waited ${during.ms} ms on the watch`);
      // A Fetch at another offset would queue behind the watch: not waited for, unknown.
      const behind = await timed([{ tp, offset: 2 }]);
      assert.deepEqual(behind.ends, [null]);
      assert.ok(behind.ms < 500, `waited ${behind.ms} ms behind the watch`);
      await produce(bootstrap, topic, ["d"]);
      await watching;
      // The watch was answered with records... (its entry was replaced by the Fetch at 2: ask at 2)
      assert.deepEqual((await timed([{ tp, offset: 2 }])).ends, [4]);
      // ...an answer kept unread for longer than maxAgeMs is stale.
      await sleep(200);
      assert.deepEqual((await timed([{ tp, offset: 2 }])).ends, [null]);
      // A Fetch the broker refuses (past the log end) tells nothing.
      assert.deepEqual((await timed([{ tp, offset: 100 }])).ends, [null]);
    } finally {
      await f.close();
    }
  });
});
