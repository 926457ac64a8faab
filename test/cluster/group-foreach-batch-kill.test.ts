/**
 * foreachBatch in group mode, a worker killed (SIGKILL) after its function ran for a batch and
 * before the batch's transaction committed — before it began (crash point `beforeSink`), or
 * inside it with its records sent (`insideSink`: a transaction left open on the progress and
 * changelog partitions until its timeout): the task's next owner — the same worker restarted,
 * or another worker after the session timeout — calls the function again with the same
 * (task, batchId) and the same rows before anything new. Worker processes
 * run test/cluster/fixtures/foreach-batch-worker.ts, whose function writes a table upserted by
 * (task, batchId) and a call log appended without dedupe: the upserted table ends exactly right,
 * the call log shows the replay (proof the kill hit where it should).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip, newTopic, produce } from "../connectors/kafka-helpers.js";
import { bundleChild } from "../recovery/driver.js";
import { Worker } from "./harness/workers.js";
import { until } from "./windowed-count-pipeline.js";

const bootstrap = kafkaBootstrap() ?? "";
const FIXTURE = path.join(import.meta.dirname, "fixtures", "foreach-batch-worker.ts");
const PARTITIONS = 2;
const T0 = Date.UTC(2026, 0, 1);
/** One second of event time per id: every batch of 40 rows moves the watermark past windows of every key. */
const STEP_MS = 1000;
const KEYS = 5;

let command: Promise<string[]> | null = null;
function workerCommand(): Promise<string[]> {
  command ??= bundleChild(`import ${JSON.stringify(FIXTURE)};\n`, "foreach-batch-worker").then((out) =>
    out ? [out] : ["--import", "tsx", FIXTURE],
  );
  return command;
}

function event(id: number, partition = id % PARTITIONS): { value: string; partition: number } {
  const ts = new Date(T0 + id * STEP_MS).toISOString();
  return { value: JSON.stringify({ id, k: `k${id % KEYS}`, v: id % 7, ts }), partition };
}

interface Call {
  readonly task: number;
  readonly batchId: number;
  readonly worker: string;
  readonly pid: number;
  readonly values: string[];
}

/** One run of the fixture's workers: its directory (upsert table, call log) and its workers. */
async function setup(query: "stateless" | "stateful", events: number) {
  const input = await newTopic(bootstrap, PARTITIONS, "gfbk-in");
  const dir = mkdtempSync(path.join(tmpdir(), "arus-gfbk-"));
  dirs.push(dir);
  const env = { ARUS_KAFKA_BOOTSTRAP: bootstrap, FB_IN: input, FB_GROUP: `gfbk-${randomUUID().slice(0, 8)}`, FB_QUERY: query, FB_DIR: dir };
  const cmd = await workerCommand();
  const workers: Worker[] = [];
  await produce(
    bootstrap,
    input,
    Array.from({ length: events }, (_, i) => event(i)),
  );
  return {
    input,
    workers,
    worker(name: string): Worker {
      const w = new Worker(name, env, cmd);
      workers.push(w);
      return w;
    },
    /** The call log, as appended (no dedupe). */
    calls(): Call[] {
      const file = path.join(dir, "calls.jsonl");
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Call);
    },
    /** The upserted table: (task, batchId) → the rows of its last call. */
    upserted(): string[] {
      const up = path.join(dir, "upsert");
      return readdirSync(up)
        .filter((f) => f.endsWith(".json"))
        .flatMap((f) => JSON.parse(readFileSync(path.join(up, f), "utf8")) as string[]);
    },
  };
}

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The calls of a (task, batchId) made more than once: each replay's rows equal the first call's. */
function replays(calls: readonly Call[]): Call[][] {
  const byKey = new Map<string, Call[]>();
  for (const c of calls) byKey.set(`${c.task}/${c.batchId}`, [...(byKey.get(`${c.task}/${c.batchId}`) ?? []), c]);
  const repeated = [...byKey.values()].filter((list) => list.length > 1);
  for (const list of repeated) {
    for (const c of list.slice(1))
      assert.deepEqual(c.values, list[0]!.values, `task ${c.task} batch ${c.batchId} replayed with other rows`);
  }
  return repeated;
}

