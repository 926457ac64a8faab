/**
 * The arus side of bench/kafka.ts, a child process speaking the same line protocol as
 * bench/pyspark/kafka.py (commands on stdin, answers on stdout, one JSON object per line):
 * throughput (availableNow over the whole topic), latency-start / latency-stop (default trigger),
 * exit. `exactlyOnce: true` in a command sets the sink's `arus.exactlyOnce`.
 *
 *   node bench/kafka/arus-engine.ts --bootstrap HOST:PORT [--engine dist|src] [--conf key=value ...]
 *        [--source-option key=value ...]  (options of the Kafka source)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type * as Arus from "../../src/index.js";
import { loadEngine } from "../arus/run.js";
import { cpuSeconds, loadAverage } from "../lib/proc.js";
import { Profiler } from "../lib/profiler.js";

export const SCHEMA = "seq BIGINT, k STRING, ts TIMESTAMP";

interface Cmd {
  cmd: "throughput" | "latency-start" | "latency-stop" | "exit";
  topic?: string;
  out?: string;
  maxOffsets?: number;
  exactlyOnce?: boolean;
  profile?: string;
}

/** bench/kafka.ts's query: Kafka → from_json → watermark → 1 s windowed count per key → to_json → Kafka, update mode. */
export function kafkaQuery(
  arus: typeof Arus,
  session: Arus.Session,
  bootstrap: string,
  cmd: Cmd,
  ckpt: string,
  sourceOptions: Record<string, string> = {},
) {
  const F = arus.functions;
  let r = session.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("subscribe", cmd.topic!)
    .option("startingOffsets", "earliest")
    .options(sourceOptions);
  if (cmd.maxOffsets) r = r.option("maxOffsetsPerTrigger", cmd.maxOffsets);
  const counts = r
    .load()
    .select(F.from_json(F.col("value").cast("string"), SCHEMA).alias("e"))
    .select("e.*")
    .withWatermark("ts", "4 seconds")
    .groupBy(F.window("ts", "1 second"), "k")
    .agg(F.count("*").alias("n"), F.max("seq").alias("max_seq"));
  return counts
    .select(F.col("k").cast("binary").alias("key"), F.to_json(F.struct("window", "k", "n", "max_seq")).alias("value"))
    .writeStream.format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("topic", cmd.out!)
    .option("arus.exactlyOnce", cmd.exactlyOnce ? "true" : "false")
    .outputMode("update")
    .option("checkpointLocation", ckpt);
}

async function main() {
  const argv = process.argv.slice(2);
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const bootstrap = get("--bootstrap")!;
  const t0 = performance.now();
  const arus = await loadEngine(get("--engine") === "src" ? "src" : "dist");
  const session = arus.Session.builder()
    .appName("arus-bench-kafka")
    .master("local[2]")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate();
  // --conf key=value (repeatable): extra session settings, e.g. arus.checkpoint.fsync=false
  argv.forEach((a, i) => {
    if (a !== "--conf") return;
    const kv = argv[i + 1] ?? "";
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new Error(`--conf wants key=value, got '${kv}'`);
    session.conf.set(kv.slice(0, eq), kv.slice(eq + 1));
  });
  // --source-option key=value (repeatable): options of the Kafka source, e.g. arus.latestOffsetsFromFetch=false
  const sourceOptions: Record<string, string> = {};
  argv.forEach((a, i) => {
    if (a !== "--source-option") return;
    const kv = argv[i + 1] ?? "";
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new Error(`--source-option wants key=value, got '${kv}'`);
    sourceOptions[kv.slice(0, eq)] = kv.slice(eq + 1);
  });
  let progressEvents = 0;
  const durations: Record<string, number> = {};
  let dataBatches = 0;
  /** ARUS_LATENCY_TRACE: the latency run's progress events, for bench/kafka/latency-breakdown.ts. */
  const traced: unknown[] = [];
  session.streams.addListener({
    onQueryProgress: (e) => {
      progressEvents++;
      if (process.env.ARUS_LATENCY_TRACE && running) traced.push(e.progress);
      if (Number(e.progress.numInputRows) === 0) return;
      dataBatches++;
      for (const [k, v] of Object.entries(e.progress.durationMs ?? {})) durations[k] = (durations[k] ?? 0) + Number(v);
    },
  });
  const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
  say({ engine: "arus", startupS: (performance.now() - t0) / 1000 });
  let running: {
    q: Arus.StreamingQuery;
    ckpt: string;
    cpu0: number;
    profiler: Profiler | null;
    profile?: string;
    events0: number;
    exactlyOnce: boolean;
  } | null = null;
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = JSON.parse(line) as Cmd;
    if (cmd.cmd === "exit") break;
    if (cmd.cmd === "throughput") {
      const ckpt = mkdtempSync(path.join(tmpdir(), "arus-kafka-bench-"));
      const load = loadAverage();
      const profiler = cmd.profile ? new Profiler() : null;
      await profiler?.start();
      const c0 = cpuSeconds();
      const w0 = performance.now();
      const q = await kafkaQuery(arus, session, bootstrap, cmd, ckpt, sourceOptions).trigger({ availableNow: true }).start();
      await q.awaitTermination();
      const wallS = (performance.now() - w0) / 1000;
      const cpuS = cpuSeconds() - c0;
      if (profiler) await profiler.stop(cmd.profile!);
      if (q.exception) throw q.exception;
      const prog = q.recentProgress;
      rmSync(ckpt, { recursive: true, force: true });
      say({
        done: "throughput",
        wallS,
        cpuS,
        load,
        inputRows: prog.reduce((n, p) => n + Number(p.numInputRows), 0),
        batches: prog.length,
        engineS: prog.reduce((n, p) => n + (p.durationMs?.triggerExecution ?? 0), 0) / 1000,
      });
    } else if (cmd.cmd === "latency-start") {
      const ckpt = mkdtempSync(path.join(tmpdir(), "arus-kafka-latency-"));
      const q = await kafkaQuery(arus, session, bootstrap, cmd, ckpt, sourceOptions).start();
      const profiler = cmd.profile ? new Profiler() : null;
      await profiler?.start();
      running = { q, ckpt, cpu0: cpuSeconds(), profiler, profile: cmd.profile, events0: progressEvents, exactlyOnce: !!cmd.exactlyOnce };
      traced.length = 0;
      dataBatches = 0;
      for (const k of Object.keys(durations)) delete durations[k];
      say({ done: "latency-start" });
    } else if (cmd.cmd === "latency-stop" && running) {
      const cpuS = cpuSeconds() - running.cpu0;
      if (running.profiler) await running.profiler.stop(running.profile!);
      const batches = progressEvents - running.events0;
      await running.q.stop();
      if (running.q.exception) throw running.q.exception;
      rmSync(running.ckpt, { recursive: true, force: true });
      const traceFile = process.env.ARUS_LATENCY_TRACE;
      if (traceFile)
        writeFileSync(`${traceFile}.${running.exactlyOnce ? "exactly-once" : "at-least-once"}.progress.json`, JSON.stringify(traced));
      running = null;
      const meanBatchMs = Object.fromEntries(Object.entries(durations).map(([k, v]) => [k, v / Math.max(1, dataBatches)]));
      say({ done: "latency-stop", cpuS, batches, meanBatchMs });
    }
  }
  await session.stop();
  process.exit(0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
