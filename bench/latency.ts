/**
 * End-to-end latency (issue: "a producer feeding events at a fixed rate (10 k/s) into a
 * windowed count in update mode; p50/p99/max from event creation to sink, with and without
 * checkpointing").
 *
 *   node --import tsx bench/latency.ts [--rate 10000] [--seconds 10] [--engine dist|src]
 *        [--polling-delay 10ms] [--cpu-prof DIR]   (with node --enable-source-maps for .ts lines)
 *
 * Producer: in this process, on a 1 ms timer, it appends every event whose scheduled creation
 * time t0 + seq / rate has passed to a memory stream (event time = creation time). Latency is
 * measured from the *scheduled* creation time, so time an event waits because the thread was
 * busy running a batch (or for the producer's next tick, < 1 ms) counts — no coordinated
 * omission.
 * Query: withWatermark(ts, 4 s) → groupBy(window(ts, 1 s)) → count(), max(seq) → update mode →
 * foreachBatch sink, default trigger (micro-batches back to back, polling every
 * spark.sql.streaming.pollingDelay when idle; the memory stream's addData ends that wait
 * early through StreamSource.onDataAvailable). The sink collects the batch's rows; max(seq)
 * over them is the newest event delivered, and every event up to it not yet delivered gets
 * latency = now − its creation time. The first second is a warm-up and not counted.
 * Per-batch figures come from the progress events (durationMs.triggerExecution and its parts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type * as Arus from "../src/index.js";
import { loadEngine } from "./arus/run.js";
import { cpuSeconds, loadAverage } from "./lib/proc.js";
import { Profiler } from "./lib/profiler.js";

export interface LatencyResult {
  name: string;
  checkpoint: boolean;
  rate: number;
  seconds: number;
  events: number;
  achievedRate: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  batches: number;
  eventsPerBatch: number;
  /** Mean durationMs per progress key, over the measured batches. */
  meanBatchMs: Record<string, number>;
  cpuS: number;
  pollingDelay: string;
  load: string;
}

function quantile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export async function latencyRun(
  arus: typeof Arus,
  opts: { rate: number; seconds: number; checkpoint: boolean; pollingDelay: string; warmupSeconds?: number; profile?: string },
): Promise<LatencyResult> {
  const warmup = opts.warmupSeconds ?? 1;
  const session = arus.Session.builder()
    .appName("arus-latency")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.streaming.pollingDelay", opts.pollingDelay)
    .getOrCreate();
  const F = arus.functions;
  const ms = session.memoryStream("seq BIGINT, ts TIMESTAMP");
  const total = Math.round(opts.rate * (opts.seconds + warmup));
  const created = new Float64Array(total); // performance.now() ms
  const latency = new Float64Array(total);
  let delivered = -1;
  let produced = 0;
  let firstMeasured = Math.round(opts.rate * warmup);
  const progress: { numInputRows: number; durationMs?: Record<string, number>; batchId: number }[] = [];
  session.streams.addListener({ onQueryProgress: (e) => progress.push(e.progress as (typeof progress)[number]) });

  const df = ms
    .toDF()
    .withWatermark("ts", "4 seconds")
    .groupBy(F.window("ts", "1 second"))
    .agg(F.count("*").alias("n"), F.max("seq").alias("max_seq"));
  const dir = opts.checkpoint ? mkdtempSync(path.join(tmpdir(), "arus-latency-")) : null;
  let w = df.writeStream.outputMode("update").foreachBatch(async (batch) => {
    let maxSeq = -1;
    for (const r of await batch.collect()) maxSeq = Math.max(maxSeq, Number(r.max_seq));
    const now = performance.now();
    for (let s = delivered + 1; s <= maxSeq; s++) latency[s] = now - created[s]!;
    if (maxSeq > delivered) delivered = maxSeq;
  });
  if (dir) w = w.option("checkpointLocation", dir);
  const q = await w.start();

  const wallT0 = Date.now();
  const t0 = performance.now();
  const cpu0 = cpuSeconds();
  const profiler = opts.profile ? new Profiler() : null;
  await profiler?.start();
  let batchAtMeasureStart = -1;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - t0) * opts.rate) / 1000) + 1);
      if (due > produced) {
        const rows: [number, Date][] = [];
        for (let s = produced; s < due; s++) {
          const at = t0 + (s * 1000) / opts.rate;
          created[s] = at;
          rows.push([s, new Date(wallT0 + Math.floor(at - t0))]);
        }
        ms.addData(rows);
        produced = due;
      }
      if (batchAtMeasureStart < 0 && produced >= firstMeasured) batchAtMeasureStart = progress.length;
      if (produced >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await q.processAllAvailable();
  const cpuS = cpuSeconds() - cpu0;
  if (profiler && opts.profile) await profiler.stop(opts.profile);
  await q.stop();
  await session.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (q.exception) throw q.exception;

  firstMeasured = Math.min(firstMeasured, delivered + 1);
  const lat = Float64Array.from(latency.subarray(firstMeasured, delivered + 1)).sort();
  const measured = progress.slice(Math.max(0, batchAtMeasureStart)).filter((p) => p.numInputRows > 0);
  const keys = new Set(measured.flatMap((p) => Object.keys(p.durationMs ?? {})));
  const meanBatchMs: Record<string, number> = {};
  for (const k of keys) meanBatchMs[k] = measured.reduce((n, p) => n + (p.durationMs?.[k] ?? 0), 0) / Math.max(1, measured.length);
  const events = lat.length;
  return {
    name: `windowed count, update mode, ${opts.checkpoint ? "checkpoint" : "no checkpoint"}`,
    checkpoint: opts.checkpoint,
    rate: opts.rate,
    seconds: opts.seconds,
    events,
    achievedRate: (produced / (performance.now() - t0)) * 1000,
    p50Ms: quantile(lat, 0.5),
    p90Ms: quantile(lat, 0.9),
    p99Ms: quantile(lat, 0.99),
    p999Ms: quantile(lat, 0.999),
    maxMs: lat.length ? lat[lat.length - 1]! : Number.NaN,
    batches: measured.length,
    eventsPerBatch: measured.reduce((n, p) => n + p.numInputRows, 0) / Math.max(1, measured.length),
    meanBatchMs,
    cpuS,
    pollingDelay: opts.pollingDelay,
    load: loadAverage(),
  };
}

