/**
 * The broker stopped under a group-mode worker and started again (issue 20, "broker
 * unavailable"), on a broker of this test's own (a fresh scripts/kafka.sh cluster in a temp
 * ARUS_KAFKA_DIR; the shared broker is never stopped). A windowed count in group mode:
 *   1. with fetchOffset.numRetries high enough to outlast the outage, the worker retries (its
 *      attempts abort, it rejoins and restores its tasks) and continues once the broker is back;
 *   2. with Spark's default retries (3 × 1 s), it fails with an error naming the bootstrap
 *      servers; started again after the broker is back, it resumes from the group's offsets.
 * At the end read_committed holds every window once with the oracle's count and sum. Slow (a
 * broker start and two restarts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { kafkaSkip, newTopic, produce } from "../connectors/kafka-helpers.js";
import { privateBroker } from "../connectors/private-broker.js";
import { tempDirs } from "../temp-dirs.js";
import { expectedWindows, readWindows, startWindowedCount, until } from "./windowed-count-pipeline.js";

const kafkaSh = privateBroker(tempDirs("arus-group-outage-"));

const T0 = Date.UTC(2026, 0, 1);
const event = (id: number) => ({
  value: JSON.stringify({ id, k: `k${id % 3}`, v: id % 7, ts: new Date(T0 + id * 100).toISOString() }),
  partition: id % 2,
});

describe("group mode: the broker stopped and started again under a worker", kafkaSkip(), () => {
  it("retries then continues, or fails clearly and resumes from the group's offsets", { timeout: 900_000 }, async () => {
    const bootstrap = await kafkaSh("start");
    const input = await newTopic(bootstrap, 2, "go-in");
    const output = await newTopic(bootstrap, 1, "go-out");
    const group = `go-${input}`;
    const session = Session.builder()
      .config("spark.sql.session.timeZone", "UTC")
      .config("spark.sql.streaming.pollingDelay", "100ms")
      .getOrCreate();
    const start = (retries: Record<string, number>) =>
      startWindowedCount(session, { bootstrap, input, output, group, source: retries, sink: { "arus.cluster.instanceId": "a" } });
    const read = (q: { recentProgress: { numInputRows: number }[] }) => q.recentProgress.reduce((n, p) => n + p.numInputRows, 0);
    let sent = 0;
    const addInput = async (n: number) => {
      await produce(
        bootstrap,
        input,
        Array.from({ length: n }, (_, i) => event(sent + i)),
      );
      sent += n;
    };

    // 1. An outage shorter than the retries: the worker waits it out and continues.
    await addInput(100);
    const q1 = await start({ "fetchOffset.numRetries": 400, "fetchOffset.retryIntervalMs": 500 });
    await until("q1 read the first 100", () => read(q1) >= 100, 120_000);
    await kafkaSh("stop");
    // The broker stays down until the worker has had an attempt fail (an idle worker's offset
    // look-up, or a batch's): a fixed few seconds could pass inside one call's own retries.
    await until("q1 retrying during the outage", () => q1.status.message.startsWith("Retrying after a failed attempt"), 120_000);
    await kafkaSh("restart");
    await addInput(100);
    await until("q1 read 200 after the outage", () => read(q1) >= 200, 180_000).catch((e: Error) => {
      throw new Error(`${e.message}: exception ${q1.exception?.message}; status ${q1.status.message}`);
    });
    assert.equal(q1.isActive, true, `the query stopped: ${q1.exception?.message}`);
    const aborted = q1.lastProgress?.arus?.cluster?.abortedTransactions ?? 0;
    assert.ok(aborted > 0, "the attempt that failed during the outage is counted in progress");
    await q1.stop();

    // 2. An outage longer than Spark's default retries: a clear error, then a resume.
    const q2 = await start({});
    await until("q2 joined", () => q2.status.message === "Waiting for data to arrive", 120_000);
    await kafkaSh("stop");
    await q2.awaitTermination().catch(() => {});
    assert.match(String(q2.exception?.message), new RegExp(bootstrap.replace(/\./g, "\\.")), String(q2.exception?.message));
    await kafkaSh("restart");
    await addInput(100);
    // One event per partition far ahead: every window of the 300 closes.
    await produce(
      bootstrap,
      input,
      [0, 1].map((p) => ({
        value: JSON.stringify({ id: 10_000 + p, k: "flush", v: 0, ts: new Date(T0 + 3_600_000).toISOString() }),
        partition: p,
      })),
    );
    const q3 = await start({});
    const expected = expectedWindows(
      Array.from({ length: sent }, (_, id) => id),
      { t0: T0, keys: 3, values: 7 },
    );
    const windows = () => readWindows(bootstrap, output);
    try {
      await until("every window", async () => (await windows()).size >= expected.size, 180_000);
      await new Promise((r) => setTimeout(r, 1000));
      const sorted = <V>(m: Map<string, V>) => new Map([...m].sort(([a], [b]) => a.localeCompare(b)));
      assert.deepEqual(sorted(await windows()), sorted(expected));
      assert.equal(q3.exception, null);
    } finally {
      await q3.stop();
      await session.stop();
    }
  });
});
