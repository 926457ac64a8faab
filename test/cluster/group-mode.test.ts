/**
 * Group mode against the real broker, two workers in one process (two queries, one group): the
 * stateless query's output holds every input id exactly once whatever worker read it, and each
 * source partition is in exactly one worker's progress and lag series (arus_kafka_partition_lag),
 * also after a third worker joined with nothing to read; the
 * windowed count's output holds every (key, window) once with the oracle's count and sum, the
 * state split over both workers' tasks; a second pipeline under the same group is refused.
 * Killing workers mid-transaction is test/cluster/scaleout.test.ts (separate processes).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQuery } from "../../src/api/streaming/query.js";
import { F, prometheusMetrics, Session, type StreamingQueryProgress } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "../connectors/kafka-helpers.js";
import { clusterStateDir } from "./cluster-state-dir.js";
import { eventsFrom, until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
const PARTITIONS = 4;

function session() {
  return Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.streaming.pollingDelay", "50ms").getOrCreate();
}

async function readAll(topic: string, partitions: number): Promise<{ key: string | null; value: string }[]> {
  const client = testClient(bootstrap, true);
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  try {
    const out: { key: string | null; value: string }[] = [];
    for (let p = 0; p < partitions; p++) {
      const tp = { topic, partition: p };
      const { earliest, latest } = (await admin.offsetRange([tp])).get(`${topic}-${p}`)!;
      for (let from = earliest; from < latest; ) {
        const recs = await fetcher.fetch(tp, from, latest);
        if (!recs.length) break;
        for (const r of recs) out.push({ key: r.key ? Buffer.from(r.key).toString() : null, value: Buffer.from(r.value!).toString() });
        from = recs[recs.length - 1]!.offset + 1;
      }
    }
    return out;
  } finally {
    await fetcher.close();
    await admin.close();
  }
}

/** The Kafka sink options of one worker of `group` (static member `slot`). */
const workerOptions = (output: string, group: string, slot: string) => ({
  "kafka.bootstrap.servers": bootstrap,
  topic: output,
  "arus.cluster.group": group,
  "arus.cluster.stateDir": clusterStateDir(),
  "arus.cluster.instanceId": slot,
  "arus.cluster.sessionTimeoutMs": 6000,
});

const events = (s: Session, topic: string) => eventsFrom(s, bootstrap, topic);

function eventJson(id: number, t0: number): { value: string; partition: number } {
  const ts = new Date(t0 + id * 100).toISOString();
  return { value: JSON.stringify({ id, k: `k${id % 5}`, v: id % 7, ts }), partition: id % PARTITIONS };
}

/** The source partitions a worker's progress entry lists (its batch's end offsets). */
function ownedPartitions(p: StreamingQueryProgress, input: string): string[] {
  return Object.keys((p.sources[0]?.endOffset as Record<string, Record<string, number>> | null)?.[input] ?? {});
}

/**
 * Once the group settled and every record was read: each worker's last entry lists the source
 * partitions it owns (batch end = latest offset, offsets-behind metrics 0), and
 * arus_kafka_partition_lag has each partition once, from the worker whose entry lists it.
 */
async function partitionLagsOnce(queries: StreamingQuery[], input: string): Promise<void> {
  const owner = new Map<string, string>();
  for (const q of queries) {
    const p = q.lastProgress!;
    const src = p.sources[0]!;
    assert.deepEqual(src.endOffset, src.latestOffset, "caught up");
    const parts = ownedPartitions(p, input);
    if (parts.length) assert.equal(src.metrics?.maxOffsetsBehindLatest, "0");
    for (const part of parts) {
      assert.equal(owner.get(part), undefined, `partition ${part} in two workers' progress`);
      owner.set(part, p.arus!.cluster!.worker);
    }
  }
  assert.deepEqual([...owner.keys()].sort(), ["0", "1", "2", "3"]);
  const series = [...(await prometheusMetrics(session())).matchAll(/^arus_kafka_partition_lag\{([^}]*)\} (\S+)$/gm)]
    .map(([, labels, value]) => ({ labels: labels!, value: Number(value) }))
    .filter((s) => s.labels.includes(`topic="${input}"`));
  assert.deepEqual(
    series.map((s) => [/partition="(\d+)"/.exec(s.labels)![1], /worker="([^"]+)"/.exec(s.labels)![1], s.value]).sort(),
    [...owner].map(([part, worker]) => [part, worker, 0]).sort(),
  );
}