export async function latencyBenchmarks(
  arus: typeof Arus,
  seconds: number,
  rate = 10_000,
  pollingDelay = "10ms",
  profileDir?: string,
): Promise<LatencyResult[]> {
  const prof = (name: string) => (profileDir ? path.join(profileDir, `latency-${name}.cpuprofile`) : undefined);
  return [
    await latencyRun(arus, { rate, seconds, checkpoint: false, pollingDelay, profile: prof("no-checkpoint") }),
    await latencyRun(arus, { rate, seconds, checkpoint: true, pollingDelay, profile: prof("checkpoint") }),
  ];
}

export function latencyTable(rs: LatencyResult[]): string {
  const f = (x: number) => x.toFixed(2);
  const lines = [
    "| run | events | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | batches | events/batch | mean batch ms (triggerExecution) | of which walCommit + commitOffsets ms | CPU s |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rs) {
    const wal = (r.meanBatchMs.walCommit ?? 0) + (r.meanBatchMs.commitOffsets ?? 0);
    lines.push(
      `| ${r.name} (${r.rate / 1000} k events/s, ${r.seconds} s, pollingDelay ${r.pollingDelay}) | ${r.events} | ${f(r.p50Ms)} | ${f(r.p90Ms)} | ${f(r.p99Ms)} | ${f(r.p999Ms)} | ${f(r.maxMs)} | ${r.batches} | ${r.eventsPerBatch.toFixed(0)} | ${f(r.meanBatchMs.triggerExecution ?? 0)} | ${f(wal)} | ${f(r.cpuS)} |`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const arus = await loadEngine(get("--engine") === "src" ? "src" : "dist");
  const rs = await latencyBenchmarks(
    arus,
    Number(get("--seconds") ?? 10),
    Number(get("--rate") ?? 10_000),
    get("--polling-delay") ?? "10ms",
    get("--cpu-prof"),
  );
  process.stdout.write(`${latencyTable(rs)}\n\nload average: ${loadAverage()}\n`);
  if (argv.includes("--json")) process.stdout.write(`${JSON.stringify(rs, null, 2)}\n`);
}
