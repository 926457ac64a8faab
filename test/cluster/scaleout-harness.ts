/**
 * The scale-out harness (a library, not a test file): the recipe of issue #20 — worker
 * processes running the same pipeline file (fixtures/scaleout-pipeline.ts) join and leave while
 * a generator feeds the input topic; one is killed with SIGKILL and restarted; at the end a
 * read_committed reader must see every input record once in out-raw and every (key, window)
 * once with the oracle's count and sum in out. Used by scaleout.test.ts (small),
 * `npm run soak -- --scaleout` (large) and bench/scaleout.ts (figures).
 *
 * `mode: "group"` runs the workers in group mode (`arus.cluster.group`); `mode: "single"` runs
 * today's single-process exactly-once pipeline (`arus.exactlyOnce` + checkpointLocation), where
 * only one worker may run at a time; `mode: "static"` splits the partitions between the workers
 * named in the steps once and for all (`assign`, one exactly-once checkpoint each, each key in
 * one partition): no group, the same processes and checks, a baseline for group mode.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { OutRecord } from "../../src/connectors/kafka/client.js";
import { testClient } from "../connectors/kafka-helpers.js";
import { encodeEvent, generateEvents, oracle, type ScaleoutEvent, type WindowResult, windowKey } from "./harness/events.js";
import { CommittedTail, type OutputRecord, readTopic, type SeenRecord } from "./harness/output.js";
import { type AggVerdict, percentile, type RawVerdict, verifyAgg, verifyRaw } from "./harness/verify.js";
import { processCpuSeconds, Worker, type WorkerEvent, type WorkerRun, workerCommand } from "./harness/workers.js";

export { FLUSH_KEY, generateEvents, oracle } from "./harness/events.js";
export { percentile, verifyAgg, verifyRaw } from "./harness/verify.js";

export type ScaleoutMode = "group" | "single" | "static";

/** At `at` (a fraction of the input: produced, or processed with `preProduce`), do `action` to `worker`. */
export interface ScenarioStep {
  readonly at: number;
  readonly action: "start" | "kill" | "stop";
  readonly worker: string;
  /**
   * A start that arms a named crash point (src/common/crash-points.ts, e.g. `insideSink`: inside
   * the Kafka transaction) two batches after the worker's last: the run kills itself there. The
   * worker's next step must be a start, which first waits (up to 30 s) for that death.
   */
  readonly crashPoint?: string;
  /** Not before this many ms after the previous step ran (e.g. past the session timeout, into the rebalance). */
  readonly afterMs?: number;
  /**
   * A kill that waits (up to 30 s) until the worker's current run has committed a batch of the
   * raw query: killing a worker that owns nothing yet measures no recovery.
   */
  readonly afterOwnBatch?: boolean;
}

/** Crash points of a micro-batch that a Kafka → Kafka exactly-once query passes every batch. */
export const KAFKA_CRASH_POINTS = ["afterOffsetLog", "beforeSink", "insideSink", "afterSink", "beforeCommitLog", "afterCommitLog"] as const;
/** Crash points a group-mode worker passes every batch (runtime/cluster/group-execution.ts): insideSink and afterSendOffsets are inside its transaction. */
export const GROUP_CRASH_POINTS = ["beforeSink", "insideSink", "afterSendOffsets", "afterSink"] as const;

export interface ScaleoutOptions {
  readonly bootstrap: string;
  readonly mode: ScaleoutMode;
  /** Checkpoints (per worker in group mode) live under it. */
  readonly workDir: string;
  readonly steps: readonly ScenarioStep[];
  readonly events?: number;
  readonly keys?: number;
  /** Partitions of every topic (default 6). */
  readonly partitions?: number;
  /** Input rate while producing (events/s, default 500); ignored with preProduce. */
  readonly ratePerSec?: number;
  /** Events per produce call (default 100). */
  readonly chunk?: number;
  /**
   * Produce the whole input before the first step, and read the steps' `at` as the fraction of
   * input records already in out-raw (the benchmark: throughput on a fixed input).
   */
  readonly preProduce?: boolean;
  /** Event time the input covers (default: 2 ms of event time per ms of production). */
  readonly eventTimeSpanMs?: number;
  readonly disorderMs?: number;
  readonly windowMs?: number;
  readonly watermarkDelayMs?: number;
  readonly partitionBy?: "id" | "key";
  readonly seed?: number;
  readonly maxOffsetsPerTrigger?: number;
  readonly triggerMs?: number;
  readonly sessionTimeoutMs?: number;
  readonly transactionTimeoutMs?: number;
  /** Group mode's `arus.cluster.rebalanceProtocol` (default: the option's default, cooperative). */
  readonly rebalanceProtocol?: "cooperative" | "eager";
  /** Give up waiting for the output after this long once the input is all produced (default 60 s). */
  readonly drainTimeoutMs?: number;
  /** How workers start (workers.ts): `tsx` (default) or `bundle`. */
  readonly start?: "tsx" | "bundle";
  readonly tailIntervalMs?: number;
  /** Progress lines (scenario steps, drain). */
  readonly log?: (line: string) => void;
}

