/**
 * Worker processes of the scale-out harness (not a test file itself): each runs the pipeline
 * file (fixtures/scaleout-pipeline.ts) as a user would, `node --import tsx pipeline.ts`, is
 * killed with SIGKILL and restarted the same way. Its stdout is one JSON line per event.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { bundleChild } from "../../recovery/driver.js";

export const PIPELINE = path.join(import.meta.dirname, "..", "fixtures", "scaleout-pipeline.ts");
const ROOT = path.join(import.meta.dirname, "..", "..", "..");

/** One line a worker printed (see the pipeline's header). */
export interface WorkerEvent {
  readonly ev: "started" | "progress" | "error" | "stopped" | string;
  readonly worker: string;
  readonly t: number;
  readonly query?: string | null;
  readonly batchId?: number;
  readonly numInputRows?: number;
  readonly numOutputRows?: number;
  readonly partitions?: number[];
  readonly watermark?: string | null;
  readonly dropped?: number;
  readonly cluster?: unknown;
  readonly message?: string;
  /** Which run of this worker printed it (0 = first start). */
  run: number;
}

export interface WorkerRun {
  readonly pid: number;
  readonly spawnedAt: number;
  startedAt?: number;
  killedAt?: number;
  stopRequestedAt?: number;
  /** `<point>:<batchId>` armed in this run: it kills itself there. */
  crashPoint?: string;
  /** The armed crash point was not reached before the next start of the worker (the harness killed it). */
  crashMissed?: boolean;
  /** CPU seconds (user + system) the process had used when it was killed or stopped (Linux /proc). */
  cpuSeconds?: number;
  exit?: { code: number | null; signal: NodeJS.Signals | null; at: number };
}

/**
 * How a worker is started. `tsx` (default) is what a user runs; `bundle` runs the same file
 * bundled once with esbuild (about 2 s less CPU per start, worth it on a loaded 2-core machine).
 */
let bundled: Promise<string[]> | null = null;
export function workerCommand(kind: "tsx" | "bundle"): Promise<string[]> {
  const viaTsx = ["--import", "tsx", PIPELINE];
  if (kind === "tsx") return Promise.resolve(viaTsx);
  bundled ??= bundleChild(`import ${JSON.stringify(PIPELINE)};\n`, "scaleout-worker").then((out) => (out ? [out] : viaTsx));
  return bundled;
}

/** CPU seconds (user + system) of a live process from /proc/<pid>/stat; undefined off Linux. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

export class Worker {
  readonly runs: WorkerRun[] = [];
  readonly events: WorkerEvent[] = [];
  stderr = "";
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    private readonly command: string[],
    private readonly onEvent?: (e: WorkerEvent) => void,
  ) {}

  get alive(): boolean {
    return this.child !== null;
  }

  /** The last batch id `query` reported (any run); -1 before its first. */
  lastBatchId(query: string): number {
    return this.events.reduce(
      (m, e) => (e.ev === "progress" && e.query === query && e.batchId !== undefined ? Math.max(m, e.batchId) : m),
      -1,
    );
  }

  /** Starts a run; with `crashPoint` ("<point>:<batchId>") the run kills itself there. */
  start(crashPoint?: string): void {
    if (this.child) throw new Error(`worker ${this.name} is already running`);
    const child = spawn(process.execPath, this.command, {
      cwd: ROOT,
      env: { ...process.env, ...this.env, SCALEOUT_INSTANCE: this.name, SCALEOUT_CRASH_POINT: crashPoint ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run: WorkerRun = { pid: child.pid ?? -1, spawnedAt: Date.now(), ...(crashPoint ? { crashPoint } : {}) };
    const runIndex = this.runs.push(run) - 1;
    this.child = child;
    const logDir = process.env.SCALEOUT_LOG_DIR;
    let buf = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      buf += d;
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (!line.startsWith("{")) continue; // engine warnings
        let e: WorkerEvent;
        try {
          e = { ...(JSON.parse(line) as WorkerEvent), run: runIndex };
        } catch {
          continue;
        }
        if (e.ev === "started") run.startedAt = e.t;
        if (logDir) appendFileSync(`${logDir}/events.jsonl`, `${JSON.stringify(e)}\n`);
        this.events.push(e);
        this.onEvent?.(e);
      }
    });
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      if (logDir) appendFileSync(`${logDir}/${this.name}.log`, d);
      this.stderr += d;
      if (this.stderr.length > 200_000) this.stderr = this.stderr.slice(-100_000);
    });
    this.exited = new Promise((resolve) => {
      child.on("close", (code, signal) => {
        run.exit = { code, signal, at: Date.now() };
        if (this.child === child) this.child = null;
        resolve();
      });
    });
  }

  /** Waits up to `ms` for the current run to end by itself (a crash point); true when it did. */
  async awaitExit(ms: number): Promise<boolean> {
    if (!this.child) return true;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
    clearTimeout(timer);
    return ended;
  }

  /** When a run died: our kill, or its own SIGKILL at its crash point; undefined for a run that did not. */
  static diedAt(r: WorkerRun): number | undefined {
    if (r.killedAt !== undefined) return r.killedAt;
    if (r.crashPoint && r.exit?.signal === "SIGKILL") return r.exit.at;
    return undefined;
  }

  /** kill -9, and wait until the process is gone. */
  async kill(): Promise<void> {
    if (!this.child) throw new Error(`worker ${this.name} is not running`);
    const run = this.runs.at(-1)!;
    run.cpuSeconds = processCpuSeconds(run.pid);
    run.killedAt = Date.now();
    this.child.kill("SIGKILL");
    await this.exited;
  }

  /** SIGTERM (the pipeline stops its queries and exits 0); SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 20_000): Promise<void> {
    if (!this.child) return;
    const run = this.runs.at(-1)!;
    run.cpuSeconds = processCpuSeconds(run.pid);
    run.stopRequestedAt = Date.now();
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child?.kill("SIGKILL"), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Why a run ended badly: an exit we did not ask for (not our SIGKILL, code != 0), or an `error` line. */
  errors(): string[] {
    const out: string[] = [];
    this.runs.forEach((r, i) => {
      if (!r.exit || Worker.diedAt(r) !== undefined) return;
      // Told to stop before its pipeline file had even set up (still loading): not the engine's failure.
      if (r.stopRequestedAt !== undefined && r.startedAt === undefined && r.exit.signal === "SIGTERM") return;
      if (r.exit.code !== 0) {
        out.push(
          `worker ${this.name} run ${i} (pid ${r.pid}) exited with code ${r.exit.code} signal ${r.exit.signal}${r.stopRequestedAt ? " after SIGTERM" : ""}`,
        );
      }
    });
    for (const e of this.events) if (e.ev === "error") out.push(`worker ${this.name} run ${e.run}: ${e.message}`);
    if (out.length) out.push(`stderr of ${this.name} (tail):\n${this.stderr.slice(-4000)}`);
    return out;
  }
}
