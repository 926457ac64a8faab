/**
 * foreachBatch in group mode against the real broker, two workers in one process (two queries,
 * one group): the function is called once per task that ran, with (df, batchId, { task, worker,
 * group }); a table upserted by (task, batchId) ends with exactly the expected rows — every input
 * id once for the stateless query (its tasks are the source partitions), every (window, key) once
 * with the oracle's count and sum for the windowed count (its tasks are the state partitions).
 * Each task's batch ids run 0, 1, 2, ... Other sinks are refused, naming the sinks that qualify.
 * A worker killed between the function and its commit: group-foreach-batch-kill.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DataFrame } from "../../src/api/dataframe.js";
import type { StreamingQuery } from "../../src/api/streaming/query.js";
import { setLogWriter } from "../../src/common/log.js";
import { F, Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce } from "../connectors/kafka-helpers.js";
import { clusterStateDir } from "./cluster-state-dir.js";
import { eventsFrom, expectedWindows, until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
const PARTITIONS = 4;
const T0 = Date.UTC(2026, 0, 1);
const SHAPE = { t0: T0, keys: 5, values: 7 };

function session() {
  return Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.streaming.pollingDelay", "50ms").getOrCreate();
}

function event(id: number): { value: string; partition: number } {
  const ts = new Date(T0 + id * 100).toISOString();
  return { value: JSON.stringify({ id, k: `k${id % SHAPE.keys}`, v: id % SHAPE.values, ts }), partition: id % PARTITIONS };
}

const events = (s: Session, topic: string) => eventsFrom(s, bootstrap, topic, { maxOffsetsPerTrigger: 30 });

/** The user's side: a table upserted by (task, batchId), and every call as it came. */
class UpsertTable {
  readonly rows = new Map<string, string[]>();
  readonly calls: { task: number; batchId: number; worker: string; group: string; n: number }[] = [];
  fn = async (df: DataFrame, batchId: number, ctx?: { task: number; worker: string; group: string }) => {
    assert.ok(ctx, "group mode passes a third argument");
    const values = (await df.collect()).map((r) => String(r.value));
    this.rows.set(`${ctx.task}/${batchId}`, values);
    this.calls.push({ ...ctx, batchId, n: values.length });
  };
  all(): string[] {
    return [...this.rows.values()].flat();
  }
  /**
   * Each task's batch ids, in call order, a batch replayed right after it ran counted once: on a
   * loaded machine a worker can miss its session timeout, and the task's new owner then replays
   * the batch the old one had not committed, with the same id and rows (by design).
   */
  batchIds(): Map<number, number[]> {
    const out = new Map<number, number[]>();
    for (const c of this.calls) {
      const ids = out.get(c.task) ?? [];
      if (ids.at(-1) !== c.batchId) out.set(c.task, [...ids, c.batchId]);
    }
    return out;
  }
}

const groupOptions = (group: string, slot: string) => ({
  "arus.cluster.group": group,
  "arus.cluster.stateDir": clusterStateDir(),
  "arus.cluster.instanceId": slot,
  "arus.cluster.sessionTimeoutMs": 6000,
});

/** Produces the next `size` ids into `topic` at each next(); `count`: how many so far. */
function idChunks(topic: string, size: number) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async next() {
      await produce(
        bootstrap,
        topic,
        Array.from({ length: size }, (_, i) => event(count + i)),
      );
      count += size;
    },
  };
}

async function stopAll(queries: StreamingQuery[]): Promise<void> {
  for (const q of queries) await q.stop();
}