export interface Recovery {
  readonly worker: string;
  /** `kill -9`, or the crash point the run died at (`insideSink:12`). */
  readonly how: string;
  readonly killedAt: number;
  /** Source partitions the worker read in its last progress before the kill. */
  readonly partitions: number[];
  /** Kill → first out-raw record from those partitions committed by someone else (ms; null: none). */
  readonly firstRawOutputMs: number | null;
  /** Kill → first window committed after it (ms; null: none). */
  readonly firstAggOutputMs: number | null;
  /** Kill → the same worker started again (ms; null: not restarted). */
  readonly restartedAfterMs: number | null;
}

export interface ScaleoutReport {
  readonly mode: ScaleoutMode;
  readonly topics: { in: string; out: string; outRaw: string };
  readonly group: string;
  readonly events: number;
  readonly inputRecords: number;
  readonly inputBytes: number;
  readonly expectedWindows: number;
  /** The tail saw all of out-raw and every expected window before the drain timeout. */
  readonly drained: boolean;
  readonly raw: RawVerdict;
  readonly agg: AggVerdict;
  /** Records a read_uncommitted reader sees and read_committed does not: aborted transactions' records. */
  readonly aborted: { raw: number; agg: number };
  /**
   * Group mode: the same for the agg query's internal topics (changelog, repartition, progress).
   * A stateful batch killed inside its transaction may have no output yet, but it always wrote
   * these: which of a restarted worker's two queries reaches its armed batch first is timing.
   */
  readonly abortedInternal: number;
  /** First worker's `started` → last input record visible in out-raw. */
  readonly processingMs: number | null;
  readonly throughput: { recordsPerSec: number | null; mbPerSec: number | null };
  /** Input produce → visible in out-raw (read_committed, to within one tail poll), ms. */
  readonly latencyMs: { p50: number | null; p99: number | null; max: number | null };
  readonly recoveries: Recovery[];
  /** Armed crash points that the run did not reach before its next start (killed with SIGKILL instead). */
  readonly crashPointsMissed: string[];
  /** Changes of a worker's source partitions between its progress entries, plus `rebalance` lines. */
  readonly rebalances: number;
  readonly lateDroppedRows: number;
  readonly batches: Record<string, number>;
  /** Input rows each worker's `raw` query read (over all its runs). */
  readonly rawRowsByWorker: Record<string, number>;
  /** CPU seconds: each worker's runs together, and the broker's over the run (scripts/kafka.sh's broker; null when not found). */
  readonly cpuSeconds: { workers: Record<string, number>; broker: number | null };
  readonly workerErrors: string[];
  readonly tailErrors: string[];
  readonly workers: Record<string, WorkerRun[]>;
  /** Every line each worker printed (progress with its `cluster` section, `t` when printed). */
  readonly workerEvents: Record<string, WorkerEvent[]>;
  readonly seconds: number;
}

/** §6's scenario: 1 worker; at 30 % workers 2 and 3 join; at 60 % kill -9 worker 2; at 75 % it restarts with its slot (and dies inside a transaction); at 85 % for good. */
export const GROUP_SCENARIO: readonly ScenarioStep[] = [
  { at: 0, action: "start", worker: "w1" },
  { at: 0.3, action: "start", worker: "w2" },
  { at: 0.3, action: "start", worker: "w3" },
  // Not before w2 has had time to start and take part (a worker's start alone takes seconds on a loaded machine).
  { at: 0.6, action: "kill", worker: "w2", afterMs: 9000 },
  // Back in its slot, armed to die inside its second batch's transaction (records sent, offsets
  // and commit not), then back for good: the aborted records prove a kill hit a transaction.
  { at: 0.75, action: "start", worker: "w2", crashPoint: "insideSink" },
  { at: 0.85, action: "start", worker: "w2" },
];

