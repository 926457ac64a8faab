/**
 * A small process harness for group mode's failure tests (not a test file itself): the topics of
 * the scale-out pipeline (fixtures/scaleout-pipeline.ts: `raw` copies each record, `agg` counts
 * and sums per key and window), its input pre-produced, worker processes (harness/workers.ts),
 * and the final verdict read with read_committed and read_uncommitted.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { newTopic, produce } from "../connectors/kafka-helpers.js";
import { tempDirsSync } from "../temp-dirs.js";
import { encodeEvent, generateEvents, oracle, type ScaleoutEvent } from "./harness/events.js";
import { readTopic } from "./harness/output.js";
import { type AggVerdict, type RawVerdict, verifyAgg, verifyRaw } from "./harness/verify.js";
import { Worker, workerCommand } from "./harness/workers.js";

const tmpGpf = tempDirsSync("arus-gpf-");

export const WINDOW_MS = 10_000;
export const DELAY_MS = 30_000;

export interface FailureRun {
  readonly input: string;
  readonly out: string;
  readonly outRaw: string;
  readonly group: string;
  readonly events: ScaleoutEvent[];
  readonly workers: Map<string, Worker>;
  /** A worker of this run (not started). */
  worker(name: string, env?: Record<string, string>): Worker;
  /** Produces the next `n` regular events (fewer at the end); how many it produced. */
  produceNext(n: number): Promise<number>;
  /** Produces the flush events (one per partition, far ahead: every window closes). */
  produceFlush(): Promise<void>;
  /** Input rows the `raw` query of all workers read so far. */
  rawRowsRead(): number;
  /** Committed records in the agg query's changelog topic (its tasks' state changes). */
  changelogRecords(): Promise<number>;
  /** read_committed verdicts, and the aborted records (read_uncommitted − read_committed) of both outputs and agg's repartition topic. */
  verdict(): Promise<{ raw: RawVerdict; agg: AggVerdict; aborted: number }>;
}

export async function failureRun(
  bootstrap: string,
  o: { events: number; partitions: number; env?: Record<string, string>; seed?: number },
): Promise<FailureRun> {
  const input = await newTopic(bootstrap, o.partitions, "gpf-in");
  const out = await newTopic(bootstrap, 2, "gpf-out");
  const outRaw = await newTopic(bootstrap, 2, "gpf-raw");
  const group = `gpf-${randomUUID().slice(0, 8)}`;
  const dir = tmpGpf();
  const events = generateEvents({
    events: o.events,
    keys: 8,
    partitions: o.partitions,
    eventTimeSpanMs: 60_000,
    disorderMs: 2000,
    windowMs: WINDOW_MS,
    watermarkDelayMs: DELAY_MS,
    seed: o.seed ?? 7,
    partitionBy: "id",
  });
  const command = await workerCommand("bundle");
  const workers = new Map<string, Worker>();
  const env = {
    ARUS_KAFKA_BOOTSTRAP: bootstrap,
    SCALEOUT_MODE: "group",
    SCALEOUT_IN: input,
    SCALEOUT_OUT: out,
    SCALEOUT_OUT_RAW: outRaw,
    SCALEOUT_GROUP: group,
    SCALEOUT_DIR: dir,
    SCALEOUT_MAX_OFFSETS: "100",
    SCALEOUT_TRIGGER_MS: "200",
    SCALEOUT_WATERMARK: `${DELAY_MS / 1000} seconds`,
    SCALEOUT_WINDOW: `${WINDOW_MS / 1000} seconds`,
    SCALEOUT_SESSION_TIMEOUT_MS: "6000",
    ...o.env,
  };
  const regular = events.filter((e) => !e.flush);
  let cursor = 0;
  return {
    input,
    out,
    outRaw,
    group,
    events,
    workers,
    worker(name, extra = {}) {
      const w = new Worker(name, { ...env, ...extra }, command);
      workers.set(name, w);
      return w;
    },
    async produceNext(n) {
      const list = regular.slice(cursor, cursor + n);
      cursor += list.length;
      for (let i = 0; i < list.length; i += 200) await produce(bootstrap, input, list.slice(i, i + 200).map(encodeEvent));
      return list.length;
    },
    async produceFlush() {
      await produce(bootstrap, input, events.filter((e) => e.flush).map(encodeEvent));
    },
    rawRowsRead() {
      let n = 0;
      for (const w of workers.values()) for (const e of w.events) if (e.ev === "progress" && e.query === "raw") n += e.numInputRows ?? 0;
      return n;
    },
    async changelogRecords() {
      return (await readTopic(bootstrap, `arus-${group}-agg-changelog`, true)).length;
    },
    async verdict() {
      const repartition = `arus-${group}-agg-repartition`;
      const [rawC, aggC, rawU, aggU, repC, repU] = await Promise.all([
        readTopic(bootstrap, outRaw, true),
        readTopic(bootstrap, out, true),
        readTopic(bootstrap, outRaw, false),
        readTopic(bootstrap, out, false),
        readTopic(bootstrap, repartition, true),
        readTopic(bootstrap, repartition, false),
      ]);
      return {
        raw: verifyRaw(
          events.map((e) => encodeEvent(e).value),
          rawC.map((r) => r.value),
        ),
        agg: verifyAgg(
          oracle(events, WINDOW_MS),
          aggC.map((r) => r.value),
        ),
        aborted: rawU.length - rawC.length + (aggU.length - aggC.length) + (repU.length - repC.length),
      };
    },
  };
}

/** The state letter of a process (/proc/<pid>/stat): "T" when stopped. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

export async function until(what: string, cond: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Both outputs exactly once, read_committed: every input row once in out-raw, every window once with the oracle's count and sum in out. */
export function assertExactlyOnce(v: { raw: RawVerdict; agg: AggVerdict }): void {
  assert.deepEqual(
    { duplicates: v.raw.duplicates, missing: v.raw.missing, unexpected: v.raw.unexpected },
    { duplicates: 0, missing: 0, unexpected: 0 },
    `out-raw: ${v.raw.examples.join("; ")}`,
  );
  assert.deepEqual(
    { duplicates: v.agg.duplicates, missing: v.agg.missing, unexpected: v.agg.unexpected, wrong: v.agg.wrong },
    { duplicates: 0, missing: 0, unexpected: 0, wrong: 0 },
    `out: ${v.agg.examples.join("; ")}`,
  );
}
