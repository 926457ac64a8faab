/**
 * Group mode, two static workers in one process, and the process stalls while the second one
 * joins (its event loop blocked past the 6 s session timeout, as a long GC pause or an
 * overloaded machine does): the sessions expire mid-rebalance, and a worker's batches are fenced
 * by its own pending rejoin (its instance id got a new member id, or the generation moved on)
 * until the group's rebalance ends. The worker waits for that join instead of running and
 * aborting batch after batch meanwhile (here it aborted 16 before), and the output still holds
 * every (key, window) once with the oracle's values.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQuery } from "../../src/api/streaming/query.js";
import { Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce } from "../connectors/kafka-helpers.js";
import { expectedWindows, readWindows, startWindowedCount, until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
const PARTITIONS = 4;
const SHAPE = { t0: Date.UTC(2026, 0, 1), keys: 5, values: 7 };

function eventJson(id: number): { value: string; partition: number } {
  const ts = new Date(SHAPE.t0 + id * 100).toISOString();
  return { value: JSON.stringify({ id, k: `k${id % SHAPE.keys}`, v: id % SHAPE.values, ts }), partition: id % PARTITIONS };
}

/** Blocks this process's event loop (every worker in it) for `ms`. */
function stall(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
}

describe("group mode: the whole process stalls past the session timeout", kafkaSkip(), () => {
  it("each worker waits for its rejoin instead of aborting batch after batch; every window once", { timeout: 180_000 }, async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "stall-in");
    const output = await newTopic(bootstrap, 1, "stall-out");
    const group = `stall-${input}`;
    const N = 600;
    const session = Session.builder()
      .config("spark.sql.session.timeZone", "UTC")
      .config("spark.sql.streaming.pollingDelay", "50ms")
      .getOrCreate();
    let sent = 0;
    const more = async (n = 20) => {
      const ids = Array.from({ length: Math.min(n, N - sent) }, (_, i) => sent + i);
      if (ids.length) await produce(bootstrap, input, ids.map(eventJson));
      sent += ids.length;
    };
    // A delay longer than the input's event time: no row is late whatever the batching.
    const start = (slot: string) =>
      startWindowedCount(session, {
        bootstrap,
        input,
        output,
        group,
        delay: "10 minutes",
        sink: { "arus.cluster.instanceId": slot },
      });
    const queries: StreamingQuery[] = [];
    const ranTasks = (q: StreamingQuery) => q.recentProgress.some((p) => (p.arus?.cluster?.tasks.length ?? 0) > 0);
    try {
      await more(100);
      queries.push(await start("a"), await start("b"));
      // The process stalls while b joins and the group rebalances, the input coming on.
      const stallAt = 200;
      await until("both workers running tasks", async () => {
        if (sent === stallAt) stall(8000);
        await more();
        return sent > stallAt && queries.every(ranTasks);
      });
      while (sent < N) await more();
      // One event an hour ahead per partition: the watermark passes every window above.
      await produce(
        bootstrap,
        input,
        Array.from({ length: PARTITIONS }, (_, p) => ({
          value: JSON.stringify({ id: 10_000 + p, k: "flush", v: 0, ts: new Date(SHAPE.t0 + 3_600_000).toISOString() }),
          partition: p,
        })),
      );
      const expected = expectedWindows(
        Array.from({ length: N }, (_, i) => i),
        SHAPE,
      );
      await until("every window", async () => (await readWindows(bootstrap, output)).size >= expected.size, 120_000);
      assert.deepEqual(new Map([...(await readWindows(bootstrap, output))].sort()), new Map([...expected].sort()));
      for (const q of queries) {
        assert.equal(q.exception, null);
        const c = q.lastProgress?.arus?.cluster;
        // At most one fenced batch per join of the worker (a loaded machine may add a round or two); it was 16-44.
        assert.ok((c?.abortedTransactions ?? 0) <= 6, `worker ${c?.worker} aborted ${c?.abortedTransactions} transactions`);
      }
    } finally {
      for (const q of queries) await q.stop();
    }
  });
});
