/**
 * Parent side of the crash tests (used by crash.test.ts and scripts/soak.ts): start the child
 * (crash-harness.ts), SIGKILL it at a random moment or let it kill itself at a named crash
 * point, restart it until the input is done, then compare what the sinks committed with an
 * uninterrupted run.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { readCommittedFiles } from "../../src/connectors/file-stream/index.js";
import { Session } from "../../src/index.js";
import { type ChildConfig, PG_MODULE, paths, type SinkKind } from "./crash-harness.js";
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
  withoutFlush,
  type Workload,
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
      url = execFileSync(join(REPO, "scripts/start-postgres.sh"), { env: { ...process.env, ARUS_PG_NO_INSTALL: "1" }, stdio: ["ignore", "pipe", "pipe"] })
        .toString()
        .trim();
    } catch (e) {
      return fail(`no ARUS_PG_URL and scripts/start-postgres.sh could not start a server (${String((e as { stderr?: Buffer }).stderr ?? e).trim().split("\n").at(-1)})`);
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
  return { url, schema, client };
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
}

// ---------------------------------------------------------------------------------------------
// The child's code, bundled once per process with esbuild (tsx's own compiler): a child then
// starts in ~0.2 s instead of ~0.6 s through the tsx loader, which is most of a kill cycle.
// ARUS_CRASH_NO_BUNDLE=1 (or no esbuild) runs the TypeScript through tsx instead.

let childCommand: Promise<string[]> | null = null;

async function bundleHarness(): Promise<string[]> {
  const viaTsx = ["--import", "tsx", HARNESS];
  if (process.env.ARUS_CRASH_NO_BUNDLE === "1") return viaTsx;
  try {
    const esbuild = (await import("esbuild")) as typeof import("esbuild");
    // Under node_modules so the bundle resolves the repo's packages (and git ignores it).
    const out = join(REPO, "node_modules", ".cache", "arus-recovery", `harness-${process.pid}.mjs`);
    await esbuild.build({ entryPoints: [HARNESS], bundle: true, platform: "node", format: "esm", target: "node20", outfile: out, packages: "external", logLevel: "error" });
    process.once("exit", () => {
      try {
        unlinkSync(out);
      } catch {
        // already gone
      }
    });
    return [out];
  } catch {
    return viaTsx;
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
      if (code === 0 && stdout.includes("done\n")) resolvePromise({ outcome: "done", ...result });
      // Killed by us, or by itself at a named crash point.
      else if (signal === "SIGKILL") resolvePromise({ outcome: "killed", ...result });
      else reject(new Error(`child failed (code ${code}, signal ${signal}${killedByUs ? ", after our kill" : ""})\nstdout:\n${stdout}\nstderr:\n${stderr}`));
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
  /** Random SIGKILLs: called before each run; returns the kill plan (or {} to let it finish). */
  killPlan?: (attempt: number) => KillPlan;
  /** Add the flush file and run once more (no kills) after the input is done. */
  flush: boolean;
  /** After the main input, must the output already equal the reference exactly? */
  exactBeforeFlush: boolean;
  maxAttempts?: number;
}

export interface EpisodeResult {
  name: string;
  kills: number;
  runs: number;
  /** Batches delivered to foreachBatch more than once (fenced in PostgreSQL). */
  replays: number;
  orphanFiles: number;
  /** Windows missing before the flush (deferred by the restart rule, emitted by the flush). */
  deferredWindows: number;
  ms: number;
}

export interface Reference {
  preFlush: OutRow[];
  final: OutRow[];
  /** Typical durations of a clean run, for choosing kill times. */
  bootToReadyMs: number;
  readyToDoneMs: number;
}

export class CrashDriver {
  private episodes = 0;

  constructor(
    readonly root: string,
    readonly workload: Workload,
    readonly pg: PgEnv | null,
  ) {
    mkdirSync(root, { recursive: true });
  }

  private newEpisode(name: string): { dir: string; input: string; table: string } {
    const n = this.episodes++;
    const dir = join(this.root, `ep${n}-${name.replace(/[^A-Za-z0-9]+/g, "-")}`);
    rmSync(dir, { recursive: true, force: true });
    const input = join(dir, "input");
    writeInput(input, this.workload);
    return { dir, input, table: `counts_${n}` };
  }

  private config(ep: { dir: string; input: string; table: string }, sinks: SinkKind[], crashPoint?: string): ChildConfig {
    return {
      input: ep.input,
      work: ep.dir,
      sinks,
      crashPoint,
      pg: this.pg ? { url: this.pg.url, schema: this.pg.schema, table: ep.table } : undefined,
      conf: CHILD_CONF,
    };
  }

  async outputs(ep: { dir: string; table: string }, sinks: SinkKind[]): Promise<Outputs> {
    const out: Outputs = {};
    if (sinks.includes("file")) out.file = (await readFileSink(paths(ep.dir).fileOutput)).sort();
    if (sinks.includes("pg") && this.pg) out.pg = (await readPg(this.pg, ep.table)).sort();
    return out;
  }

