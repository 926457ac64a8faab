/**
 * Rebalance pause, eager vs cooperative (issue #20): with the scale-out harness
 * (test/cluster/scaleout-harness.ts), worker w1 runs alone on a paced input; at `--join-at` of
 * the input worker w2 starts. Figure: the longest time w1 commits no batch (its `progress`
 * lines) from w2's start until 3 s after w2's first batch with tasks — w1 keeps half of its
 * partitions and tasks throughout, so that gap is the pause the rebalance puts on the tasks it
 * keeps. Beside it: the same gap over the 6 s before w2 started (from 2 s after w1's first
 * batch: w1's ordinary batch spacing), w1's joins,
 * restored tasks and aborted transactions, w2 started → its first batch with input, and the
 * exactly-once check of the whole run.
 *
 *   node --import tsx bench/rebalance-pause.ts [--protocols cooperative,eager] [--repeat 2]
 *        [--rate 500] [--seconds 24] [--join-at 0.4] [--workers 2] [--start bundle|tsx] [--no-results-md]
 *
 * With --workers N, w1 … w(N-1) start together and wN joins at --join-at (the figure is still
 * w1's: under eager it also waits for the other workers' batches in flight).
 *
 * Writes the `rebalance` section of bench/RESULTS.md (between its markers) unless --no-results-md.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { runScaleout, type ScaleoutReport, type WorkerEvent } from "../test/cluster/scaleout-harness.js";
import { loadAverage } from "./lib/proc.js";
import { updateResultsMd } from "./lib/results-md.js";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
if (!bootstrap) {
  console.error('bench/rebalance-pause: needs a broker: export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"');
  process.exit(1);
}
const protocols = (option("protocols") ?? "cooperative,eager").split(",") as ("cooperative" | "eager")[];
for (const p of protocols) if (p !== "cooperative" && p !== "eager") throw new Error(`--protocols: cooperative or eager, got ${p}`);
const repeat = Number(option("repeat") ?? 2);
const rate = Number(option("rate") ?? 500);
const seconds = Number(option("seconds") ?? 24);
const joinAt = Number(option("join-at") ?? 0.4);
const start = (option("start") ?? "bundle") as "tsx" | "bundle";
const workers = Number(option("workers") ?? 2);
if (!Number.isInteger(workers) || workers < 2) throw new Error(`--workers: 2 or more, got ${option("workers")}`);
const joiner = `w${workers}`;

interface Cluster {
  generationId?: number;
  tasks?: number[];
  rebalances?: number;
  restoredTasks?: number;
  abortedTransactions?: number;
}

interface Row {
  protocol: string;
  query: string;
  pauseMs: number;
  normalMs: number;
  w1Joins: number;
  w1Restored: number;
  w1Aborted: number;
  w2FirstBatchMs: number | null;
  ok: boolean;
}

/** Longest gap between consecutive times in [from, to] (the edges count as times). */
function longestGap(times: number[], from: number, to: number): number {
  const ts = [from, ...times.filter((t) => t > from && t < to), to];
  let gap = 0;
  for (let i = 1; i < ts.length; i++) gap = Math.max(gap, ts[i]! - ts[i - 1]!);
  return gap;
}