/** Each worker's batches, one line each: generation, tasks, rows, watermark, late rows, aborts, restores. */
function workerTrace(queries: StreamingQuery[]): string {
  return queries
    .flatMap((q) =>
      q.recentProgress.map((p) => {
        const c = p.arus?.cluster;
        const late = p.stateOperators[0]?.numRowsDroppedByWatermark ?? 0;
        return `${c?.worker}#${p.batchId} g${c?.generationId} tasks=${c?.tasks} in=${p.numInputRows} wm=${p.eventTime?.watermark} late=${late} aborted=${c?.abortedTransactions} restore=${JSON.stringify(c?.restore ?? null)}`;
      }),
    )
    .join("\n");
}

/** Per worker: rows dropped as late, transactions aborted, rebalances and tasks restored. */
function workerSummary(queries: StreamingQuery[]): string {
  return queries
    .map((q) => {
      const late = q.recentProgress.reduce((n, p) => n + (p.stateOperators[0]?.numRowsDroppedByWatermark ?? 0), 0);
      const c = q.lastProgress?.arus?.cluster;
      return `${c?.worker}: late ${late}, aborted ${c?.abortedTransactions}, rebalances ${c?.rebalances}, restored ${c?.restoredTasks}`;
    })
    .join("; ");
}

describe("group mode (two workers, one group)", kafkaSkip(), () => {
  it("stateless: every input id reaches the output exactly once, read by both workers", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gm-in");
    const output = await newTopic(bootstrap, 2, "gm-out");
    const group = `gm-${input}`;
    const t0 = Date.UTC(2026, 0, 1);
    const start = (s: Session, slot: string) =>
      events(s, input)
        .select(F.col("id").cast("string").alias("value"))
        .writeStream.format("kafka")
        .options(workerOptions(output, group, slot))
        .start();
    const queries: StreamingQuery[] = [];
    const readers = () =>
      new Set(queries.flatMap((q) => q.recentProgress.filter((p) => p.numInputRows > 0).map((p) => p.arus?.cluster?.worker)));
    let N = 0;
    const produceChunk = async () => {
      await produce(
        bootstrap,
        input,
        Array.from({ length: 20 }, (_, i) => eventJson(N + i, t0)),
      );
      N += 20;
    };
    try {
      await produceChunk();
      queries.push(await start(session(), "a"));
      await until("worker a's first output", async () => (await readAll(output, 2)).length > 0);
      queries.push(await start(session(), "b"));
      // Input keeps coming while b joins and the group rebalances, until both workers have read some.
      await until("both workers reading", async () => {
        await produceChunk();
        return readers().size === 2;
      });
      await until("every id", async () => (await readAll(output, 2)).length >= N);
      await new Promise((r) => setTimeout(r, 1000)); // a duplicate would show up by now
      const ids = (await readAll(output, 2)).map((r) => Number(r.value)).sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        Array.from({ length: N }, (_, i) => i),
      );
      for (const q of queries) assert.equal(q.exception, null);
      assert.deepEqual([...readers()].sort(), ["a", "b"], "both workers read input");
      await partitionLagsOnce(queries, input);
      // A third worker joins with nothing left to read: the partitions it takes leave the
      // others' progress and lag series by their idle entries after the rebalance.
      queries.push(await start(session(), "c"));
      await until("the partitions spread over three workers", async () => {
        const lists = queries.map((q) => (q.lastProgress ? ownedPartitions(q.lastProgress, input) : []));
        return lists[2]!.length > 0 && new Set(lists.flat()).size === PARTITIONS && lists.flat().length === PARTITIONS;
      });
      await partitionLagsOnce(queries, input);
    } finally {
      for (const q of queries) await q.stop();
    }
  });

  it("an idle worker reports an idle progress entry every noDataProgressEventInterval, as a single query", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gm-idle-in");
    const output = await newTopic(bootstrap, 1, "gm-idle-out");
    const s = session();
    s.conf.set("spark.sql.streaming.noDataProgressEventInterval", "300ms");
    await produce(
      bootstrap,
      input,
      Array.from({ length: 8 }, (_, i) => eventJson(i, Date.UTC(2026, 0, 1))),
    );
    const q = await events(s, input)
      .select(F.col("id").cast("string").alias("value"))
      .writeStream.format("kafka")
      .options(workerOptions(output, `gm-${input}`, "a"))
      .start();
    try {
      await until("every id", async () => (await readAll(output, 1)).length >= 8);
      const lastData = () => q.recentProgress.filter((p) => p.numInputRows > 0).at(-1)!;
      const idleAfter = () => q.recentProgress.filter((p) => p.numInputRows === 0 && p.batchId === lastData().batchId + 1);
      await until("two idle entries after the last batch", async () => idleAfter().length >= 2, 30_000);
      for (const p of idleAfter()) {
        assert.equal(p.arus?.cluster?.worker, "a");
        assert.deepEqual(ownedPartitions(p, input).sort(), ["0", "1", "2", "3"]);
        assert.deepEqual(p.sources[0]!.endOffset, p.sources[0]!.latestOffset, "caught up, lag 0");
      }
      assert.equal(q.exception, null);
    } finally {
      await q.stop();
      s.conf.unset("spark.sql.streaming.noDataProgressEventInterval");
    }
  });

  it("stateful: windowed count and sum, each (key, window) once with the oracle's values, tasks on both workers", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gm-in");
    const output = await newTopic(bootstrap, 1, "gm-out");
    const group = `gm-${input}`;
    const N = 600;
    const t0 = Date.UTC(2026, 0, 1);
    const all = Array.from({ length: N }, (_, i) => eventJson(i, t0));
    // One event far ahead per partition moves the watermark past every window above.
    const flush = Array.from({ length: PARTITIONS }, (_, p) => ({
      value: JSON.stringify({ id: 10_000 + p, k: "flush", v: 0, ts: new Date(t0 + 3_600_000).toISOString() }),
      partition: p,
    }));
    await produce(bootstrap, input, all.slice(0, 100));
    let sent = 100;
    const start = (s: Session, slot: string) =>
      events(s, input)
        .withWatermark("ts", "2 seconds")
        .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
        .agg(F.count("*").alias("n"), F.sum("v").alias("s"))
        .select(F.to_json(F.struct(F.col("window.start").alias("start"), "k", "n", "s")).alias("value"))
        .writeStream.format("kafka")
        .options(workerOptions(output, group, slot))
        .outputMode("append")
        .start();
    const queries: StreamingQuery[] = [];
    const ranTasks = (q: StreamingQuery) => q.recentProgress.some((p) => (p.arus?.cluster?.tasks.length ?? 0) > 0);
    try {
      queries.push(await start(session(), "a"));
      queries.push(await start(session(), "b"));
      // Events keep coming while b joins, until both workers have run state tasks.
      await until("both workers running tasks", async () => {
        if (sent < N - 20) {
          await produce(bootstrap, input, all.slice(sent, sent + 20));
          sent += 20;
        }

        return queries.every(ranTasks);
      });
      await produce(bootstrap, input, all.slice(sent));
      await produce(bootstrap, input, flush);
      const expected = new Map<string, { n: number; s: number }>();
      for (let id = 0; id < N; id++) {
        const start = new Date(Math.floor((t0 + id * 100) / 10_000) * 10_000).toISOString().replace(".000Z", ".000Z");
        const key = `${start}|k${id % 5}`;
        const e = expected.get(key) ?? { n: 0, s: 0 };
        e.n++;
        e.s += id % 7;
        expected.set(key, e);
      }
      const got = async () =>
        (await readAll(output, 1)).map((r) => JSON.parse(r.value) as { start: string; k: string; n: number; s: number });
      await until("every window", async () => (await got()).length >= expected.size, 90_000);
      await new Promise((r) => setTimeout(r, 1000));
      const rows = await got();
      const seen = new Map<string, { n: number; s: number }>();
      for (const r of rows) {
        const key = `${new Date(r.start).toISOString()}|${r.k}`;
        assert.ok(!seen.has(key), `window ${key} written twice`);
        seen.set(key, { n: r.n, s: r.s });
      }
      const wrong = [...expected]
        .filter(([k, e]) => seen.get(k)?.n !== e.n || seen.get(k)?.s !== e.s)
        .map(([k, e]) => [k, seen.get(k) ?? null, e]);
      // A wrong window names itself and what the workers did (late rows, aborts, restores): the CI log keeps only that.
      if (wrong.length) console.log(`worker batches:\n${workerTrace(queries)}`);
      assert.deepEqual(wrong, [], `(key, window) [got, want]: ${JSON.stringify(wrong)}; ${workerSummary(queries)}`);
      assert.deepEqual(new Map([...seen].sort()), new Map([...expected].sort()));
      for (const q of queries) assert.equal(q.exception, null);
      assert.ok(
        queries.every((q) => q.recentProgress.some((p) => (p.arus?.cluster?.tasks.length ?? 0) > 0)),
        "both workers ran state tasks",
      );
    } finally {
      for (const q of queries) await q.stop();
    }
  });

  it("dropDuplicates: an id sent to several partitions reaches the output once, whichever worker read it", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gm-in");
    const output = await newTopic(bootstrap, 1, "gm-out");
    const group = `gm-${input}`;
    const t0 = Date.UTC(2026, 0, 1);
    const start = (s: Session, slot: string) =>
      events(s, input)
        .dropDuplicates(["id"])
        .select(F.col("id").cast("string").alias("value"))
        .writeStream.format("kafka")
        .options(workerOptions(output, group, slot))
        .start();
    const queries: StreamingQuery[] = [];
    try {
      queries.push(await start(session(), "a"));
      queries.push(await start(session(), "b"));
      // Every id twice, on two different partitions, some time apart.
      const N = 200;
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < N; i += 40) {
          await produce(
            bootstrap,
            input,
            Array.from({ length: 40 }, (_, j) => ({ ...eventJson(i + j, t0), partition: (i + j + round) % PARTITIONS })),
          );
        }
      }
      await until("every id", async () => (await readAll(output, 1)).length >= N);
      await new Promise((r) => setTimeout(r, 1500));
      const ids = (await readAll(output, 1)).map((r) => Number(r.value)).sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        Array.from({ length: N }, (_, i) => i),
      );
      for (const q of queries) assert.equal(q.exception, null);
    } finally {
      for (const q of queries) await q.stop();
    }
  });

  it("an idle worker closes its windows once another worker moves the global watermark", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gm-in");
    const output = await newTopic(bootstrap, 1, "gm-out");
    const group = `gm-${input}`;
    const N = 200;
    const t0 = Date.UTC(2026, 0, 1);
    const all = Array.from({ length: N }, (_, i) => eventJson(i, t0));
    const start = (s: Session, slot: string) =>
      events(s, input)
        .withWatermark("ts", "2 seconds")
        .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
        .agg(F.count("*").alias("n"))
        .select(F.to_json(F.struct(F.col("window.start").alias("start"), "k", "n")).alias("value"))
        .writeStream.format("kafka")
        .options(workerOptions(output, group, slot))
        .outputMode("append")
        .start();
    const queries: StreamingQuery[] = [];
    const ranTasks = (q: StreamingQuery) => q.recentProgress.some((p) => (p.arus?.cluster?.tasks.length ?? 0) > 0);
    const inputRows = () => queries.reduce((n, q) => n + q.recentProgress.reduce((m, p) => m + p.numInputRows, 0), 0);
    let sent = 0;
    try {
      queries.push(await start(session(), "a"));
      queries.push(await start(session(), "b"));
      await until("both workers running tasks", async () => {
        if (sent < N) {
          await produce(bootstrap, input, all.slice(sent, sent + 10));
          sent += 10;
        }
        return queries.every(ranTasks);
      });
      await produce(bootstrap, input, all.slice(sent));
      await until("every input row read", async () => inputRows() >= N);
      // Both workers hold open windows and go idle. One event far ahead, in one partition: only
      // its reader and the owner of its task see new data; the other worker's windows close
      // only if it re-reads the global watermark while it has nothing to do.
      await produce(bootstrap, input, [
        { value: JSON.stringify({ id: 10_000, k: "flush", v: 0, ts: new Date(t0 + 3_600_000).toISOString() }), partition: 0 },
      ]);
      const expected = new Map<string, number>();
      for (let id = 0; id < N; id++) {
        const key = `${new Date(Math.floor((t0 + id * 100) / 10_000) * 10_000).toISOString()}|k${id % 5}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      const got = async () => (await readAll(output, 1)).map((r) => JSON.parse(r.value) as { start: string; k: string; n: number });
      await until("every window", async () => (await got()).length >= expected.size, 30_000);
      const seen = new Map((await got()).map((r) => [`${new Date(r.start).toISOString()}|${r.k}`, r.n] as const));
      assert.deepEqual(new Map([...seen].sort()), new Map([...expected].sort()));
      for (const q of queries) assert.equal(q.exception, null);
    } finally {
      for (const q of queries) await q.stop();
    }
  });

  // An attempt that began before the call may have asked for the latest offsets before the
  // records the caller just produced: it found nothing, and processAllAvailable returned then.
  it("processAllAvailable reads the records produced just before it", async () => {
    const input = await newTopic(bootstrap, PARTITIONS, "gm-in");
    const output = await newTopic(bootstrap, 1, "gm-out");
    const group = `gm-${input}`;
    const q = await events(session(), input)
      .select(F.col("id").cast("string").alias("value"))
      .writeStream.format("kafka")
      .options(workerOptions(output, group, "a"))
      .start();
    const p = await testClient(bootstrap).producer(); // one producer: processAllAvailable right after each ack
    try {
      for (let i = 0; i < 30; i++) {
        const e = eventJson(i, 0);
        await p.send([{ topic: input, partition: e.partition, key: null, value: Buffer.from(e.value), headers: [] }]);
        await q.processAllAvailable();
        const ids = (await readAll(output, 1)).map((r) => Number(r.value)).sort((a, b) => a - b);
        assert.deepEqual(
          ids,
          Array.from({ length: i + 1 }, (_, j) => j),
          `round ${i}: processAllAvailable returned before id ${i} was written`,
        );
      }
      assert.equal(q.exception, null);
    } finally {
      await p.close();
      await q.stop();
    }
  });

  it("a different pipeline under a group name in use is refused", async () => {
    const input = await newTopic(bootstrap, 1, "gm-in");
    const output = await newTopic(bootstrap, 1, "gm-out");
    const group = `gm-${input}`;
    await produce(bootstrap, input, [eventJson(0, 0)]);
    const run = (df: ReturnType<typeof events>) =>
      df.writeStream
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", output)
        .option("arus.cluster.group", group)
        .option("arus.cluster.stateDir", clusterStateDir())
        .trigger({ availableNow: true })
        .start();
    const s = session();
    const q1 = await run(events(s, input).select(F.col("id").cast("string").alias("value")));
    await q1.awaitTermination();
    assert.equal(q1.exception, null);
    const q2 = await run(events(s, input).select(F.col("k").alias("value")));
    await q2.awaitTermination().catch(() => {});
    assert.match(String(q2.exception?.message), /CLUSTER_PIPELINE_MISMATCH|different pipeline/);
  });
});
