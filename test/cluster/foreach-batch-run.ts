/**
 * The foreachBatch group-mode process tests' run (not a test file itself): an input topic of
 * JSON events `{id, k, v, ts}` (one second of event time per id), worker processes of
 * fixtures/foreach-batch-worker.ts, and what their function wrote — the table upserted by
 * (task, batchId) and the call log appended without dedupe.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { newTopic, produce } from "../connectors/kafka-helpers.js";
import { bundleChild } from "../recovery/driver.js";
import { Worker } from "./harness/workers.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "foreach-batch-worker.ts");
export const PARTITIONS = 2;
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

export function event(id: number, partition = id % PARTITIONS): { value: string; partition: number } {
  const ts = new Date(T0 + id * STEP_MS).toISOString();
  return { value: JSON.stringify({ id, k: `k${id % KEYS}`, v: id % 7, ts }), partition };
}

export interface Call {
  readonly task: number;
  readonly batchId: number;
  readonly worker: string;
  readonly pid: number;
  readonly values: string[];
}

/** One run of the fixture's workers: its directory (upsert table, call log) and its workers. */
export async function setup(bootstrap: string, query: "stateless" | "stateful", events: number) {
  const input = await newTopic(bootstrap, PARTITIONS, "gfbk-in");
  const dir = mkdtempSync(path.join(tmpdir(), "arus-gfbk-"));
  dirs.push(dir);
  const env = { ARUS_KAFKA_BOOTSTRAP: bootstrap, FB_IN: input, FB_GROUP: `gfbk-${randomUUID().slice(0, 8)}`, FB_QUERY: query, FB_DIR: dir };
  const cmd = await workerCommand();
  const workers: Worker[] = [];
  let produced = 0;
  /** Produces the next `n` events (ids from `produced` on). */
  const produceNext = async (n: number) => {
    await produce(
      bootstrap,
      input,
      Array.from({ length: n }, (_, i) => event(produced + i)),
    );
    produced += n;
  };
  await produceNext(events);
  return {
    input,
    workers,
    produceNext,
    /** How many events were produced (ids 0 to produced − 1). */
    get produced(): number {
      return produced;
    },
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
/** Removes the runs' directories (call it from the test file's `after`). */
export function removeRunDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The calls of a (task, batchId) made more than once: each replay's rows equal the first call's. */
/** The stateless runs' verdict: the upserted table holds the ids 0 … n − 1, each once. */
export function assertEveryIdOnce(upserted: readonly string[], n: number): void {
  const ids = upserted.map(Number).sort((a, b) => a - b);
  assert.deepEqual(
    ids,
    Array.from({ length: n }, (_, i) => i),
  );
}

export function replays(calls: readonly Call[]): Call[][] {
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
export function expectedWindows(n: number): Map<string, { n: number; s: number }> {
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

export function windowsOf(values: readonly string[]): Map<string, { n: number; s: number }> {
  const out = new Map<string, { n: number; s: number }>();
  for (const v of values) {
    const r = JSON.parse(v) as { start: string; k: string; n: number; s: number };
    const key = `${new Date(r.start).toISOString()}|${r.k}`;
    assert.ok(!out.has(key), `window ${key} twice in the upserted table`);
    out.set(key, { n: r.n, s: r.s });
  }
  return out;
}

export async function stopAll(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => (w.alive ? w.kill() : Promise.resolve())));
}