/**
 * §6's kill during restore (Quix #1146): as GROUP_SCENARIO, but once worker 2 is dead past the
 * session timeout (its partitions and state moving to workers 1 and 3), worker 3 is killed as
 * well, while it restores; both come back at 80 %. `sessionTimeoutMs` as the workers'.
 */
export function restoreKillScenario(sessionTimeoutMs = 6000): ScenarioStep[] {
  return [
    { at: 0, action: "start", worker: "w1" },
    { at: 0.3, action: "start", worker: "w2" },
    { at: 0.3, action: "start", worker: "w3" },
    { at: 0.5, action: "kill", worker: "w2" },
    { at: 0.5, action: "kill", worker: "w3", afterMs: sessionTimeoutMs + 500 },
    { at: 0.8, action: "start", worker: "w2" },
    { at: 0.8, action: "start", worker: "w3" },
  ];
}

/**
 * Today's single-process equivalent: one worker, kill -9 at 60 %; restarted at once armed to
 * crash inside a Kafka transaction (`insideSink`, so the run leaves aborted records for certain);
 * restarted from its checkpoint at 75 %.
 */
export const SINGLE_SCENARIO: readonly ScenarioStep[] = [
  { at: 0, action: "start", worker: "w1" },
  { at: 0.6, action: "kill", worker: "w1" },
  { at: 0.6, action: "start", worker: "w1", crashPoint: "insideSink" },
  { at: 0.75, action: "start", worker: "w1" },
];

/** Start `workers` workers at once (the benchmark's fixed-input runs). */
export function startAll(workers: number): ScenarioStep[] {
  return Array.from({ length: workers }, (_, i) => ({ at: 0, action: "start" as const, worker: `w${i + 1}` }));
}

/**
 * `base` plus `kills` kill -9s at random points in [from, to], each followed a little later by a
 * restart of the same worker (the soak). A kill picks a worker that runs over its whole
 * kill → restart span in `base` and has no step of its own in it. With `crashPoints`, half of
 * the kills restart the worker at once with one of them armed, so it dies a second time there
 * before the restart. `random`: seeded, in [0, 1).
 */
export function withRandomKills(
  base: readonly ScenarioStep[],
  random: () => number,
  kills: number,
  from = 0.05,
  to = 0.95,
  crashPoints: readonly string[] = [],
): ScenarioStep[] {
  const steps = [...base];
  const names = [...new Set(base.map((s) => s.worker))];
  const aliveAt = (w: string, at: number) => {
    let alive = false;
    // A run armed to crash is not killed by the plan: it dies by itself.
    for (const s of [...steps].sort((a, b) => a.at - b.at)) if (s.worker === w && s.at <= at) alive = s.action === "start" && !s.crashPoint;
    return alive;
  };
  const span = (to - from) / kills;
  for (let i = 0; i < kills; i++) {
    // A few tries: the first random point may fall on a base step of every worker.
    for (let attempt = 0; attempt < 10; attempt++) {
      const at = from + span * (i + random() * 0.5);
      const back = at + span * (0.2 + random() * 0.25);
      const free = names.filter((w) => aliveAt(w, at) && !steps.some((s) => s.worker === w && s.at >= at && s.at <= back));
      if (!free.length) continue;
      const worker = free[Math.floor(random() * free.length)]!;
      steps.push({ at, action: "kill", worker });
      if (crashPoints.length && random() < 0.5) {
        steps.push({ at, action: "start", worker, crashPoint: crashPoints[Math.floor(random() * crashPoints.length)]! });
      }
      steps.push({ at: back, action: "start", worker });
      break;
    }
  }
  return steps.sort((a, b) => a.at - b.at);
}

