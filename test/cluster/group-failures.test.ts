/**
 * Group mode's failure cases that one process can stage (docs/scale-out.md, "Failures"), against
 * the real broker:
 *   - partitions added to the source topic while the group runs: the new partition is found,
 *     assigned and read from its start; every window once with the oracle's count;
 *   - internal topics with another partition count than arus.cluster.partitions asks for on a
 *     restart: CLUSTER_PARTITIONS_MISMATCH naming the topic and both counts; without the option
 *     the restart keeps the group's count (even after the source topic grew);
 *   - the broker unreachable at start: a bounded-time error naming the bootstrap servers;
 *   - stop() while the worker's join waits on the group (a member that stopped heartbeating):
 *     returns at once instead of after the rebalance timeout;
 *   - explainWatermark(): the group's watermark, not an exception.
 * Workers killed, paused (zombies), restored and cut off from the broker are separate processes:
 * group-zombie.test.ts, group-restore-kill.test.ts, group-broker-outage.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQuery } from "../../src/api/streaming/query.js";
import { KafkaGroupMember } from "../../src/connectors/kafka/group/index.js";
import { Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "../connectors/kafka-helpers.js";
import { clusterStateDir } from "./cluster-state-dir.js";
import { expectedWindows, readWindows, startWindowedCount, until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";

function session() {
  return Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.streaming.pollingDelay", "50ms").getOrCreate();
}

const T0 = Date.UTC(2026, 0, 1);
const event = (id: number, partition: number) => ({
  value: JSON.stringify({ id, k: `k${id % 3}`, v: id % 7, ts: new Date(T0 + id * 100).toISOString() }),
  partition,
});

/** A windowed count and sum per key, in group mode; `extra` adds writer options. */
function windowedCount(s: Session, input: string, output: string, group: string, extra: Record<string, string | number> = {}) {
  return startWindowedCount(s, { bootstrap, input, output, group, sink: extra });
}

const sorted = <V>(m: Map<string, V>) => new Map([...m].sort(([a], [b]) => a.localeCompare(b)));

/** One event per partition far ahead: the watermark passes every window of the ids above. */
const flush = (partitions: number) =>
  Array.from({ length: partitions }, (_, p) => ({
    value: JSON.stringify({ id: 1_000_000 + p, k: "flush", v: 0, ts: new Date(T0 + 3_600_000).toISOString() }),
    partition: p,
  }));

