/**
 * Scale-out figures (issue #20, scaleout.md "Figures to report"), with the harness of
 * test/cluster/scaleout-harness.ts: worker processes running test/cluster/fixtures/scaleout-pipeline.ts
 * (a stateless copy to out-raw and a windowed count/sum to out, both exactly once).
 *
 *   node --import tsx bench/scaleout.ts [--mode group|single|static] [--events 50000] [--workers 1,2,3]
 *        [--rate 1000] [--latency-seconds 20] [--start tsx|bundle] [--no-results-md]
 *
 * 1. Throughput: the input (`--events` + flush) is produced first; then W workers start at once
 *    and the clock runs from the first worker's `started` to the last record visible in out-raw
 *    (read_committed). Worker and broker CPU seconds over the run.
 * 2. Recovery: the same fixed input; at 40 % of it processed (and once it has read some) one worker is killed with SIGKILL,
 *    (a) not restarted (group mode: its partitions move after the session timeout), (b) restarted
 *    at once with its slot. Figure: kill → first out-raw record from its partitions committed
 *    by a live worker; aborted records (read_uncommitted − read_committed).
 * 3. Latency: `--rate` events/s for `--latency-seconds`, W = the largest worker count; produce →
 *    visible in out-raw p50/p99 (to within the 200 ms poll of the reader).
 * Throughput is shown for the fixed-input runs only (a paced run's is its input rate), latency for
 * the paced run only (a fixed input's is its queueing). Every run also checks the output (duplicates / losses / wrong windows must be 0).
 * --mode defaults to group (ARUS_SCALEOUT_GROUP=0: single, one worker only: the
 * single-process exactly-once pipeline, for a baseline); --mode static splits the partitions
 * between the workers once and for all (`assign`, no group: the scaling a fixed split gets, no
 * run without restart). Only group mode writes the `scaleout` section of bench/RESULTS.md and
 * bench/results/scaleout.json; the other modes print.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import {
  describeReport,
  runScaleout,
  type ScaleoutMode,
  type ScaleoutOptions,
  type ScaleoutReport,
  type ScenarioStep,
  startAll,
} from "../test/cluster/scaleout-harness.js";
import { loadAverage } from "./lib/proc.js";
import { updateResultsMd } from "./lib/results-md.js";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
if (!bootstrap) {
  console.error('bench/scaleout: needs a broker: export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"');
  process.exit(1);
}
const mode = (option("mode") ?? (process.env.ARUS_SCALEOUT_GROUP === "0" ? "single" : "group")) as ScaleoutMode;
if (mode !== "group" && mode !== "single" && mode !== "static") throw new Error(`--mode: group, single or static, got ${mode}`);
const events = Number(option("events") ?? 50_000);
const rate = Number(option("rate") ?? 1000);
const latencySeconds = Number(option("latency-seconds") ?? 20);
const start = (option("start") ?? "tsx") as "tsx" | "bundle";
let workerCounts = (option("workers") ?? "1,2,3").split(",").map(Number);
if (mode === "single" && workerCounts.some((w) => w !== 1)) {
  console.error("bench/scaleout: single mode runs one worker; the 2- and 3-worker runs need group mode (ARUS_SCALEOUT_GROUP=1)");
  workerCounts = [1];
}
const maxWorkers = Math.max(...workerCounts);

interface Row {
  run: string;
  /** Fixed input produced first: its produce → output latency is queueing, not reported. */
  preProduced: boolean;
  workers: number;
  report: ScaleoutReport;
}
const rows: Row[] = [];