/** The steps in order of `at`; throws on a start of a running worker, a kill or stop of a stopped one, or two workers in single mode. */
export function checkSteps(mode: ScaleoutMode, steps: readonly ScenarioStep[]): ScenarioStep[] {
  const sorted = [...steps].sort((a, b) => a.at - b.at);
  const alive = new Set<string>();
  const crashing = new Set<string>();
  for (const s of sorted) {
    if (crashing.has(s.worker) && s.action !== "start")
      throw new Error(`scenario: ${s.action} of ${s.worker} at ${s.at}, armed to crash: only a start may follow`);
    if (s.action === "start") {
      if (crashing.delete(s.worker)) alive.delete(s.worker);
      if (alive.has(s.worker)) throw new Error(`scenario: ${s.worker} started at ${s.at} while running`);
      if (mode === "single" && alive.size > 0) throw new Error(`scenario: single mode runs one worker at a time (${s.worker} at ${s.at})`);
      alive.add(s.worker);
      if (s.crashPoint) crashing.add(s.worker);
    } else {
      if (!alive.has(s.worker)) throw new Error(`scenario: ${s.action} of ${s.worker} at ${s.at}, which is not running`);
      alive.delete(s.worker);
    }
  }
  if (crashing.size) throw new Error(`scenario: ${[...crashing].join(", ")} armed to crash with no restart after it`);
  return sorted;
}

