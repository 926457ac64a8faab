/**
 * Runs the comparison queries in arus, one after the other in this process, and prints one JSON
 * object per query on stdout (bench/compare.ts reads them; bench/pyspark/run.py prints the same
 * fields).
 *
 *   node --import tsx bench/arus/run.ts --data bench/data/out/quick [--queries q0,q5] [--max-files 1]
 *        [--no-checksum] [--engine dist|src] [--cpu-prof DIR] [--keep-checkpoint DIR] [--state-threads N|local|auto]
 *        [--conf key=value]...   (e.g. --conf arus.state.aggregation.columnar=false: aggregation state in the row stores)
 *        [--durations]   (also print each progress durationMs phase summed over the timed run's batches)
 *        [--batches]     (also print each batch's input rows and durationMs phases)
 *        (`--queries none`: the warm-up only, to tell what it costs from what a query adds)
 *
 * Per query (every query's timed run first, then the checksum runs):
 *   1. timed run: file source → query → `noop` sink, trigger availableNow. Figures:
 *      wallS (start() → the query ends by itself), engineS (sum of the progress events'
 *      durationMs.triggerExecution), cpuS (this process, user + system, all threads),
 *      peakRssBytes (VmHWM, reset before the run), inputRows (sum of numInputRows), batches.
 *   2. checksum run (separate, not timed): the same query with a fresh checkpoint and a
 *      foreachBatch sink that collects every output row; rows are canonicalized and hashed as in
 *      bench/lib/canonical.ts → outputRows, checksum.
 * Before the first query, a warm-up run of q2 over the first bid file (not reported) loads and
 * compiles the engine's code paths, as the PySpark runner warms up the JVM (and one of q7 when
 * `arus.exec.partialAggregation` is on, which starts the stage-A threads).
 *
 * `--cpu-prof DIR` writes DIR/<query>.cpuprofile for each timed run (inspector profiler, only
 * the query, call frames mapped back to the .ts sources through the source maps when node runs
 * with --enable-source-maps); `node --import tsx bench/profile.ts DIR/q7.cpuprofile` lists the
 * hot spots.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type * as Arus from "../../src/index.js";
import type { DataFrame, Session } from "../../src/index.js";
import { formatOf } from "../data/parquet.js";
import { Checksum, canonForType } from "../lib/canonical.js";
import type { EngineRun } from "../lib/engine-run.js";
import { cpuSeconds, loadAverage, mainThreadCpuSeconds, peakRssBytes, resetPeakRss } from "../lib/proc.js";
import { Profiler } from "../lib/profiler.js";
import { QUERIES, type QueryDef, queryByName } from "./queries.js";

/** `mainCpuS`: CPU seconds of the main thread alone (the rest of `cpuS` is the worker threads'). */
export type QueryRun = EngineRun & { engine: "arus"; mainCpuS: number | null };

/**
 * The engine under test: the built package (dist/, what users run; bench/compare.ts builds it
 * first) or, with `--engine src`, the TypeScript sources through tsx (tsx compiles with
 * keepNames, which wraps closures in `__name` calls and slows hot loops measurably).
 */
export async function loadEngine(which: "dist" | "src"): Promise<typeof Arus> {
  return (await import(which === "dist" ? "../../dist/index.js" : "../../src/index.js")) as typeof Arus;
}

export interface Bench {
  arus: typeof Arus;
  session: Session;
  data: string;
  maxFiles: number;
  /** `--keep-checkpoint DIR`: the timed run's checkpoint stays in DIR/<query> (state sizes). */
  keepCheckpoint?: string;
}

/** `stateThreads`: arus.state.threads, the threads owning aggregation state partitions (default: the engine's, "auto"). */
export function newSession(arus: typeof Arus, stateThreads?: string): Session {
  const builder = arus.Session.builder()
    .appName("arus-bench")
    .master("local[2]")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2");
  return (stateThreads === undefined ? builder : builder.config("arus.state.threads", stateThreads)).getOrCreate();
}

/** Every `--conf key=value` of the command line set on the session. */
function withConf(session: Session, args: readonly string[]): Session {
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== "--conf") continue;
    const kv = args[i + 1] ?? "";
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new Error(`--conf wants key=value, got '${kv}'`);
    session.conf.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return session;
}