  /** An uninterrupted run (plus flush), checked against the computed expectation. */
  async reference(sinks: SinkKind[]): Promise<Reference> {
    const ep = this.newEpisode("reference");
    const cfg = this.config(ep, sinks);
    const r = await runChild(cfg);
    if (r.outcome !== "done") throw new Error("reference run did not finish");
    const pre = await this.outputs(ep, sinks);
    addFlushFile(ep.input, this.workload);
    await runChild(cfg);
    const fin = await this.outputs(ep, sinks);
    const preFlush = expectedRows(this.workload, false);
    const final = expectedRows(this.workload, true);
    for (const [sink, rows] of Object.entries(pre)) assertSame(`reference ${sink} output before the flush`, rows, preFlush);
    for (const [sink, rows] of Object.entries(fin)) assertSame(`reference ${sink} output`, rows, final);
    return { preFlush, final, bootToReadyMs: r.bootToReadyMs ?? 100, readyToDoneMs: r.readyToExitMs ?? 500 };
  }

  async episode(spec: EpisodeSpec, ref: Reference): Promise<EpisodeResult> {
    const t0 = performance.now();
    const sinks = spec.sinks.filter((s) => s !== "pg" || this.pg);
    const ep = this.newEpisode(spec.name);
    let kills = 0;
    let runs = 0;
    const max = spec.maxAttempts ?? 500;
    for (;;) {
      if (runs >= max) throw new Error(`${spec.name}: input not done after ${max} runs`);
      const first = runs === 0;
      const cfg = this.config(ep, sinks, first ? spec.crashPoint : undefined);
      const r = await runChild(cfg, spec.killPlan?.(runs) ?? {});
      runs++;
      if (first && spec.crashPoint && r.outcome !== "killed") {
        throw new Error(`${spec.name}: crash point ${spec.crashPoint} was never reached`);
      }
      if (r.outcome === "done") break;
      kills++;
    }
    const pre = await this.outputs(ep, sinks);
    let deferred = 0;
    for (const [sink, rows] of Object.entries(pre) as [string, OutRow[]][]) {
      const what = `${spec.name}: ${sink} output before the flush`;
      if (spec.exactBeforeFlush) assertSame(what, rows, ref.preFlush);
      else {
        const dup = duplicates(rows);
        const extra = minus(rows, ref.preFlush);
        if (dup.length || extra.length) throw new Error(`${what}: duplicated ${JSON.stringify(dup)}, not in the reference ${JSON.stringify(extra)}`);
        deferred = Math.max(deferred, ref.preFlush.length - rows.length);
      }
    }
    if (spec.flush) {
      addFlushFile(ep.input, this.workload);
      const r = await runChild(this.config(ep, sinks));
      runs++;
      if (r.outcome !== "done") throw new Error(`${spec.name}: flush run did not finish`);
      for (const [sink, rows] of Object.entries(await this.outputs(ep, sinks))) assertSame(`${spec.name}: ${sink} output`, rows, ref.final);
    }
    let replays = 0;
    if (sinks.includes("pg")) {
      const deliveries = readDeliveries(paths(ep.dir).pgDeliveries);
      const bad = inconsistentReplays(deliveries);
      if (bad.length) throw new Error(`${spec.name}: foreachBatch got different rows for the same batch id: ${bad.join("; ")}`);
      replays = replayCount(deliveries);
    }
    const orphans = sinks.includes("file") ? await orphanFiles(paths(ep.dir).fileOutput) : 0;
    return { name: spec.name, kills, runs, replays, orphanFiles: orphans, deferredWindows: deferred, ms: performance.now() - t0 };
  }

  /** The episode's files, relative to the root (for messages). */
  describe(dir: string): string {
    return relative(this.root, dir);
  }
}

export function assertSame(what: string, actual: readonly OutRow[], expected: readonly OutRow[]): void {
  const a = [...actual].sort();
  const missing = minus(expected, a);
  const extra = minus(a, expected);
  if (missing.length || extra.length) {
    throw new Error(`${what} differs from the uninterrupted run: missing ${JSON.stringify(missing.slice(0, 10))}${missing.length > 10 ? ` (+${missing.length - 10})` : ""}, extra/duplicated ${JSON.stringify(extra.slice(0, 10))}${extra.length > 10 ? ` (+${extra.length - 10})` : ""}`);
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

/**
 * Random kill times: mostly while batches run (uniform over a clean run's ready→done time),
 * sometimes during startup and recovery (uniform over boot→ready), occasionally never.
 */
export function randomKills(random: () => number, ref: Reference): (attempt: number) => KillPlan {
  return () => {
    const x = random();
    if (x < 0.2) return { afterBootMs: random() * ref.bootToReadyMs * 1.2 };
    return { afterReadyMs: random() * ref.readyToDoneMs * 1.1 };
  };
}