/** The broker of scripts/kafka.sh (its pid file under ARUS_KAFKA_DIR, default /tmp/arus-kafka), for its CPU time. */
function brokerCpuSeconds(): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(process.env.ARUS_KAFKA_DIR ?? "/tmp/arus-kafka", "broker.pid"), "utf8").trim());
    return processCpuSeconds(pid);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runScaleout(o: ScaleoutOptions): Promise<ScaleoutReport> {
  const t0 = Date.now();
  const log = o.log ?? (() => {});
  const steps = checkSteps(o.mode, o.steps);
  const partitions = o.partitions ?? 6;
  const n = o.events ?? 3000;
  const rate = o.ratePerSec ?? 500;
  const chunk = o.chunk ?? 100;
  const windowMs = o.windowMs ?? 10_000;
  const delayMs = o.watermarkDelayMs ?? 30_000;
  // A fixed split keeps each worker's windows its own only when a key lives in one partition.
  const partitionBy = o.mode === "static" ? "key" : (o.partitionBy ?? "id");
  const events = generateEvents({
    events: n,
    keys: o.keys ?? 8,
    partitions,
    eventTimeSpanMs: o.eventTimeSpanMs ?? Math.round((2 * n * 1000) / rate),
    disorderMs: o.disorderMs ?? 2000,
    windowMs,
    watermarkDelayMs: delayMs,
    seed: o.seed ?? 1,
    partitionBy,
  });
  const expected = oracle(events, windowMs);
  const encoded = events.map(encodeEvent);
  const partitionOf = new Map<string, number>(encoded.map((e) => [e.value, e.partition]));

  // Topics.
  const suffix = randomUUID().slice(0, 8);
  const topics = { in: `so-in-${suffix}`, out: `so-out-${suffix}`, outRaw: `so-raw-${suffix}` };
  const group = `so-${suffix}`;
  const admin = await testClient(o.bootstrap).admin();
  try {
    for (const t of Object.values(topics)) await admin.createTopic(t, partitions);
  } finally {
    await admin.close();
  }

  // What the tail has seen.
  const rawFirstSeen = new Map<string, SeenRecord>();
  const rawSeen: SeenRecord[] = [];
  const aggSeen: SeenRecord[] = [];
  const windowsSeen = new Set<string>();
  let expectedRawSeen = 0;
  const tail = new CommittedTail(
    o.bootstrap,
    [topics.out, topics.outRaw],
    (r) => {
      if (r.topic === topics.outRaw) {
        rawSeen.push(r);
        if (!rawFirstSeen.has(r.value)) {
          rawFirstSeen.set(r.value, r);
          if (partitionOf.has(r.value)) expectedRawSeen++;
        }
      } else {
        aggSeen.push(r);
        try {
          const w = JSON.parse(r.value) as WindowResult;
          const key = windowKey(w.k, w.ws);
          if (expected.has(key)) windowsSeen.add(key);
        } catch {
          // verifyAgg counts it
        }
      }
    },
    o.tailIntervalMs ?? 200,
  );
  await tail.start();
  const brokerCpu0 = brokerCpuSeconds();
  let brokerCpu1: number | undefined;

  // Workers.
  const command = await workerCommand(o.start ?? "tsx");
  const env: Record<string, string> = {
    ARUS_KAFKA_BOOTSTRAP: o.bootstrap,
    SCALEOUT_MODE: o.mode,
    SCALEOUT_GROUP: group,
    SCALEOUT_IN: topics.in,
    SCALEOUT_OUT: topics.out,
    SCALEOUT_OUT_RAW: topics.outRaw,
    SCALEOUT_DIR: path.join(o.workDir, "ckpt"),
    SCALEOUT_MAX_OFFSETS: String(o.maxOffsetsPerTrigger ?? 2000),
    SCALEOUT_TRIGGER_MS: String(o.triggerMs ?? 250),
    SCALEOUT_WATERMARK: `${delayMs / 1000} seconds`,
    SCALEOUT_WINDOW: `${windowMs / 1000} seconds`,
    SCALEOUT_SESSION_TIMEOUT_MS: String(o.sessionTimeoutMs ?? 6000),
    SCALEOUT_TXN_TIMEOUT_MS: String(o.transactionTimeoutMs ?? 10_000),
    ...(o.rebalanceProtocol ? { SCALEOUT_REBALANCE_PROTOCOL: o.rebalanceProtocol } : {}),
  };
  const workers = new Map<string, Worker>();
  const names = [...new Set(steps.map((s) => s.worker))].sort();
  const staticSplit = new Map<string, number[]>();
  for (const name of names) {
    // static: worker i of W reads partitions i, i + W, ...
    const own = Array.from({ length: partitions }, (_, p) => p).filter((p) => p % names.length === names.indexOf(name));
    const workerEnv = o.mode === "static" ? { ...env, SCALEOUT_PARTITIONS: own.join(",") } : env;
    if (o.mode === "static" && !own.length) throw new Error(`static mode: more workers (${names.length}) than partitions (${partitions})`);
    if (o.mode === "static") staticSplit.set(name, own);
    workers.set(name, new Worker(name, workerEnv, command));
  }

  let produced = 0;
  const producedAt = new Map<string, number>();
  const fraction = () => (o.preProduce ? expectedRawSeen / encoded.length : produced / n);
  let nextStep = 0;
  let lastFiredAt = 0;
  /**
   * Runs the steps due at `upTo`; false when it had to put one off: a step whose `afterMs` has
   * not passed, or a start whose worker's run, armed to crash, is still alive (the input keeps
   * coming meanwhile, so that run reaches its point), for at most 30 s, after which the run is
   * killed and its crash point noted as missed.
   */
  const fire = async (upTo: number): Promise<boolean> => {
    while (nextStep < steps.length && steps[nextStep]!.at <= upTo) {
      const s = steps[nextStep]!;
      const w = workers.get(s.worker)!;
      const last = w.runs.at(-1);
      if (s.afterMs !== undefined && Date.now() - lastFiredAt < s.afterMs) return false;
      if (s.afterOwnBatch && last && Date.now() - last.spawnedAt < 30_000) {
        const runIndex = w.runs.length - 1;
        if (!w.events.some((e) => e.ev === "progress" && e.query === "raw" && e.run === runIndex && (e.numInputRows ?? 0) > 0))
          return false;
      }
      if (s.action === "start" && last?.crashPoint && w.alive) {
        if (Date.now() - last.spawnedAt < 30_000) return false;
        last.crashMissed = true;
        await w.kill();
      }
      nextStep++;
      lastFiredAt = Date.now();
      // The raw query's next batch: it always has records, so it opens a transaction. A group
      // worker has no checkpoint of its own: a new process counts its batches from 0 again.
      const crash = s.crashPoint ? `${s.crashPoint}:${o.mode === "group" ? 1 : w.lastBatchId("raw") + 1}` : undefined;
      log(`scaleout: ${(Math.min(upTo, 1) * 100).toFixed(0)} %: ${s.action} ${s.worker}${crash ? ` armed to crash at ${crash}` : ""}`);
      if (s.action === "start") w.start(crash);
      else if (s.action === "kill") await w.kill();
      else await w.stop();
    }
    return true;
  };
  const fireAll = async (upTo: number) => {
    while (!(await fire(upTo))) await sleep(100);
  };

  const producer = await testClient(o.bootstrap).producer();
  const send = async (recs: typeof encoded) => {
    const out: OutRecord[] = recs.map((e) => ({
      topic: topics.in,
      partition: e.partition,
      key: Buffer.from(e.key),
      value: Buffer.from(e.value),
      headers: [],
    }));
    const at = Date.now();
    await producer.send(out);
    for (const e of recs) producedAt.set(e.value, at);
  };

  const regular = encoded.slice(0, n);
  const flush = encoded.slice(n);
  let drained = false;
  const isDrained = () => expectedRawSeen === encoded.length && windowsSeen.size === expected.size;
  try {
    if (o.preProduce) {
      for (let i = 0; i < regular.length; i += 5000) await send(regular.slice(i, i + 5000));
      await send(flush);
      produced = n;
      // Steps by processed fraction.
      const deadline = () => Date.now() + (o.drainTimeoutMs ?? 60_000);
      let until = deadline();
      while (nextStep < steps.length && Date.now() < until) {
        const before = nextStep;
        await fire(fraction());
        if (nextStep !== before) until = deadline();
        await sleep(50);
      }
    } else {
      const startedAt = Date.now();
      for (let i = 0; i < regular.length; i += chunk) {
        await fire(fraction());
        await send(regular.slice(i, i + chunk));
        produced = Math.min(n, i + chunk);
        const due = startedAt + (produced / rate) * 1000;
        if (due > Date.now()) await sleep(due - Date.now());
      }
      await fireAll(1);
      await send(flush);
    }
    await fireAll(Number.POSITIVE_INFINITY);
    log(`scaleout: input produced (${encoded.length} records); waiting for the output`);
    const until = Date.now() + (o.drainTimeoutMs ?? 60_000);
    // No live worker left (all failed, or the scenario stopped them): nothing more will come.
    const anyAlive = () => [...workers.values()].some((w) => w.alive);
    while (!isDrained() && Date.now() < until && anyAlive()) await sleep(100);
    drained = isDrained();
    log(
      `scaleout: ${drained ? "drained" : "drain timed out"}: out-raw ${expectedRawSeen}/${encoded.length}, windows ${windowsSeen.size}/${expected.size}`,
    );
  } finally {
    brokerCpu1 = brokerCpuSeconds();
    await producer.close();
    await Promise.all([...workers.values()].map((w) => w.stop()));
    await tail.stop();
  }

  // The final read: everything, to the end, both isolation levels.
  const [rawC, rawU, aggC, aggU] = await Promise.all([
    readTopic(o.bootstrap, topics.outRaw, true),
    readTopic(o.bootstrap, topics.outRaw, false),
    readTopic(o.bootstrap, topics.out, true),
    readTopic(o.bootstrap, topics.out, false),
  ]);
  let abortedInternal = 0;
  if (o.mode === "group") {
    for (const t of ["changelog", "repartition", "progress"].map((k) => `arus-${group}-agg-${k}`)) {
      const [c, u] = await Promise.all([readTopic(o.bootstrap, t, true), readTopic(o.bootstrap, t, false)]);
      abortedInternal += u.length - c.length;
    }
  }
  const raw = verifyRaw(
    encoded.map((e) => e.value),
    rawC.map((r) => r.value),
  );
  const agg = verifyAgg(
    expected,
    aggC.map((r) => r.value),
  );
  // Evidence for a repeat: every copy's place in out-raw and its source partition, beside the workers' logs.
  const logDir = process.env.SCALEOUT_LOG_DIR;
  if (logDir && raw.duplicates > 0) {
    const copies = new Map<string, OutputRecord[]>();
    for (const r of rawC) copies.set(r.value, [...(copies.get(r.value) ?? []), r]);
    const repeated = [...copies].filter(([, rs]) => rs.length > 1);
    const lines = repeated.map(([value, rs]) =>
      JSON.stringify({ value, sourcePartition: partitionOf.get(value), copies: rs.map((r) => [r.partition, r.offset, r.createTime]) }),
    );
    writeFileSync(path.join(logDir, "duplicates.jsonl"), `${lines.join("\n")}\n`);
  }

  // Figures.
  const allEvents = [...workers.values()].flatMap((w) => w.events);
  const firstStarted = minOf(allEvents.filter((e) => e.ev === "started").map((e) => e.t));
  const lastRaw = maxOf([...rawFirstSeen.values()].map((r) => r.seenAt));
  const processingMs = Number.isFinite(firstStarted) && Number.isFinite(lastRaw) && lastRaw > firstStarted ? lastRaw - firstStarted : null;
  const inputBytes = encoded.reduce((s, e) => s + Buffer.byteLength(e.value) + Buffer.byteLength(e.key), 0);
  const latencies: number[] = [];
  for (const [value, r] of rawFirstSeen) {
    const at = producedAt.get(value);
    if (at !== undefined) latencies.push(r.seenAt - at);
  }
  const recoveries: Recovery[] = [];
  for (const w of workers.values()) {
    w.runs.forEach((run, i) => {
      if (Worker.diedAt(run) === undefined) return;
      recoveries.push(recovery(w.name, run, staticSplit.get(w.name), w.runs[i + 1], w.events, partitions, rawSeen, aggSeen, partitionOf));
    });
  }
  const batches: Record<string, number> = {};
  const rawRowsByWorker: Record<string, number> = {};
  for (const w of workers.values()) {
    batches[w.name] = w.events.filter((e) => e.ev === "progress").length;
    rawRowsByWorker[w.name] = w.events.reduce((s, e) => s + (e.ev === "progress" && e.query === "raw" ? (e.numInputRows ?? 0) : 0), 0);
  }
  const report: ScaleoutReport = {
    mode: o.mode,
    topics,
    group,
    events: n,
    inputRecords: encoded.length,
    inputBytes,
    expectedWindows: expected.size,
    drained,
    raw,
    agg,
    aborted: { raw: rawU.length - rawC.length, agg: aggU.length - aggC.length },
    abortedInternal,
    processingMs,
    throughput: {
      recordsPerSec: processingMs ? Math.round((encoded.length * 1000) / processingMs) : null,
      mbPerSec: processingMs ? Number(((inputBytes * 1000) / processingMs / 1e6).toFixed(3)) : null,
    },
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
    recoveries,
    crashPointsMissed: [...workers.values()].flatMap((w) => w.runs.filter((r) => r.crashMissed).map((r) => `${w.name}: ${r.crashPoint}`)),
    rebalances: [...workers.values()].reduce((s, w) => s + countRebalances(w.events), 0),
    lateDroppedRows: allEvents.reduce((s, e) => s + (e.ev === "progress" && e.query === "agg" ? (e.dropped ?? 0) : 0), 0),
    batches,
    rawRowsByWorker,
    cpuSeconds: {
      workers: Object.fromEntries(
        [...workers.values()].map((w) => [w.name, Number(w.runs.reduce((c, r) => c + (r.cpuSeconds ?? 0), 0).toFixed(2))]),
      ),
      broker: brokerCpu0 !== undefined && brokerCpu1 !== undefined ? Number((brokerCpu1 - brokerCpu0).toFixed(2)) : null,
    },
    workerErrors: [...workers.values()].flatMap((w) => w.errors()),
    tailErrors: tail.errors,
    workers: Object.fromEntries([...workers.values()].map((w) => [w.name, w.runs])),
    workerEvents: Object.fromEntries([...workers.values()].map((w) => [w.name, w.events])),
    seconds: Math.round((Date.now() - t0) / 1000),
  };
  return report;
}