interface Progress {
  batchId: number;
  numInputRows: number;
  durationMs?: Record<string, number>;
}

type Sink = (df: DataFrame) => ReturnType<DataFrame["writeStream"]["format"]>;

/** CPU seconds of the process and of the main thread, read when a run's query has ended. */
interface CpuAtEnd {
  readonly process: number;
  readonly main: number | null;
}

async function runOnce(
  b: Bench,
  q: QueryDef,
  sink: Sink,
  data = b.data,
  keep?: string,
): Promise<{ progress: Progress[]; wallS: number; cpuAtEnd: CpuAtEnd }> {
  const ckpt = keep ? path.join(keep, q.name) : mkdtempSync(path.join(tmpdir(), `arus-bench-${q.name}-`));
  if (keep) rmSync(ckpt, { recursive: true, force: true });
  const progress: Progress[] = [];
  const listener = {
    onQueryProgress: (e: { progress: Progress }) => {
      progress.push(e.progress);
    },
  };
  b.session.streams.addListener(listener);
  try {
    const df = q.build({ F: b.arus.functions, session: b.session, data, maxFilesPerTrigger: b.maxFiles, format: formatOf(data) });
    const t0 = performance.now();
    const query = await sink(df).outputMode(q.outputMode).trigger({ availableNow: true }).option("checkpointLocation", ckpt).start();
    await query.awaitTermination();
    const wallS = (performance.now() - t0) / 1000;
    // Before the checkpoint is deleted below: removing its files is the benchmark's own work
    // (on the main thread, ~15 % of q5's), not the engine's.
    const cpuAtEnd = { process: cpuSeconds(), main: mainThreadCpuSeconds() };
    if (query.exception) throw query.exception;
    return { progress, wallS, cpuAtEnd };
  } finally {
    b.session.streams.removeListener(listener);
    if (!keep) rmSync(ckpt, { recursive: true, force: true });
  }
}

/** The timed run and, with `checksum`, the checksum run of one query (`main` runs every timed run first). */
export async function runQuery(b: Bench, q: QueryDef, checksum: boolean, profileDir: string | null = null): Promise<QueryRun> {
  const timed = await timedRun(b, q, profileDir);
  return checksum ? { ...timed, ...(await checksumRun(b, q)) } : timed;
}

async function timedRun(b: Bench, q: QueryDef, profileDir: string | null): Promise<QueryRun> {
  const load = loadAverage();
  const profiler = profileDir ? new Profiler() : null;
  await profiler?.start();
  resetPeakRss();
  const cpu0 = cpuSeconds();
  const main0 = mainThreadCpuSeconds();
  const timed = await runOnce(b, q, (df) => df.writeStream.format("noop"), b.data, b.keepCheckpoint);
  const cpuS = timed.cpuAtEnd.process - cpu0;
  const main1 = timed.cpuAtEnd.main;
  const mainCpuS = main0 === null || main1 === null ? null : Math.round((main1 - main0) * 100) / 100;
  const peak = peakRssBytes();
  if (profiler && profileDir) await profiler.stop(path.join(profileDir, `${q.name}.cpuprofile`));
  const inputRows = timed.progress.reduce((n, p) => n + p.numInputRows, 0);
  const engineS = timed.progress.reduce((n, p) => n + (p.durationMs?.triggerExecution ?? 0), 0) / 1000;
  if (process.argv.includes("--durations"))
    process.stderr.write(`${q.name} durationMs summed: ${JSON.stringify(sumDurations(timed.progress))}\n`);
  if (process.argv.includes("--batches"))
    for (const p of timed.progress)
      process.stderr.write(`${q.name} batch ${p.batchId}: ${p.numInputRows} rows ${JSON.stringify(p.durationMs)}\n`);

  return {
    engine: "arus",
    query: q.name,
    title: q.title,
    inputRows,
    batches: timed.progress.length,
    wallS: timed.wallS,
    engineS,
    cpuS,
    mainCpuS,
    peakRssBytes: peak,
    outputRows: null,
    checksum: null,
    checksumS: null,
    load,
  };
}

