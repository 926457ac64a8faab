/**
 * Cooperative rebalancing of group mode against the real broker (two workers in one process,
 * dynamic members): worker a runs all four tasks of a windowed count; b joins while input keeps
 * coming. Round one revokes two of a's tasks (b gets nothing yet), round two gives them to b.
 * a never restores a task it keeps and goes on committing batches between the rounds; b
 * restores exactly the tasks it got. Then b stops (LeaveGroup): a gets its tasks back in one
 * round and restores them. The output holds every (key, window) once with the oracle's values.
 * The same with an eager-only b: the group falls back to eager, one round moves the tasks. And
 * with a bare group member in b's place that holds the second round for 3 s: a goes on
 * committing batches of the tasks it keeps meanwhile (an eager worker would wait in its join).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQuery } from "../../src/api/streaming/query.js";
import { KafkaGroupMember } from "../../src/connectors/kafka/group/index.js";
import { Session } from "../../src/index.js";
import type { ClusterProgress, StreamingQueryProgress } from "../../src/runtime/progress.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "../connectors/kafka-helpers.js";
import { startWindowedCount, until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
const PARTITIONS = 4;

async function readAll(topic: string): Promise<string[]> {
  const client = testClient(bootstrap, true);
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  try {
    const out: string[] = [];
    for (const tp of await admin.partitions([topic])) {
      const { earliest, latest } = (await admin.offsetRange([tp])).get(`${topic}-${tp.partition}`)!;
      for (let from = earliest; from < latest; ) {
        const recs = await fetcher.fetch(tp, from, latest);
        if (!recs.length) break;
        for (const r of recs) out.push(Buffer.from(r.value!).toString());
        from = recs[recs.length - 1]!.offset + 1;
      }
    }
    return out;
  } finally {
    await fetcher.close();
    await admin.close();
  }
}

function eventJson(id: number, t0: number): { value: string; partition: number } {
  const ts = new Date(t0 + id * 100).toISOString();
  return { value: JSON.stringify({ id, k: `k${id % 7}`, v: id % 5, ts }), partition: id % PARTITIONS };
}

/** b's `arus.cluster.rebalanceProtocol`: a is cooperative (the default); an eager b makes the group run eager. */
async function scenario(bProtocol: "cooperative" | "eager" | "slow member"): Promise<void> {
  const input = await newTopic(bootstrap, PARTITIONS, "coop-in");
  const output = await newTopic(bootstrap, 1, "coop-out");
  const group = `coop-${input}`;
  const N = 1200;
  const t0 = Date.UTC(2026, 0, 1);
  const all = Array.from({ length: N }, (_, i) => eventJson(i, t0));
  const session = Session.builder()
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.streaming.pollingDelay", "50ms")
    .getOrCreate();
  const progress: StreamingQueryProgress[] = [];
  const listener = { onQueryProgress: (e: { progress: StreamingQueryProgress }) => void progress.push(e.progress) };
  session.streams.addListener(listener);
  const start = (protocol: "cooperative" | "eager") =>
    startWindowedCount(session, {
      bootstrap,
      input,
      output,
      group,
      // Longer than the input's event time: no row is ever late, whatever the batching and
      // however long a partition waits between owners (the flush an hour ahead closes every window).
      delay: "10 minutes",
      sink: { "arus.cluster.rebalanceProtocol": protocol },
    });
  const of = (q: StreamingQuery) => progress.filter((p) => p.runId === q.runId).map((p) => ({ ...p.arus!.cluster!, batchId: p.batchId }));
  const last = (q: StreamingQuery): ClusterProgress | undefined => of(q).at(-1);
  let sent = 0;
  const more = async (n = 20) => {
    if (sent >= N) return;
    await produce(bootstrap, input, all.slice(sent, sent + n));
    sent += n;
  };
  const queries: StreamingQuery[] = [];
  try {
    await more(100);
    const a = await start("cooperative");
    queries.push(a);
    await until("a running its four tasks", async () => {
      await more();
      return (last(a)?.restoredTasks ?? 0) === PARTITIONS && of(a).some((c) => c.tasks.length > 0);
    });
    const before = last(a)!;
    assert.equal(before.restoredTasks, PARTITIONS, "a restored its four tasks once, at its first join");

    if (bProtocol === "slow member") {
      // A bare group member as the second participant: the test decides when it rejoins.
      const m = new KafkaGroupMember({
        bootstrapServers: bootstrap,
        groupId: group,
        topics: [input, `arus-${group}-repartition`],
        sessionTimeoutMs: 6000,
      });
      try {
        const joining = m.join();
        let r1: Awaited<typeof joining> | null = null;
        void joining.then((r) => {
          r1 = r;
        });
        await until("round one", async () => {
          await more();
          return r1 !== null;
        });
        const round1 = r1!;
        // Round one: m gets nothing, a gave up two tasks and rejoined at once; round two now
        // waits for m, which keeps it waiting for 3 s while the input keeps coming.
        assert.deepEqual(round1.partitions, []);
        await until("m told of round two", async () => {
          await more();
          return m.needsRejoin;
        });
        const held = Date.now();
        await until("3 s of round two waiting for m", async () => {
          await more();
          return Date.now() - held > 3000;
        });
        const round2 = await m.join();
        assert.equal(round2.partitions.length, 2 * (PARTITIONS / 2));
        // Meanwhile a committed batches on the tasks it kept, in round one's generation: an
        // eager worker would have waited in its JoinGroup for those 3 s.
        await until("a in round two's generation", async () => {
          await more();
          return (last(a)?.generationId ?? 0) >= round2.generationId;
        });
        const during = of(a).filter((c) => c.generationId === round1.generationId && c.tasks.length > 0);
        // (More than one: the first may be the batch that was in flight when round one ended.)
        assert.ok(during.length > 1, `a committed no batch while round two waited (generations ${of(a).map((c) => c.generationId)})`);
        // The batch in flight when round one ended may finish its revoked tasks under round one's
        // generation (nobody owns them there); every later one runs only the tasks a kept.
        for (const c of during.slice(1))
          for (const t of c.tasks)
            assert.ok(!round2.partitions.some((tp) => tp.partition === t), `a ran task ${t} after round one revoked it`);
        assert.equal(Math.max(...of(a).map((c) => c.restoredTasks)), PARTITIONS, "a restored a task it kept");
        await m.leave();
      } finally {
        await m.close();
      }
    } else {
      const b = await start(bProtocol);
      queries.push(b);
      await until("b running tasks", async () => {
        await more();
        return of(b).some((c) => c.tasks.length > 0);
      });
      // b's batches run in the final generation of the join; a's are in it too by now.
      const settledGen = of(b).find((c) => c.tasks.length > 0)!.generationId;
      // A batch a had in flight may commit under the new generation before a applies it
      // (progress from before the apply still counts the old joins): wait for one after.
      const applied = (c: ClusterProgress) =>
        c.generationId >= settledGen && c.rebalances > before.rebalances + (bProtocol === "cooperative" ? 1 : 0);
      await until(bProtocol === "cooperative" ? "a in b's generation after two more joins" : "a in b's generation", async () => {
        await more();
        return of(a).some(applied);
      });
      const aRuns = of(a);
      // a never restored a task again: the two it kept kept their state in memory.
      assert.equal(Math.max(...aRuns.map((c) => c.restoredTasks)), PARTITIONS, "a restored a task it kept");
      // b restored exactly the tasks it was given, and runs only those.
      const bTasks = new Set(of(b).flatMap((c) => c.tasks));
      assert.ok(bTasks.size >= 1 && bTasks.size <= PARTITIONS / 2, `b ran tasks ${[...bTasks]}`);
      assert.equal(last(b)!.restoredTasks, PARTITIONS / 2);
      const aSettled = aRuns.find(applied)!;
      if (bProtocol === "cooperative") {
        // Two rounds for a (revoke, then hand over) on top of its first join. (That a goes on
        // committing while the second round waits is the slow-member test: here that wait is a
        // heartbeat of b's, 100 ms.)
        assert.ok(aSettled.rebalances >= 3, `a joined ${aSettled.rebalances} times`);
      } else {
        // b offers only the eager protocol: the group runs eager, one round moves the tasks
        // (a's batch in flight, if it covered them, was aborted: they went straight to b).
        assert.equal(settledGen, before.generationId + 1);
        assert.equal(aSettled.rebalances, 2, `a joined ${aSettled.rebalances} times`);
      }
      // Never two owners: after the handover a runs none of b's tasks.
      const aAfter = new Set(aRuns.filter((c) => c.generationId >= settledGen).flatMap((c) => c.tasks));
      for (const t of bTasks) assert.ok(!aAfter.has(t), `task ${t} ran on both workers in generation ${settledGen}`);

      // b leaves: its tasks go straight back to a (nobody holds them), restored from their changelogs.
      await b.stop();
    }
    await until("a running all tasks again", async () => {
      await more();
      return (last(a)?.restoredTasks ?? 0) === PARTITIONS + PARTITIONS / 2;
    });
    await produce(bootstrap, input, all.slice(sent));
    sent = N;
    await produce(
      bootstrap,
      input,
      Array.from({ length: PARTITIONS }, (_, p) => ({
        value: JSON.stringify({ id: 10_000 + p, k: "flush", v: 0, ts: new Date(t0 + 3_600_000).toISOString() }),
        partition: p,
      })),
    );
    const expected = new Map<string, { n: number; s: number }>();
    for (let id = 0; id < N; id++) {
      const key = `${new Date(Math.floor((t0 + id * 100) / 10_000) * 10_000).toISOString()}|k${id % 7}`;
      const e = expected.get(key) ?? { n: 0, s: 0 };
      e.n++;
      e.s += id % 5;
      expected.set(key, e);
    }
    const got = async () => (await readAll(output)).map((v) => JSON.parse(v) as { start: string; k: string; n: number; s: number });
    await until("every window", async () => (await got()).length >= expected.size, 90_000);
    await new Promise((r) => setTimeout(r, 1000)); // a duplicate would show up by now
    const seen = new Map<string, { n: number; s: number }>();
    for (const r of await got()) {
      const key = `${new Date(r.start).toISOString()}|${r.k}`;
      assert.ok(!seen.has(key), `window ${key} written twice`);
      seen.set(key, { n: r.n, s: r.s });
    }
    assert.deepEqual(new Map([...seen].sort()), new Map([...expected].sort()));
    assert.equal(
      progress.reduce((n, p) => n + (p.arus?.numLateInputRows ?? 0), 0),
      0,
    );
    for (const q of queries) assert.equal(q.exception, null);
  } finally {
    session.streams.removeListener(listener);
    for (const q of queries) await q.stop();
  }
}

describe("group mode, cooperative rebalancing (two workers, one group)", kafkaSkip(), () => {
  it("a joining worker takes tasks without the first restoring or stopping the tasks it keeps; exactly once", () =>
    scenario("cooperative"));
  it("a joining worker that offers only eager makes the group fall back to eager; still no restore of kept tasks, exactly once", () =>
    scenario("eager"));
  it("a slow member holds the second round: the first worker goes on committing its kept tasks meanwhile, exactly once", () =>
    scenario("slow member"));
});