function recovery(
  worker: string,
  run: WorkerRun,
  fixed: number[] | undefined,
  nextRun: WorkerRun | undefined,
  events: readonly WorkerEvent[],
  partitions: number,
  rawSeen: readonly SeenRecord[],
  aggSeen: readonly SeenRecord[],
  partitionOf: ReadonlyMap<string, number>,
): Recovery {
  const killedAt = Worker.diedAt(run)!;
  // Its fixed split (static mode), else those of its last progress (this run's, else an earlier one's), else all.
  const last = events.filter((e) => e.ev === "progress" && e.query === "raw" && e.t <= killedAt && e.partitions?.length).at(-1);
  const owned = fixed ?? last?.partitions ?? Array.from({ length: partitions }, (_, i) => i);
  const ownedSet = new Set(owned);
  // CreateTime after the kill: sent by a live worker, not by the killed one.
  const after = (r: SeenRecord) => r.createTime > killedAt;
  const firstRaw = minOf(rawSeen.filter((r) => after(r) && ownedSet.has(partitionOf.get(r.value) ?? -1)).map((r) => r.seenAt));
  const firstAgg = minOf(aggSeen.filter(after).map((r) => r.seenAt));
  return {
    worker,
    how: run.killedAt !== undefined ? "kill -9" : run.crashPoint!,
    killedAt,
    partitions: owned,
    firstRawOutputMs: Number.isFinite(firstRaw) ? firstRaw - killedAt : null,
    firstAggOutputMs: Number.isFinite(firstAgg) ? firstAgg - killedAt : null,
    restartedAfterMs: nextRun ? nextRun.spawnedAt - killedAt : null,
  };
}