function rows(protocol: string, r: ScaleoutReport): Row[] {
  const w1 = r.workerEvents.w1 ?? [];
  const w2 = r.workerEvents[joiner] ?? [];
  const w2Started = w2.find((e) => e.ev === "started")?.t;
  const ok =
    r.drained &&
    r.workerErrors.length === 0 &&
    r.raw.duplicates + r.raw.missing + r.raw.unexpected + r.agg.duplicates + r.agg.missing + r.agg.unexpected + r.agg.wrong === 0;
  const out: Row[] = [];
  for (const query of ["agg", "raw"]) {
    const progress = (es: WorkerEvent[]) => es.filter((e) => e.ev === "progress" && e.query === query);
    const p1 = progress(w1);
    const p2 = progress(w2);
    const cluster = (e: WorkerEvent | undefined) => (e?.cluster ?? {}) as Cluster;
    const w2Working = p2.find((e) => (query === "agg" ? (cluster(e).tasks?.length ?? 0) > 0 : (e.numInputRows ?? 0) > 0));
    if (w2Started === undefined || !w2Working) {
      out.push({
        protocol,
        query,
        pauseMs: Number.NaN,
        normalMs: Number.NaN,
        w1Joins: 0,
        w1Restored: 0,
        w1Aborted: 0,
        w2FirstBatchMs: null,
        ok: false,
      });
      continue;
    }
    const spawned = r.workers[joiner]![0]!.spawnedAt;
    const times = p1.map((e) => e.t);
    const last = cluster(p1.at(-1));
    out.push({
      protocol,
      query,
      pauseMs: longestGap(times, spawned, w2Working.t + 3000),
      normalMs: longestGap(times, Math.max(spawned - 6000, (times[0] ?? spawned) + 2000), spawned),
      w1Joins: last.rebalances ?? 0,
      w1Restored: last.restoredTasks ?? 0,
      w1Aborted: last.abortedTransactions ?? 0,
      w2FirstBatchMs: w2Working.t - w2Started,
      ok,
    });
  }
  return out;
}

const all: Row[] = [];
for (let i = 0; i < repeat; i++) {
  for (const protocol of protocols) {
    const workDir = mkdtempSync(path.join(tmpdir(), "arus-bench-rebalance-"));
    try {
      const report = await runScaleout({
        bootstrap,
        mode: "group",
        workDir,
        events: rate * seconds,
        ratePerSec: rate,
        start,
        rebalanceProtocol: protocol,
        steps: [
          ...Array.from({ length: workers - 1 }, (_, i) => ({ at: 0, action: "start" as const, worker: `w${i + 1}` })),
          { at: joinAt, action: "start", worker: joiner },
        ],
      });
      const got = rows(protocol, report);
      for (const r of got) console.error(JSON.stringify(r));
      all.push(...got);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}

const med = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : Number.NaN;
};
const list = (xs: (number | null)[]) => xs.map((x) => (x === null || !Number.isFinite(x) ? "–" : String(Math.round(x)))).join(", ");
const table = [
  `| protocol | query | w1's longest gap between commits while ${joiner} joins (ms) | same, the ≤ 6 s before it (ms) | w1 joins | w1 tasks restored | w1 aborted txns | ${joiner} started → its first batch (ms) | exactly once |`,
  "|---|---|---|---|---|---|---|---|---|",
  ...protocols.flatMap((protocol) =>
    ["agg", "raw"].map((query) => {
      const rs = all.filter((r) => r.protocol === protocol && r.query === query);
      return `| ${protocol} | ${query} | ${list(rs.map((r) => r.pauseMs))} (median ${Math.round(med(rs.map((r) => r.pauseMs)))}) | ${list(rs.map((r) => r.normalMs))} | ${list(rs.map((r) => r.w1Joins))} | ${list(rs.map((r) => r.w1Restored))} | ${list(rs.map((r) => r.w1Aborted))} | ${list(rs.map((r) => r.w2FirstBatchMs))} | ${rs.every((r) => r.ok) ? "yes" : "NO"} |`;
    }),
  ),
].join("\n");
const context = `${new Date().toISOString().slice(0, 16)} UTC, \`node --import tsx bench/rebalance-pause.ts --protocols ${protocols.join(",")} --repeat ${repeat} --rate ${rate} --seconds ${seconds} --join-at ${joinAt} --workers ${workers} --start ${start}\`, Node ${process.version}, ${cpus().length} CPUs, load ${loadAverage()} (the machine is shared: other jobs run beside it), the broker of scripts/kafka.sh on the same machine, 6 partitions, trigger 250 ms.`;
console.log(`\n${context}\n\n${table}`);
if (!process.argv.includes("--no-results-md")) {
  const done = updateResultsMd({ [workers === 2 ? "rebalance" : `rebalance-${workers}`]: `${context}\n\n${table}` });
  console.error(
    done.length ? "bench/rebalance-pause: bench/RESULTS.md updated" : "bench/rebalance-pause: bench/RESULTS.md has no rebalance markers",
  );
}
process.exit(all.every((r) => r.ok) ? 0 : 1);