async function run(name: string, workers: number, opts: Partial<ScaleoutOptions> & { steps: ScenarioStep[] }): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), "arus-bench-scaleout-"));
  try {
    const report = await runScaleout({ bootstrap: bootstrap!, mode, workDir, events, start, drainTimeoutMs: 300_000, ...opts });
    console.error(`\n== ${name} (${workers} worker${workers > 1 ? "s" : ""})\n${describeReport(report)}`);
    rows.push({ run: name, preProduced: opts.preProduce === true, workers, report });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

const withKill = (workers: number, restart: boolean): ScenarioStep[] => {
  const victim = workers > 1 ? "w2" : "w1";
  return [
    ...startAll(workers),
    { at: 0.4, action: "kill", worker: victim, afterOwnBatch: true },
    ...(restart || workers === 1 ? [{ at: 0.4, action: "start" as const, worker: victim }] : []),
  ];
};

/**
 * A fixed input read by several workers at their own pace: with the global watermark, a worker
 * that starts late or dies would find its partitions' events behind the others' by however much
 * event time they raced through. The whole input therefore spans 20 s of event time, less than
 * the 30 s delay minus the disorder: no order of reading makes an event late.
 */
const FIXED = { preProduce: true, eventTimeSpanMs: 20_000, keys: 100 } as const;
for (const w of workerCounts) await run("throughput", w, { ...FIXED, steps: startAll(w) });
if (mode === "group" && maxWorkers > 1) await run("kill -9, no restart", maxWorkers, { ...FIXED, steps: withKill(maxWorkers, false) });
await run("kill -9, restart with its slot", maxWorkers, { ...FIXED, steps: withKill(maxWorkers, true) });
await run(`latency at ${rate} events/s`, maxWorkers, { events: rate * latencySeconds, ratePerSec: rate, steps: startAll(maxWorkers) });

const ok = (r: ScaleoutReport) =>
  r.drained &&
  r.workerErrors.length === 0 &&
  r.raw.duplicates + r.raw.missing + r.raw.unexpected + r.agg.duplicates + r.agg.missing + r.agg.unexpected + r.agg.wrong === 0;
const cell = (v: number | null | undefined, unit = "") => (v === null || v === undefined ? "–" : `${v}${unit}`);
const table = [
  "| run | workers | input records | records/s | MB/s | worker CPU s | broker CPU s | kill → first output of its partitions | aborted records | latency p50 / p99 | dup / lost / wrong windows |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
  ...rows.map(({ run, preProduced, workers, report: r }) => {
    const cpu = Object.values(r.cpuSeconds.workers).reduce((a, b) => a + b, 0);
    const rec = r.recoveries.map((x) => cell(x.firstRawOutputMs, " ms")).join(", ") || "–";
    const bad = `${r.raw.duplicates + r.agg.duplicates} / ${r.raw.missing + r.agg.missing} / ${r.agg.wrong + r.agg.unexpected}`;
    return `| ${run} | ${workers} | ${r.inputRecords} | ${preProduced ? cell(r.throughput.recordsPerSec) : "–"} | ${preProduced ? cell(r.throughput.mbPerSec) : "–"} | ${cpu.toFixed(1)} | ${cell(r.cpuSeconds.broker)} | ${rec} | ${r.aborted.raw + r.aborted.agg} | ${preProduced ? "–" : `${cell(r.latencyMs.p50)} / ${cell(r.latencyMs.p99)} ms`} | ${ok(r) ? bad : `${bad} FAILED`} |`;
  }),
].join("\n");
const context = `${new Date().toISOString().slice(0, 16)} UTC, mode ${mode}, \`node --import tsx bench/scaleout.ts --events ${events} --workers ${workerCounts.join(",")} --rate ${rate}\`, Node ${process.version}, ${cpus().length} CPUs, load ${loadAverage()}, the broker of scripts/kafka.sh on the same machine.`;
console.log(`\n${context}\n\n${table}`);

if (mode === "group" && !process.argv.includes("--no-results-md")) {
  const dir = path.resolve(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "scaleout.json"), `${JSON.stringify({ context, rows }, null, 2)}\n`);
  const done = updateResultsMd({ scaleout: `${context}\n\n${table}` });
  console.error(done.length ? "bench/scaleout: bench/RESULTS.md updated" : "bench/scaleout: bench/RESULTS.md has no scaleout markers");
}
process.exit(rows.every((r) => ok(r.report)) ? 0 : 1);