/**
 * Rebalances a worker went through: per run and query, the changes of its partitions between
 * progress lines or of the group generation (`cluster.generation` / `cluster.generationId`, when
 * group mode reports one), whichever is more; plus any `rebalance` lines.
 */
export function countRebalances(events: readonly WorkerEvent[]): number {
  let lines = 0;
  const seen = new Map<string, { parts?: string; gen?: number; partChanges: number; genChanges: number }>();
  for (const e of events) {
    if (e.ev === "rebalance") lines++;
    if (e.ev !== "progress") continue;
    const key = `${e.run}/${e.query}`;
    const s = seen.get(key) ?? { partChanges: 0, genChanges: 0 };
    const parts = e.partitions ? [...e.partitions].sort((a, b) => a - b).join(",") : undefined;
    if (parts !== undefined) {
      if (s.parts !== undefined && s.parts !== parts) s.partChanges++;
      s.parts = parts;
    }
    const c = e.cluster as { generation?: unknown; generationId?: unknown } | null | undefined;
    const gen = typeof c?.generation === "number" ? c.generation : typeof c?.generationId === "number" ? c.generationId : undefined;
    if (gen !== undefined) {
      if (s.gen !== undefined && s.gen !== gen) s.genChanges++;
      s.gen = gen;
    }
    seen.set(key, s);
  }
  return lines + [...seen.values()].reduce((n, s) => n + Math.max(s.partChanges, s.genChanges), 0);
}