/** Each durationMs phase summed over the run's batches (`--durations`: where a query's wall time goes). */
function sumDurations(progress: { durationMs?: Record<string, number> }[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const p of progress) for (const [k, v] of Object.entries(p.durationMs ?? {})) sums[k] = (sums[k] ?? 0) + v;
  return sums;
}

/** The query's output rows, canonicalized and hashed (not timed; a fresh checkpoint). */
async function checksumRun(b: Bench, q: QueryDef): Promise<Pick<QueryRun, "outputRows" | "checksum" | "checksumS">> {
  const t = performance.now();
  const sum = new Checksum();
  await runOnce(
    b,
    q,
    (df) =>
      df.writeStream.foreachBatch(async (batch: DataFrame) => {
        const fields = batch.schema.fields;
        const canons = fields.map((f) => canonForType(f.type.kind));
        for (const row of await batch.collect()) {
          sum.add(JSON.stringify(fields.map((f, i) => canons[i]!(row[f.name]))));
        }
      }) as ReturnType<DataFrame["writeStream"]["format"]>,
  );
  return { outputRows: sum.rows, checksum: sum.digest(), checksumS: (performance.now() - t) / 1000 };
}

/** Warm-up (not reported): q2 over a directory holding only the first bid file. */
export async function warmUp(b: Bench): Promise<void> {
  const warmData = mkdtempSync(path.join(tmpdir(), "arus-bench-warm-"));
  try {
    mkdirSync(path.join(warmData, "nexmark/bid"), { recursive: true });
    symlinkSync(path.join(b.data, "nexmark/bid/part-00000.jsonl"), path.join(warmData, "nexmark/bid/part-00000.jsonl"));
    await runOnce(b, queryByName("q2"), (df) => df.writeStream.format("noop"), warmData);
    // With partial aggregation or the state threads on, an aggregation starts (and compiles) the
    // stage-A threads or the state threads too, as q2 does the decode threads: these threads
    // belong to the process, not to a query, and boot once (loading the engine: ~0.4 s of CPU
    // per state thread, which the measured run would otherwise pay). q7's max(struct) keeps its
    // state on the main thread; q5's count is columnar, on the state threads where they are used.
    const stateThreads = b.session.conf.get("arus.state.threads") ?? "auto";
    if (b.session.conf.getBool("arus.exec.partialAggregation") || stateThreads !== "1") {
      await runOnce(b, queryByName("q7"), (df) => df.writeStream.format("noop"), warmData);
      await runOnce(b, queryByName("q5"), (df) => df.writeStream.format("noop"), warmData);
    }
  } finally {
    rmSync(warmData, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const data = path.resolve(get("--data") ?? path.join(import.meta.dirname, "../data/out/quick"));
  const queries = get("--queries") ?? QUERIES.map((q) => q.name).join(",");
  const names = queries === "none" ? [] : queries.split(",");
  // startupS: process start (performance.timeOrigin) → engine loaded and session built.
  const t0 = performance.now();
  const arus = await loadEngine(get("--engine") === "src" ? "src" : "dist");
  const b: Bench = {
    arus,
    session: withConf(newSession(arus, get("--state-threads")), argv),
    data,
    maxFiles: Number(get("--max-files") ?? 1),
    keepCheckpoint: get("--keep-checkpoint"),
  };
  process.stdout.write(
    `${JSON.stringify({ engine: "arus", startupS: performance.now() / 1000, importS: (performance.now() - t0) / 1000, version: process.version })}\n`,
  );
  if (!argv.includes("--no-warmup")) await warmUp(b);
  // Every timed run first, then the checksum runs: a checksum run holds the query's whole output
  // as JS strings (9.2 M lines for q0 and q1), and the heap it leaves would sit under the next
  // queries' timed runs (2.5–3 GB of RSS through q5–q8 in session 17's runs, and slower runs).
  const timed: QueryRun[] = [];
  for (const name of names) timed.push(await timedRun(b, queryByName(name), get("--cpu-prof") ?? null));
  for (const r of timed) {
    const sums = argv.includes("--no-checksum") ? {} : await checksumRun(b, queryByName(r.query));
    process.stdout.write(`${JSON.stringify({ ...r, ...sums })}\n`);
  }
  await b.session.stop();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
