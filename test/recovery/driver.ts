/**
 * Parent side of the crash tests (used by crash.test.ts and scripts/soak.ts): start the child
 * (crash-harness.ts), SIGKILL it at a random moment or let it kill itself at a named crash
 * point, restart it until the input is done, then compare what the sinks committed with an
 * uninterrupted run.
 */

import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readCommittedFiles } from "../../src/connectors/file-stream/index.js";
import { Session } from "../../src/index.js";
import { type ChildConfig, type CrashQuery, PG_MODULE, paths, type SinkKind } from "./crash-harness.js";
import {
  addLateFlushFile,
  duplicates,
  expectedRows,
  inconsistentReplays,
  minus,
  type OutRow,
  outRow,
  readDeliveries,
  replayCount,
  type Workload,
  withoutFlush,
  writeInput,
} from "./workload.js";

const REPO = resolve(import.meta.dirname, "../..");
const HARNESS = join(import.meta.dirname, "crash-harness.ts");

/** Engine confs of every child: frequent state snapshots, short retention (both get exercised). */
export const CHILD_CONF: Record<string, string> = {
  "spark.sql.streaming.stateStore.minDeltasForSnapshot": "2",
  "spark.sql.streaming.minBatchesToRetain": "4",
};

// ---------------------------------------------------------------------------------------------
// PostgreSQL