describe("group mode with a foreachBatch sink", kafkaSkip(), () => {
  it("stateless: each source partition is a task; the upserted table holds every id once", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gfb-in");
    const group = `gfb-${input}`;
    const table = new UpsertTable();
    const chunks = idChunks(input, 40);
    await chunks.next();
    const start = (slot: string) =>
      events(session(), input)
        .select(F.col("id").cast("string").alias("value"))
        .writeStream.foreachBatch(table.fn)
        .options(groupOptions(group, slot))
        .start();
    const queries: StreamingQuery[] = [];
    try {
      queries.push(await start("a"));
      await until("worker a's first call", () => table.calls.length > 0);
      queries.push(await start("b"));
      // Input keeps coming while b joins, until both workers' tasks were called with rows.
      await until("both workers called", async () => {
        await chunks.next();
        return new Set(table.calls.map((c) => c.worker)).size === 2;
      });
      await until("every id", () => table.all().length >= chunks.count);
      await new Promise((r) => setTimeout(r, 1000)); // a duplicate would show up by now
      for (const q of queries) assert.equal(q.exception, null);
      const ids = table
        .all()
        .map(Number)
        .sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        Array.from({ length: chunks.count }, (_, i) => i),
      );
      // A task is a source partition: its rows came from that partition (id % 4).
      for (const [key, values] of table.rows) {
        const task = Number(key.split("/")[0]);
        for (const v of values) assert.equal(Number(v) % PARTITIONS, task, `id ${v} in task ${task}`);
      }
      for (const [task, ids] of table.batchIds())
        assert.deepEqual(
          ids,
          ids.map((_, i) => i),
          `task ${task}'s batch ids`,
        );
      assert.deepEqual(new Set(table.calls.map((c) => c.group)), new Set([group]));
      assert.ok(
        table.calls.every((c) => c.n > 0),
        "a task is called when it has input",
      );
      const progress = queries[0]!.lastProgress!;
      assert.deepEqual(progress.sink, { description: "ForeachBatchSink", numOutputRows: -1 });
    } finally {
      await stopAll(queries);
    }
  });

  it("stateful: each state partition is a task; the upserted table holds every window once with its count", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gfb-agg-in");
    const group = `gfb-${input}`;
    const table = new UpsertTable();
    const chunks = idChunks(input, 30);
    const start = (slot: string) =>
      events(session(), input)
        .withWatermark("ts", "2 seconds")
        .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
        .agg(F.count("*").alias("n"), F.sum("v").alias("s"))
        .select(F.to_json(F.struct(F.col("window.start").alias("start"), "k", "n", "s")).alias("value"))
        .writeStream.foreachBatch(table.fn)
        .options(groupOptions(group, slot))
        .outputMode("append")
        .start();
    const queries: StreamingQuery[] = [];
    try {
      queries.push(await start("a"), await start("b"));
      await until("both workers called", async () => {
        await chunks.next();
        return new Set(table.calls.map((c) => c.worker)).size === 2;
      });
      while (chunks.count < 300) await chunks.next();
      // One event per partition far ahead: the watermark passes every window of the ids below chunks.count.
      await produce(
        bootstrap,
        input,
        Array.from({ length: PARTITIONS }, (_, p) => ({ ...event(10_000 + p), partition: p })),
      );
      const expected = expectedWindows(
        Array.from({ length: chunks.count }, (_, i) => i),
        SHAPE,
      );
      const windows = () => {
        const out = new Map<string, { n: number; s: number }>();
        for (const v of table.all()) {
          const r = JSON.parse(v) as { start: string; k: string; n: number; s: number };
          const key = `${new Date(r.start).toISOString()}|${r.k}`;
          assert.ok(!out.has(key), `window ${key} in two batches`);
          out.set(key, { n: r.n, s: r.s });
        }
        return out;
      };
      await until("every window", () => windows().size >= expected.size);
      await new Promise((r) => setTimeout(r, 1000));
      for (const q of queries) assert.equal(q.exception, null);
      assert.deepEqual(windows(), expected);
      for (const [task, ids] of table.batchIds())
        assert.deepEqual(
          ids,
          ids.map((_, i) => i),
          `task ${task}'s batch ids`,
        );
    } finally {
      await stopAll(queries);
    }
  });

  it("a function that fails stops the query; started again, the same (task, batchId) comes back first with the same rows", async () => {
    const input = await newTopic(bootstrap, 2, "gfb-fail-in");
    const group = `gfb-${input}`;
    await produce(
      bootstrap,
      input,
      Array.from({ length: 120 }, (_, i) => ({ ...event(i), partition: i % 2 })),
    );
    const table = new UpsertTable();
    let failed = null as { batchId: number; values: string[] } | null;
    const failing = async (df: DataFrame, batchId: number, ctx?: { task: number; worker: string; group: string }) => {
      if (ctx?.task === 0 && batchId === 1 && !failed) {
        failed = { batchId, values: (await df.collect()).map((r) => String(r.value)) };
        throw new Error("the user's database is down");
      }
      await table.fn(df, batchId, ctx);
    };
    const start = (fn: typeof failing) =>
      events(session(), input)
        .select(F.col("id").cast("string").alias("value"))
        .writeStream.foreachBatch(fn)
        .options(groupOptions(group, "a"))
        .start();
    const first = await start(failing);
    await assert.rejects(() => first.awaitTermination(), /the user's database is down/);
    assert.ok(failed, "the function failed for (0, 1)");
    const callsBefore = table.calls.length;
    const again = await start(table.fn);
    try {
      await until("every id", () => table.all().length >= 120);
      const afterRestart = table.calls.slice(callsBefore).filter((c) => c.task === 0);
      assert.equal(afterRestart[0]?.batchId, 1, "task 0's first call after the restart is the failed batch");
      assert.deepEqual(table.rows.get("0/1"), failed!.values, "with the same rows");
      assert.deepEqual(
        table
          .all()
          .map(Number)
          .sort((a, b) => a - b),
        Array.from({ length: 120 }, (_, i) => i),
      );
      for (const [task, ids] of table.batchIds())
        assert.deepEqual(
          ids,
          ids.map((_, i) => i),
          `task ${task}'s batch ids`,
        );
    } finally {
      await again.stop();
    }
  });

  it("df.observe: the query runs without observedMetrics and says so at start", async () => {
    const input = await newTopic(bootstrap, 1, "gfb-observe-in");
    await produce(bootstrap, input, [event(0)]);
    const s = session();
    const lines: string[] = [];
    const prev = setLogWriter((line) => void lines.push(line));
    const calls: number[] = [];
    let q: StreamingQuery | null = null;
    try {
      q = await events(s, input)
        .observe("m", F.count(F.lit(1)).alias("rows"))
        .select(F.col("id").cast("string").alias("value"))
        .writeStream.foreachBatch(async (df: DataFrame) => void calls.push((await df.collect()).length))
        .options(groupOptions(`gfb-observe-${input}`, "a"))
        .start();
      await until("a batch with the row", () => calls.includes(1), 60_000);
      assert.ok(
        lines.some((l) => /^WARN GroupMode: df\.observe: group mode does not report observedMetrics/.test(l)),
        lines.join(""),
      );
      assert.ok(q.recentProgress.every((p) => p.observedMetrics === undefined));
    } finally {
      setLogWriter(prev);
      await q?.stop();
    }
  });

  it("refuses a sink that is neither kafka nor foreachBatch, naming the sinks that qualify", async () => {
    const input = await newTopic(bootstrap, 1, "gfb-refuse-in");
    const s = session();
    const df = events(s, input).select(F.col("id").cast("string").alias("value"));
    await assert.rejects(
      () =>
        df.writeStream
          .format("console")
          .options(groupOptions(`gfb-${input}`, "a"))
          .start(),
      (e: Error) => /group mode cannot write to the 'console' sink/.test(e.message) && /kafka .*and foreachBatch/.test(e.message),
    );
    await assert.rejects(
      () =>
        df.writeStream
          .format("memory")
          .queryName(`gfb_${input.replace(/-/g, "_")}`)
          .options(groupOptions(`gfb-${input}`, "a"))
          .start(),
      (e: Error) => /'memory' sink: the memory sink is not durable/.test(e.message),
    );
  });
});