describe("group mode: failures one process can stage", kafkaSkip(), () => {
  it("partitions added to the source topic mid-run are found, assigned and read from their start", { timeout: 180_000 }, async () => {
    const input = await newTopic(bootstrap, 2, "gf-in");
    const output = await newTopic(bootstrap, 1, "gf-out");
    const group = `gf-${input}`;
    const ids = Array.from({ length: 300 }, (_, i) => i);
    await produce(
      bootstrap,
      input,
      ids.slice(0, 150).map((id) => event(id, id % 2)),
    );
    const queries: StreamingQuery[] = [];
    try {
      queries.push(await windowedCount(session(), input, output, group, { "arus.cluster.instanceId": "a" }));
      queries.push(await windowedCount(session(), input, output, group, { "arus.cluster.instanceId": "b" }));
      const read = () => queries.reduce((n, q) => n + q.recentProgress.reduce((m, p) => m + p.numInputRows, 0), 0);
      await until("the first 150 events read", () => read() >= 150);
      const admin = await testClient(bootstrap).admin();
      try {
        await admin.addPartitions(input, 4);
      } finally {
        await admin.close();
      }
      // Half of the rest into the new partitions 2 and 3 (before the workers notice them: their
      // committed offset is none, so a worker must start them at their beginning).
      await produce(
        bootstrap,
        input,
        ids.slice(150).map((id) => event(id, id % 4)),
      );
      const readPartitions = new Set<string>();
      await until("the new partitions read", () => {
        for (const q of queries)
          for (const p of q.recentProgress) {
            if (p.numInputRows === 0) continue;
            const end = p.sources[0]?.endOffset;
            const offsets = (typeof end === "string" ? JSON.parse(end) : end) as Record<string, Record<string, number>> | null;
            for (const [part, off] of Object.entries(offsets?.[input] ?? {})) if (off > 0) readPartitions.add(part);
          }
        return readPartitions.has("2") && readPartitions.has("3");
      });
      await produce(bootstrap, input, flush(4));
      const expected = expectedWindows(ids, { t0: T0, keys: 3, values: 7 });
      await until("every window", async () => (await readWindows(bootstrap, output)).size >= expected.size, 90_000);
      await new Promise((r) => setTimeout(r, 1500)); // a duplicate would show up by now
      assert.deepEqual(sorted(await readWindows(bootstrap, output)), sorted(expected));
      for (const q of queries) assert.equal(q.exception, null);
      assert.ok(
        queries.some((q) => (q.lastProgress?.arus?.cluster?.rebalances ?? 0) > 1),
        "the workers rejoined after the partitions were added",
      );
    } finally {
      for (const q of queries) await q.stop();
    }
  });

  it("restart with another arus.cluster.partitions: CLUSTER_PARTITIONS_MISMATCH; without it the group's count is kept", {
    timeout: 120_000,
  }, async () => {
    const input = await newTopic(bootstrap, 2, "gf-in");
    const output = await newTopic(bootstrap, 1, "gf-out");
    const group = `gf-${input}`;
    const ids = Array.from({ length: 100 }, (_, i) => i);
    await produce(
      bootstrap,
      input,
      ids.slice(0, 50).map((id) => event(id, id % 2)),
    );
    const once = { "arus.cluster.instanceId": "a" };
    // First run: 3 tasks (the internal topics get 3 partitions).
    const q1 = await windowedCount(session(), input, output, group, { ...once, "arus.cluster.partitions": 3 });
    await until("the first run's batch", () => q1.recentProgress.some((p) => p.numInputRows > 0));
    await q1.stop();
    assert.equal(q1.exception, null);

    const q2 = await windowedCount(session(), input, output, group, { ...once, "arus.cluster.partitions": 4 });
    await q2.awaitTermination().catch(() => {});
    const msg = String(q2.exception?.message);
    assert.match(msg, new RegExp(`arus-${group}-repartition`), msg);
    assert.match(msg, /has 3 partitions, but this pipeline expects 4/, msg);
    assert.ok(errorClasses(q2.exception).includes("CLUSTER_PARTITIONS_MISMATCH"), String(errorClasses(q2.exception)));

    // The source topic grows; a restart without the option keeps the 3 tasks and the state.
    const admin = await testClient(bootstrap).admin();
    try {
      await admin.addPartitions(input, 5);
    } finally {
      await admin.close();
    }
    await produce(
      bootstrap,
      input,
      ids.slice(50).map((id) => event(id, id % 5)),
    );
    await produce(bootstrap, input, flush(5));
    const q3 = await windowedCount(session(), input, output, group, once);
    try {
      const expected = expectedWindows(ids, { t0: T0, keys: 3, values: 7 });
      await until("every window", async () => (await readWindows(bootstrap, output)).size >= expected.size, 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; exception ${q3.exception?.message}; last progress ${JSON.stringify(q3.lastProgress)}`);
      });
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(sorted(await readWindows(bootstrap, output)), sorted(expected));
      assert.equal(q3.exception, null);
      const tasks = new Set(q3.recentProgress.flatMap((p) => p.arus?.cluster?.tasks ?? []));
      assert.deepEqual([...tasks].sort(), [0, 1, 2], "the group's 3 tasks, not the source's 5 partitions");
    } finally {
      await q3.stop();
    }
  });

  it("the broker unreachable at start: a clear error naming the bootstrap servers, in bounded time", { timeout: 120_000 }, async () => {
    const dead = "127.0.0.1:1"; // nothing listens on port 1
    const s = session();
    const started = Date.now();
    const q = await s.readStream
      .format("kafka")
      .option("kafka.bootstrap.servers", dead)
      .option("subscribe", "gf-nothing")
      .load()
      .selectExpr("value")
      .writeStream.format("kafka")
      .option("kafka.bootstrap.servers", dead)
      .option("topic", "gf-nothing-out")
      .option("arus.cluster.group", "gf-unreachable")
      .option("arus.cluster.stateDir", clusterStateDir())
      .start();
    await q.awaitTermination().catch(() => {});
    const elapsed = Date.now() - started;
    assert.ok(q.exception, "the query failed");
    assert.match(
      String(q.exception?.message),
      /cannot reach the Kafka brokers at 127\.0\.0\.1:1 \(kafka\.bootstrap\.servers\)/,
      String(q.exception?.message),
    );
    assert.ok(elapsed < 90_000, `failed after ${elapsed} ms`);
  });

  it("stop() during a join the group holds back returns at once", { timeout: 120_000 }, async () => {
    const input = await newTopic(bootstrap, 2, "gf-in");
    const output = await newTopic(bootstrap, 1, "gf-out");
    const group = `gf-${input}`;
    // A member that joins, then stops heartbeating without leaving: the group's next rebalance
    // waits for it until its 30 s session times out.
    const stuck = new KafkaGroupMember({ bootstrapServers: bootstrap, groupId: group, topics: [input], sessionTimeoutMs: 30_000 });
    await stuck.join();
    await stuck.close();
    const q = await session()
      .readStream.format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("subscribe", input)
      .load()
      .selectExpr("value")
      .writeStream.format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("topic", output)
      .option("arus.cluster.group", group)
      .option("arus.cluster.stateDir", clusterStateDir())
      .start();
    await until("the join pending", () => q.status.message === "Joining the consumer group", 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(q.status.message, "Joining the consumer group", "still waiting on the group");
    const t = Date.now();
    await q.stop();
    const took = Date.now() - t;
    assert.equal(q.exception, null);
    assert.ok(took < 5000, `stop() took ${took} ms (the rebalance waits up to 30 s)`);
  });

  it("explainWatermark() gives the group's watermark", { timeout: 120_000 }, async () => {
    const input = await newTopic(bootstrap, 2, "gf-in");
    const output = await newTopic(bootstrap, 1, "gf-out");
    const group = `gf-${input}`;
    const ids = Array.from({ length: 100 }, (_, i) => i);
    await produce(
      bootstrap,
      input,
      ids.map((id) => event(id, id % 2)),
    );
    const q = await windowedCount(session(), input, output, group, { "arus.cluster.instanceId": "a" });
    try {
      await until("a watermark", () =>
        q.recentProgress.some((p) => p.eventTime?.watermark !== undefined && p.eventTime.watermark !== "1970-01-01T00:00:00.000Z"),
      );
      await until("an idle batch", () => q.status.message === "Waiting for data to arrive");
      const info = q.watermarkInfo();
      // Max event time 9.9 s after T0, delay 2 s.
      assert.equal(info.watermarkMs, T0 + 9900 - 2000);
      assert.equal(info.inputs[0]?.column, "ts");
      assert.equal(info.inputs[0]?.watermarkMs, T0 + 9900 - 2000);
      assert.deepEqual(info.group?.tasks, [0, 1]);
      assert.equal(info.group?.name, group);
      // Window [T0, T0+10s) is open on every key (the watermark is below its end).
      assert.equal(info.openWindows.length > 0, true);
      assert.ok(info.openWindows.every((w) => w.endMs === T0 + 10_000));
      const text = q.explainWatermark();
      assert.match(text, new RegExp(`group ${group}: one watermark over every worker's tasks`));
      assert.match(text, /Watermark: 2026-01-01T00:00:07\.900Z/);
    } finally {
      await q.stop();
    }
  });
});

/** The error classes of an error and its causes. */
function errorClasses(e: unknown): string[] {
  const out: string[] = [];
  for (let x = e as { errorClass?: string; cause?: unknown } | null | undefined; x; x = x.cause as typeof x) {
    if (x.errorClass) out.push(x.errorClass);
  }
  return out;
}