/** (10 s window start | key) → count and sum of ids [0, n) under `event`'s shape. */
function expectedWindows(n: number): Map<string, { n: number; s: number }> {
  const m = new Map<string, { n: number; s: number }>();
  for (let id = 0; id < n; id++) {
    const key = `${new Date(Math.floor((T0 + id * STEP_MS) / 10_000) * 10_000).toISOString()}|k${id % KEYS}`;
    const w = m.get(key) ?? { n: 0, s: 0 };
    w.n++;
    w.s += id % 7;
    m.set(key, w);
  }
  return m;
}

function windowsOf(values: readonly string[]): Map<string, { n: number; s: number }> {
  const out = new Map<string, { n: number; s: number }>();
  for (const v of values) {
    const r = JSON.parse(v) as { start: string; k: string; n: number; s: number };
    const key = `${new Date(r.start).toISOString()}|${r.k}`;
    assert.ok(!out.has(key), `window ${key} twice in the upserted table`);
    out.set(key, { n: r.n, s: r.s });
  }
  return out;
}

async function stopAll(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => (w.alive ? w.kill() : Promise.resolve())));
}

describe("group mode, foreachBatch: a worker killed between its function and its commit", kafkaSkip(), () => {
  it("stateless, killed before its transaction, the same worker restarted: the batch is replayed with the same (task, batchId) and rows", async () => {
    const N = 200;
    const run = await setup("stateless", N);
    try {
      const w1 = run.worker("w1");
      w1.start("beforeSink:2");
      assert.ok(await w1.awaitExit(45_000), "w1 reached its crash point");
      assert.equal(w1.runs[0]!.exit?.signal, "SIGKILL");
      const killedPid = w1.runs[0]!.pid;
      const before = run.calls().filter((c) => c.pid === killedPid);
      assert.ok(before.length > 0, "the killed run called the function");
      w1.start();
      await until("every id upserted", () => run.upserted().length >= N, 45_000);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(w1.errors(), []);
      const ids = run
        .upserted()
        .map(Number)
        .sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        Array.from({ length: N }, (_, i) => i),
      );
      const repeated = replays(run.calls());
      assert.ok(repeated.length > 0, "a (task, batchId) was called twice: the kill came after the function");
      for (const list of repeated) {
        assert.equal(list.length, 2);
        assert.equal(list[0]!.pid, killedPid, "first call: the killed run");
        assert.notEqual(list[1]!.pid, killedPid, "replay: the restarted run");
      }
      // The append-only log holds the replayed rows twice.
      const appended = run.calls().flatMap((c) => c.values);
      assert.ok(appended.length > N, `the call log without dedupe has duplicates (${appended.length} rows for ${N} ids)`);
    } finally {
      await stopAll(run.workers);
    }
  });

  it("stateful, killed inside its transaction, taken over by another worker: the new owner replays the batch over the restored state", async () => {
    const N = 240;
    const run = await setup("stateful", N);
    try {
      const w1 = run.worker("w1");
      w1.start("insideSink:3");
      assert.ok(await w1.awaitExit(45_000), "w1 reached its crash point");
      assert.equal(w1.runs[0]!.exit?.signal, "SIGKILL");
      // Another worker: it gets w1's tasks once w1's session times out (6 s).
      const w2 = run.worker("w2");
      w2.start();
      // One event per partition far ahead: the watermark passes every window of the ids below N.
      await produce(
        bootstrap,
        run.input,
        Array.from({ length: PARTITIONS }, (_, p) => event(N + 1000 + p, p)),
      );
      const expected = expectedWindows(N);
      await until("every window upserted", () => windowsOf(run.upserted()).size >= expected.size, 50_000);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(w2.errors(), []);
      assert.deepEqual(windowsOf(run.upserted()), expected);
      const repeated = replays(run.calls());
      assert.ok(repeated.length > 0, "a (task, batchId) was called twice: the kill came after the function");
      for (const list of repeated) {
        assert.equal(list.length, 2);
        assert.equal(list[0]!.worker, "w1");
        assert.equal(list[1]!.worker, "w2", "the new owner replays the batch");
      }
      const appended = run.calls().flatMap((c) => c.values);
      assert.ok(
        appended.length > expected.size,
        `the call log without dedupe repeats windows (${appended.length} rows for ${expected.size})`,
      );
    } finally {
      await stopAll(run.workers);
    }
  });
});