/** One line per figure, for logs and failure messages. */
export function describeReport(r: ScaleoutReport): string {
  const rec = r.recoveries
    .map(
      (x) =>
        `${x.worker} ${x.how}: partitions [${x.partitions.join(",")}], first out-raw from them after ${x.firstRawOutputMs ?? "-"} ms, first window after ${x.firstAggOutputMs ?? "-"} ms, restarted after ${x.restartedAfterMs ?? "-"} ms`,
    )
    .join("; ");
  return [
    `mode ${r.mode}, ${r.inputRecords} input records (${r.events} events + flush), ${r.expectedWindows} windows, ${r.seconds} s, drained: ${r.drained}`,
    `out-raw: ${r.raw.committed} committed, ${r.raw.duplicates} duplicated, ${r.raw.missing} missing, ${r.raw.unexpected} unexpected`,
    `out: ${r.agg.committed} committed, ${r.agg.duplicates} duplicated, ${r.agg.missing} missing, ${r.agg.unexpected} unexpected, ${r.agg.wrong} wrong`,
    `aborted records (read_uncommitted - read_committed): out-raw ${r.aborted.raw}, out ${r.aborted.agg}${r.mode === "group" ? `, agg's internal topics ${r.abortedInternal}` : ""}`,
    `throughput ${r.throughput.recordsPerSec ?? "-"} records/s, latency p50 ${r.latencyMs.p50 ?? "-"} ms p99 ${r.latencyMs.p99 ?? "-"} ms, rebalances ${r.rebalances}, late rows dropped ${r.lateDroppedRows}`,
    `batches ${JSON.stringify(r.batches)}, raw rows read ${JSON.stringify(r.rawRowsByWorker)}, CPU s ${JSON.stringify(r.cpuSeconds)}${rec ? `; ${rec}` : ""}`,
    ...(r.raw.examples.length || r.agg.examples.length ? [`examples: ${[...r.raw.examples, ...r.agg.examples].join("; ")}`] : []),
    ...(r.crashPointsMissed.length ? [`crash points not reached: ${r.crashPointsMissed.join(", ")}`] : []),
    ...r.workerErrors,
    ...(r.tailErrors.length ? [`tail errors: ${r.tailErrors.join("; ")}`] : []),
  ].join("\n");
}

export type { AggVerdict, RawVerdict, ScaleoutEvent, WorkerEvent, WorkerRun };

/** Math.min / Math.max over an array of any length (a spread of 300 000 overflows the stack); ±Infinity when empty, as theirs. */
function minOf(xs: readonly number[]): number {
  let m = Number.POSITIVE_INFINITY;
  for (const x of xs) if (x < m) m = x;
  return m;
}

function maxOf(xs: readonly number[]): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const x of xs) if (x > m) m = x;
  return m;
}