interface PgClient {
  connect(): Promise<void>;
  end(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

export interface PgEnv {
  url: string;
  /** Resolved URL of the `pg` package, handed to the child (whose bundle lives elsewhere). */
  module: string;
  schema: string;
  client: PgClient;
}

/**
 * The PostgreSQL server of the tests: `ARUS_PG_URL`, else one started by
 * scripts/start-postgres.sh when PostgreSQL is installed. Null (with the reason) when there is
 * none, or when the `pg` package is missing; with ARUS_REQUIRE_PG=1 that is an error instead.
 */
export async function connectPg(): Promise<PgEnv | { skip: string }> {
  const fail = (why: string) => {
    if (process.env.ARUS_REQUIRE_PG === "1") throw new Error(`ARUS_REQUIRE_PG=1 but ${why}`);
    return { skip: why };
  };
  let pg: { Client: new (url: string) => PgClient };
  try {
    pg = ((await import(PG_MODULE)) as { default: typeof pg }).default;
  } catch {
    return fail("the `pg` package is not installed (npm i pg)");
  }
  let url = process.env.ARUS_PG_URL;
  if (!url) {
    try {
      url = execFileSync(join(REPO, "scripts/start-postgres.sh"), {
        env: { ...process.env, ARUS_PG_NO_INSTALL: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      })
        .toString()
        .trim();
    } catch (e) {
      return fail(
        `no ARUS_PG_URL and scripts/start-postgres.sh could not start a server (${String((e as { stderr?: Buffer }).stderr ?? e)
          .trim()
          .split("\n")
          .at(-1)})`,
      );
    }
  }
  const client = new pg.Client(url);
  try {
    await client.connect();
  } catch (e) {
    return fail(`cannot connect to ${url}: ${(e as Error).message}`);
  }
  const schema = `arus_recovery_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  await client.query(`CREATE SCHEMA "${schema}"`);
  return { url, module: import.meta.resolve(PG_MODULE), schema, client };
}

export async function closePg(env: PgEnv, keep = false): Promise<void> {
  if (!keep) await env.client.query(`DROP SCHEMA "${env.schema}" CASCADE`).catch(() => {});
  await env.client.end();
}

// ---------------------------------------------------------------------------------------------
// One child run

export type Outcome = "done" | "killed";

export interface KillPlan {
  /** Kill this many ms after the child printed `boot` (startup, recovery, first batches). */
  afterBootMs?: number;
  /** Kill this many ms after `ready` (every query started). */
  afterReadyMs?: number;
}

export interface RunResult {
  outcome: Outcome;
  /** ms from `ready` to exit (or kill). */
  readyToExitMs: number | null;
  bootToReadyMs: number | null;
  /** A finished run: the file ranges its queries ran through stage A on the decode threads. */
  stageARanges?: number;
  /** Of those, the ranges whose aggregation was skipped (stage A's rows shipped). */
  stageARowRanges?: number;
}

// ---------------------------------------------------------------------------------------------
// The child's code, bundled once per process with esbuild (tsx's own compiler): a child then
// starts in ~0.2 s instead of ~0.6 s through the tsx loader, which is most of a kill cycle.
// ARUS_CRASH_NO_BUNDLE=1 (or no esbuild) runs the TypeScript through tsx instead.

let childCommand: Promise<string[]> | null = null;

async function bundleHarness(): Promise<string[]> {
  const viaTsx = ["--import", "tsx", HARNESS];
  if (process.env.ARUS_CRASH_NO_BUNDLE === "1") return viaTsx;
  const out = await bundleChild(`import { runMain } from ${JSON.stringify(HARNESS)};\nawait runMain();\n`, "harness");
  return out ? [out] : viaTsx;
}

/**
 * Bundles a child's code (`contents`, TypeScript importing the repo's sources) with esbuild into
 * one file under node_modules/.cache (deleted when this process exits); null when esbuild is
 * not there. Also used by the Kafka crash loop (kafka-crash-driver.ts).
 */
export async function bundleChild(contents: string, name: string): Promise<string | null> {
  try {
    const esbuild = (await import("esbuild")) as typeof import("esbuild");
    // Under node_modules so the bundle resolves the repo's packages (and git ignores it).
    const out = join(REPO, "node_modules", ".cache", "arus-recovery", `${name}-${process.pid}.mjs`);
    await esbuild.build({
      stdin: { contents, resolveDir: import.meta.dirname, loader: "ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: out,
      packages: "external",
      logLevel: "error",
      plugins: [
        {
          // Each module keeps its own file name, so `isMain(import.meta.filename)` checks
          // (examples' entry points) stay false inside the bundle, and its own URL, so worker
          // threads (state threads, JSON decoding) start their scripts from the sources.
          name: "keep-import-meta-filename",
          setup(b) {
            b.onLoad({ filter: /\.ts$/ }, async (a) => ({
              contents: (await readFile(a.path, "utf8"))
                .replaceAll("import.meta.filename", JSON.stringify(a.path))
                .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(a.path).href)),
              loader: "ts",
            }));
          },
        },
      ],
    });
    process.once("exit", () => {
      try {
        unlinkSync(out);
      } catch {
        // already gone
      }
    });
    return out;
  } catch {
    return null;
  }
}

export function runChild(cfg: ChildConfig, kill: KillPlan = {}, timeoutMs = 120_000): Promise<RunResult> {
  childCommand ??= bundleHarness();
  return childCommand.then((args) => runChildWith(args, cfg, kill, timeoutMs));
}

function runChildWith(args: string[], cfg: ChildConfig, kill: KillPlan, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...args, JSON.stringify(cfg)], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let bootAt: number | null = null;
    let readyAt: number | null = null;
    let killedByUs = false;
    const timers: NodeJS.Timeout[] = [];
    const killNow = () => {
      if (child.exitCode === null && child.signalCode === null) {
        killedByUs = true;
        child.kill("SIGKILL");
      }
    };
    timers.push(
      setTimeout(() => {
        killNow();
        reject(new Error(`child did not finish within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      }, timeoutMs),
    );
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    child.stdout!.on("data", (d: string) => {
      stdout += d;
      if (bootAt === null && stdout.includes("boot\n")) {
        bootAt = performance.now();
        if (kill.afterBootMs !== undefined) timers.push(setTimeout(killNow, kill.afterBootMs));
      }
      if (readyAt === null && stdout.includes("ready\n")) {
        readyAt = performance.now();
        if (kill.afterReadyMs !== undefined) timers.push(setTimeout(killNow, kill.afterReadyMs));
      }
    });
    child.stderr!.on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      for (const t of timers) clearTimeout(t);
      const now = performance.now();
      const result = {
        readyToExitMs: readyAt === null ? null : now - readyAt,
        bootToReadyMs: bootAt === null || readyAt === null ? null : readyAt - bootAt,
      };
      const stageA = /^stageA (\d+) (\d+)$/m.exec(stdout);
      if (code === 0 && stdout.includes("done\n"))
        resolvePromise({
          outcome: "done",
          ...result,
          ...(stageA ? { stageARanges: Number(stageA[1]), stageARowRanges: Number(stageA[2]) } : {}),
        });
      // Killed by us, or by itself at a named crash point.
      else if (signal === "SIGKILL") resolvePromise({ outcome: "killed", ...result });
      else
        reject(
          new Error(
            `child failed (code ${code}, signal ${signal}${killedByUs ? ", after our kill" : ""})\nstdout:\n${stdout}\nstderr:\n${stderr}`,
          ),
        );
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Outputs

export interface Outputs {
  file?: OutRow[];
  pg?: OutRow[];
}

let readerSession: Session | null = null;
function reader(): Session {
  readerSession ??= Session.builder().appName("arus-crash-reader").config("spark.sql.session.timeZone", "UTC").getOrCreate();
  return readerSession;
}

/** What a batch reader sees in the sink's directory: committed files only (`_spark_metadata`). */
export async function readFileSink(dir: string): Promise<OutRow[]> {
  const rows = await reader().read.schema("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, key STRING, count LONG").json(dir).collect();
  return rows.map((r) => {
    const w = r.window as { start: Date; end: Date };
    return outRow(w.start, w.end, r.key, r.count);
  });
}

/** Data files in the output directory that no committed batch lists (left by killed attempts). */
export async function orphanFiles(dir: string): Promise<number> {
  const committed = new Set(((await readCommittedFiles(dir)) ?? []).map((f) => resolve(f)));
  let n = 0;
  try {
    for (const f of readdirSync(dir)) if (!f.startsWith("_") && !f.startsWith(".") && !committed.has(resolve(dir, f))) n++;
  } catch {
    // no output yet
  }
  return n;
}

export async function readPg(env: PgEnv, table: string): Promise<OutRow[]> {
  try {
    const { rows } = await env.client.query(`SELECT window_start, window_end, key, count FROM "${env.schema}"."${table}"`);
    return rows.map((r) => outRow(r.window_start, r.window_end, r.key, r.count));
  } catch (e) {
    if (/does not exist/.test((e as Error).message)) return [];
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Episodes

export interface EpisodeSpec {
  name: string;
  sinks: SinkKind[];
  /** Named crash point for the first run (`point:batchId`). */
  crashPoint?: string;
  /** Random SIGKILLs: the kill plan of each run (none: let it finish). */
  killPlan?: KillPlanner;
  /**
   * Windows the restart rule may defer until new data (see workload.ts), compared exactly:
   * "none" (the default for named points), "any" (random kills), or the exact expected set.
   */
  deferred?: "none" | "any" | readonly OutRow[];
  maxAttempts?: number;
  /** Workload override (e.g. without flush files). */
  workload?: Workload;
}

export interface EpisodeResult {
  name: string;
  /** SIGKILLs (ours or a crash point's). */
  kills: number;
  /** Child processes started, including the late-flush run. */
  runs: number;
  /** Batches delivered to foreachBatch more than once. */
  replays: number;
  /** Replays the PostgreSQL writer found fenced and skipped (the rest died before COMMIT). */
  fencedReplays: number;
  /** Data files on disk that no committed batch lists (invisible to readers). */
  orphanFiles: number;
  /** File ranges the finished runs read through stage A on the decode threads (arus.exec.partialAggregation). */
  stageARanges: number;
  /** Of those, ranges shipped as rows (adaptive skipping). */
  stageARowRanges: number;
  /** Windows missing after the input was done, emitted once the late flush file came. */
  deferredWindows: number;
  ms: number;
}

export class CrashDriver {
  private episodes = 0;

  constructor(
    readonly root: string,
    readonly workload: Workload,
    readonly pg: PgEnv | null,
    /** Engine confs on top of CHILD_CONF (e.g. arus.state.threads). */
    readonly conf: Readonly<Record<string, string>> = {},
    /** The child's stateful query (crash-harness.ts): the windowed count or its transformWithState twin. */
    readonly query: CrashQuery = "window",
  ) {
    mkdirSync(root, { recursive: true });
  }

  private newEpisode(name: string, w: Workload): Episode {
    const n = this.episodes++;
    const dir = join(this.root, `ep${n}-${name.replace(/[^A-Za-z0-9]+/g, "-")}`);
    rmSync(dir, { recursive: true, force: true });
    const input = join(dir, "input");
    writeInput(input, w);
    return { dir, input, table: `counts_${n}` };
  }

  private config(ep: Episode, sinks: SinkKind[], crashPoint?: string): ChildConfig {
    return {
      input: ep.input,
      work: ep.dir,
      sinks,
      crashPoint,
      pg: this.pg ? { url: this.pg.url, module: this.pg.module, schema: this.pg.schema, table: ep.table } : undefined,
      conf: { ...CHILD_CONF, ...this.conf },
      query: this.query,
    };
  }

  /** Committed rows of each sink, flush windows left out, sorted. */
  async outputs(ep: Episode, sinks: SinkKind[]): Promise<Outputs> {
    const out: Outputs = {};
    if (sinks.includes("file")) out.file = withoutFlush(await readFileSink(paths(ep.dir).fileOutput)).sort();
    if (sinks.includes("pg") && this.pg) out.pg = withoutFlush(await readPg(this.pg, ep.table)).sort();
    return out;
  }

  /** Sinks that can run here (PostgreSQL only with a server). */
  usable(sinks: readonly SinkKind[]): SinkKind[] {
    return sinks.filter((s) => s !== "pg" || this.pg);
  }

  /**
   * An uninterrupted run must produce the computed expectation (every window, full counts):
   * this is the baseline the crash runs are compared with. Two runs; the faster one's timings
   * (the first often competes with other test files starting up) are what random kill times
   * are drawn from.
   */
  async reference(sinks: SinkKind[]): Promise<Timings> {
    const use = this.usable(sinks);
    let best: Timings | null = null;
    for (let i = 0; i < 2; i++) {
      const ep = this.newEpisode("reference", this.workload);
      const r = await runChild(this.config(ep, use));
      if (r.outcome !== "done") throw new Error("reference run did not finish");
      for (const [sink, rows] of Object.entries(await this.outputs(ep, use)))
        assertSame(`uninterrupted run, ${sink} sink`, rows, expectedRows(this.workload), "the computed expectation");
      const t = { bootToReadyMs: r.bootToReadyMs ?? 100, readyToDoneMs: r.readyToExitMs ?? 500, stageARanges: r.stageARanges ?? 0 };
      if (!best || t.readyToDoneMs < best.readyToDoneMs) best = t;
    }
    return best!;
  }

  async episode(spec: EpisodeSpec): Promise<EpisodeResult> {
    const t0 = performance.now();
    const w = spec.workload ?? this.workload;
    const sinks = this.usable(spec.sinks);
    const ep = this.newEpisode(spec.name, w);
    const expected = expectedRows(w);
    let kills = 0;
    let runs = 0;
    let stageARanges = 0;
    let stageARowRanges = 0;
    const max = spec.maxAttempts ?? 500;
    for (;;) {
      if (runs >= max) throw new Error(`${spec.name}: input not done after ${max} runs`);
      const first = runs === 0;
      const plan = spec.killPlan?.next(runs) ?? {};
      const r = await runChild(this.config(ep, sinks, first ? spec.crashPoint : undefined), plan);
      spec.killPlan?.observe?.(plan, r.outcome);
      runs++;
      if (first && spec.crashPoint && r.outcome !== "killed")
        throw new Error(`${spec.name}: crash point ${spec.crashPoint} was never reached`);
      if (r.outcome === "done") {
        stageARanges += r.stageARanges ?? 0;
        stageARowRanges += r.stageARowRanges ?? 0;
        break;
      }
      kills++;
    }
    // Input done: nothing duplicated, nothing that an uninterrupted run would not have written.
    let deferred: OutRow[] = [];
    for (const [sink, rows] of Object.entries(await this.outputs(ep, sinks)) as [string, OutRow[]][]) {
      const what = `${spec.name}: ${sink} sink after the input was done`;
      const dup = duplicates(rows);
      const extra = minus(rows, expected);
      if (dup.length || extra.length)
        throw new Error(`${what}: duplicated ${JSON.stringify(dup)}; not in the uninterrupted run ${JSON.stringify(extra)}`);
      const missing = minus(expected, rows);
      const allowed = spec.deferred ?? "none";
      if (allowed === "none" && missing.length) assertSame(what, rows, expected);
      if (Array.isArray(allowed)) assertSame(`${what} (windows deferred by the restart rule left out)`, rows, minus(expected, allowed));
      if (missing.length > deferred.length) deferred = missing;
    }
    if (deferred.length > 0) {
      // New data after the restart: the deferred windows must come out now, exactly once.
      addLateFlushFile(ep.input, w);
      const r = await runChild(this.config(ep, sinks));
      runs++;
      if (r.outcome !== "done") throw new Error(`${spec.name}: late-flush run did not finish`);
    }
    for (const [sink, rows] of Object.entries(await this.outputs(ep, sinks))) assertSame(`${spec.name}: ${sink} sink`, rows, expected);
    let replays = 0;
    let fenced = 0;
    if (sinks.includes("pg") && this.pg) {
      const log = readDeliveries(paths(ep.dir).pgDeliveries);
      const bad = inconsistentReplays(log.deliveries);
      if (bad.length) throw new Error(`${spec.name}: foreachBatch got different rows for the same batch id: ${bad.join("; ")}`);
      const twice = duplicates(log.applied.map(String));
      if (twice.length) throw new Error(`${spec.name}: batches written to PostgreSQL twice: ${twice.join(", ")}`);
      // Every batch handed to foreachBatch ended up fenced exactly once (the primary key makes
      // "at most once"; the engine's re-delivery makes "at least once").
      const queryId = (JSON.parse(readFileSync(join(paths(ep.dir).pgCheckpoint, "metadata"), "utf8")) as { id: string }).id;
      const { rows } = await this.pg.client.query(`SELECT batch_id FROM "${this.pg.schema}".arus_batches WHERE query_id = $1`, [queryId]);
      const fencedIds = rows.map((r) => Number(r.batch_id)).sort((a, b) => a - b);
      const delivered = [...new Set(log.deliveries.map((d) => d.b))].sort((a, b) => a - b);
      assert.deepEqual(fencedIds, delivered, `${spec.name}: batch ids fenced in PostgreSQL vs delivered to foreachBatch`);
      replays = replayCount(log.deliveries);
      fenced = log.skipped.length;
    }
    const orphans = sinks.includes("file") ? await orphanFiles(paths(ep.dir).fileOutput) : 0;
    return {
      name: spec.name,
      kills,
      runs,
      replays,
      fencedReplays: fenced,
      orphanFiles: orphans,
      deferredWindows: deferred.length,
      stageARanges,
      stageARowRanges,
      ms: performance.now() - t0,
    };
  }
}

interface Episode {
  dir: string;
  input: string;
  table: string;
}

export interface Timings {
  bootToReadyMs: number;
  readyToDoneMs: number;
  /** File ranges the run read through stage A on the decode threads (arus.exec.partialAggregation). */
  stageARanges?: number;
}

export function assertSame(what: string, actual: readonly OutRow[], expected: readonly OutRow[], baseline = "the uninterrupted run"): void {
  const a = [...actual].sort();
  const missing = minus(expected, a);
  const extra = minus(a, expected);
  if (missing.length || extra.length) {
    throw new Error(
      `${what} differs from ${baseline}: missing ${JSON.stringify(missing.slice(0, 10))}${missing.length > 10 ? ` (+${missing.length - 10})` : ""}, extra/duplicated ${JSON.stringify(extra.slice(0, 10))}${extra.length > 10 ? ` (+${extra.length - 10})` : ""}`,
    );
  }
}

/** Deterministic PRNG (mulberry32) so a failing seed can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chooses when each run of an episode is killed, and may learn from what happened. */
export interface KillPlanner {
  next(attempt: number): KillPlan;
  observe?(plan: KillPlan, outcome: Outcome): void;
}

/**
 * Random kill times: 80 % while batches run (uniform over a window that starts at 70 % of a
 * clean run's ready→done time), 20 % during startup and recovery (uniform over boot→ready:
 * checkpoint open, lock, operator metadata, the re-run of an uncommitted batch). The batch
 * window adapts to the machine's speed at the time: it shrinks when a run finished before its
 * kill and grows slowly when the kill landed, settling where about three runs in four are
 * killed, so each episode sees several kills whatever the load.
 */
export function randomKills(random: () => number, ref: Timings): KillPlanner {
  let windowMs = ref.readyToDoneMs * 0.7;
  return {
    next() {
      if (random() < 0.2) return { afterBootMs: random() * ref.bootToReadyMs * 1.2 };
      return { afterReadyMs: random() * windowMs };
    },
    observe(plan, outcome) {
      if (plan.afterReadyMs === undefined) return;
      windowMs = Math.min(ref.readyToDoneMs * 3, Math.max(ref.readyToDoneMs * 0.05, windowMs * (outcome === "killed" ? 1.05 : 0.85)));
    },
  };
}
