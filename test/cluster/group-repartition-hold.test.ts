/**
 * Group mode against the real broker: rows stage A committed to the repartition topic hold the
 * global watermark until their task reads them (src/runtime/cluster/repartition-hold.ts).
 *
 * One source partition, two tasks. Worker a runs both; then a bare group member m (a stalled
 * worker: it owns task 1 and never processes it) takes task 1 — the assignor leaves a the index it
 * owned first, 0, which has the source partition. a goes on reading the source: its stage A
 * commits task 1's rows to repartition partition 1, where nobody reads them, while its task 0
 * moves event time a minute on. Then m leaves, a takes task 1 back and reads those rows. A single
 * process drops none of them (event time only grows); without the hold a's watermark had passed
 * them and they were dropped as late.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQuery } from "../../src/api/streaming/query.js";
import { KafkaGroupMember } from "../../src/connectors/kafka/group/index.js";
import { Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "../connectors/kafka-helpers.js";
import { expectedWindows, readWindows, startWindowedCount, until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
const T0 = Date.UTC(2026, 0, 1);
const event = (id: number) => ({
  value: JSON.stringify({ id, k: `k${id % 7}`, v: id % 5, ts: new Date(T0 + id * 100).toISOString() }),
  partition: 0,
});

describe("group mode: rows in the repartition topic hold the watermark", kafkaSkip(), () => {
  it("a task stalled after stage A committed its rows: none of them is late when it is read at last", { timeout: 180_000 }, async () => {
    const input = await newTopic(bootstrap, 1, "grh-in");
    const output = await newTopic(bootstrap, 1, "grh-out");
    const group = `grh-${input}`;
    const repartition = `arus-${group}-repartition`;
    const N = 700;
    const ids = Array.from({ length: N }, (_, i) => i);
    await produce(bootstrap, input, ids.slice(0, 100).map(event));
    const session = Session.builder()
      .config("spark.sql.session.timeZone", "UTC")
      .config("spark.sql.streaming.pollingDelay", "50ms")
      .getOrCreate();
    const a: StreamingQuery = await startWindowedCount(session, {
      bootstrap,
      input,
      output,
      group,
      delay: "2 seconds",
      sink: { "arus.cluster.partitions": 2 },
    });
    const sourceEnd = () => {
      const end = a.lastProgress?.sources[0]?.endOffset;
      const offsets = (typeof end === "string" ? JSON.parse(end) : end) as Record<string, Record<string, number>> | null;
      return offsets?.[input]?.["0"] ?? 0;
    };
    const m = new KafkaGroupMember({
      bootstrapServers: bootstrap,
      groupId: group,
      topics: [input, repartition],
      sessionTimeoutMs: 6000,
      rebalanceProtocol: "eager",
    });
    const admin = await testClient(bootstrap, true).admin();
    let heldBy: string | null | undefined;
    try {
      await until("a running both tasks", () => a.recentProgress.some((p) => p.arus?.cluster?.tasks.length === 2) && sourceEnd() === 100);
      // m joins: the group runs eager (m offers nothing else), a keeps index 0, m gets task 1.
      const joined = await m.join();
      assert.deepEqual(joined.partitions, [{ topic: repartition, partition: 1 }]);
      // a reads a minute more of event time; task 1's rows pile up unread in repartition partition 1.
      for (let from = 100; from < N; from += 100) await produce(bootstrap, input, ids.slice(from, from + 100).map(event));
      const rep0 = { topic: repartition, partition: 0 };
      await until("a read the source and task 0 its rows", async () => {
        if (sourceEnd() < N) return false;
        const latest = (await admin.latestOffsets([rep0])).get(`${repartition}-0`)!;
        return (await m.committedOffsets([rep0])).get(`${repartition}-0`) === latest;
      });
      const later = a.recentProgress.filter((p) => (p.arus?.cluster?.generationId ?? 0) >= joined.generationId);
      assert.ok(later.length > 0 && later.every((p) => !p.arus?.cluster?.tasks.includes(1)), "a ran task 0 alone meanwhile");
      const rep1 = { topic: repartition, partition: 1 };
      const unread =
        (await admin.latestOffsets([rep1])).get(`${repartition}-1`)! - ((await m.committedOffsets([rep1])).get(`${repartition}-1`) ?? 0);
      assert.ok(unread > 0, "task 1's rows wait in the repartition topic");
      await until("a's idle batches", () => a.status.message === "Waiting for data to arrive");
      await new Promise((r) => setTimeout(r, 1500)); // an idle worker re-reads the group's progress about once a second
      heldBy = a.watermarkInfo().group?.heldBy;
      // The stalled owner leaves: a takes task 1 back and reads its rows.
      await m.leave();
      await until("a running task 1 again", () =>
        a.recentProgress.some((p) => (p.arus?.cluster?.generationId ?? 0) > joined.generationId && p.arus?.cluster?.tasks.includes(1)),
      );
      await produce(bootstrap, input, [
        { value: JSON.stringify({ id: 1_000_000, k: "flush", v: 0, ts: new Date(T0 + 3_600_000).toISOString() }), partition: 0 },
      ]);
      const expected = new Map([...expectedWindows(ids, { t0: T0, keys: 7, values: 5 })].sort(([x], [y]) => x.localeCompare(y)));
      // On a shortfall (rows dropped as late) the comparison below shows which windows.
      await until("every window", async () => (await readWindows(bootstrap, output)).size >= expected.size, 90_000).catch(() => {});
      await new Promise((r) => setTimeout(r, 1500)); // a duplicate would show up by now
      assert.deepEqual(new Map([...(await readWindows(bootstrap, output))].sort(([a], [b]) => a.localeCompare(b))), expected);
      assert.equal(
        a.recentProgress.reduce((n, p) => n + (p.arus?.numLateInputRows ?? 0), 0),
        0,
        "rows dropped as late",
      );
      assert.equal(heldBy, `${repartition}-1`, "explainWatermark() names the repartition partition that holds the watermark");
      assert.equal(a.exception, null);
    } finally {
      await m.close();
      await admin.close();
      await a.stop();
    }
  });
});
