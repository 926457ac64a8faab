/**
 * The cost of the monitoring layer (docs/monitoring.md): the quick benchmark's queries with
 * monitoring off (`arus.monitoring.enabled=false`, `spark.ui.enabled=false`), on (Spark's
 * default: the monitor, alert rules, metrics and the dashboard listening), and on with a
 * dashboard viewer (curl, another process) following /api/events, side by side; then the per-batch cost on a loop
 * of 1-row batches and the monitor's own time per progress event.
 *
 *   node --import tsx bench/monitoring.ts [--reps 2] [--queries q0,q5] [--engine src]
 *
 * Throughput is input rows ÷ wall time (start() → the availableNow query ends), because the
 * monitor runs in the listener, after each batch's own durationMs. Modes alternate within each
 * repetition (order rotated) and the median of the repetitions is reported.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import type * as Arus from "../src/index.js";
import { QUERIES, queryByName } from "./arus/queries.js";
import { loadEngine, runQuery } from "./arus/run.js";
import { dataFor } from "./data/parquet.js";
import { loadAverage } from "./lib/proc.js";

const argv = process.argv.slice(2);
const get = (k: string) => {
  const i = argv.indexOf(k);
  return i >= 0 ? argv[i + 1] : undefined;
};
const reps = Number(get("--reps") ?? 2);
const names = (get("--queries") ?? QUERIES.map((q) => q.name).join(",")).split(",");
const root = path.resolve(import.meta.dirname, "..");
const log = (s: string) => process.stderr.write(`${s}\n`);

type Mode = "off" | "on" | "on + viewer";
const MODES: Mode[] = ["off", "on", "on + viewer"];

function session(arus: typeof Arus, mode: Mode): Arus.Session {
  const conf: Record<string, string> = {
    "spark.app.name": `monitoring-bench-${mode}`,
    "spark.master": "local[2]",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "2",
    "arus.state.threads": "1",
    "spark.ui.port": "0",
  };
  if (mode === "off") Object.assign(conf, { "arus.monitoring.enabled": "false", "spark.ui.enabled": "false" });
  return new arus.Session(conf);
}

/**
 * A dashboard viewer: curl holding /api/events open in another process, reading every event,
 * as a browser tab does (a reader inside this process would bill its own parsing to arus).
 */
async function viewer(arus: typeof Arus, s: Arus.Session): Promise<() => void> {
  const url = await arus.dashboardUrl(s);
  if (!url) throw new Error("the dashboard did not start");
  const child = spawn("curl", ["-sN", `${url}/api/events`], { stdio: ["ignore", "ignore", "ignore"] });
  await new Promise((r) => setTimeout(r, 500)); // connected by then
  return () => child.kill();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function throughput(arus: typeof Arus, data: string) {
  const sessions = Object.fromEntries(MODES.map((m) => [m, session(arus, m)])) as Record<Mode, Arus.Session>;
  const stopViewer = await viewer(arus, sessions["on + viewer"]);
  const rows: Record<string, Record<Mode, number[]>> = {};
  const cpu: Record<string, Record<Mode, number[]>> = {};
  const events: Record<string, number> = {};
  // Warm-up: one run of the first query per mode.
  for (const m of MODES) await runQuery({ arus, session: sessions[m], data, maxFiles: 1 }, queryByName(names[0]!), false);
  for (let r = 0; r < reps; r++) {
    for (const name of names) {
      rows[name] ??= { off: [], on: [], "on + viewer": [] };
      cpu[name] ??= { off: [], on: [], "on + viewer": [] };
      const order = MODES.map((_, i) => MODES[(i + r + names.indexOf(name)) % MODES.length]!);
      for (const m of order) {
        const run = await runQuery({ arus, session: sessions[m], data, maxFiles: 1 }, queryByName(name), false);
        rows[name]![m].push(run.inputRows / run.wallS);
        cpu[name]![m].push(run.inputRows / run.cpuS);
        events[name] = run.inputRows;
        log(`[monitoring] ${name} ${m}: ${(run.inputRows / run.wallS / 1000).toFixed(0)} k rows/s (${run.batches} batches)`);
      }
    }
  }
  stopViewer();
  for (const s of Object.values(sessions)) await s.stop();
  return names.map((name) => {
    const m = (x: Record<Mode, number[]>) => ({ off: median(x.off), on: median(x.on), viewed: median(x["on + viewer"]) });
    return { name, events: events[name]!, wall: m(rows[name]!), cpu: m(cpu[name]!) };
  });
}

/** 1-row batches through memory stream → noop, wall time per batch. */
async function perBatch(arus: typeof Arus, batches = 400) {
  const out: Record<Mode, number[]> = { off: [], on: [], "on + viewer": [] };
  for (let r = 0; r < 3; r++) {
    for (const m of MODES) {
      const s = session(arus, m);
      const stop = m === "on + viewer" ? await viewer(arus, s) : () => {};
      const ms = s.memoryStream("id INT, ts TIMESTAMP");
      const q = await ms
        .toDF()
        .withWatermark("ts", "5 seconds")
        .groupBy(arus.functions.window("ts", "10 seconds"))
        .count()
        .writeStream.format("noop")
        .outputMode("update")
        .start();
      const row = [{ id: 1, ts: new Date(0) }];
      for (let i = 0; i < 30; i++) {
        ms.addData(row);
        await q.processAllAvailable();
      }
      const t = performance.now();
      for (let i = 0; i < batches; i++) {
        ms.addData(row);
        await q.processAllAvailable();
      }
      out[m].push((performance.now() - t) / batches);
      await q.stop();
      stop();
      await s.stop();
    }
  }
  return { off: median(out.off), on: median(out.on), viewed: median(out["on + viewer"]) };
}

/** The monitor's own time per progress event: a real progress entry replayed through its listener. */
async function listenerCost(arus: typeof Arus, events = 20_000) {
  const s = session(arus, "on");
  const ms = s.memoryStream("id INT, ts TIMESTAMP");
  const q = await ms
    .toDF()
    .withWatermark("ts", "5 seconds")
    .groupBy(arus.functions.window("ts", "10 seconds"))
    .count()
    .writeStream.format("noop")
    .outputMode("update")
    .start();
  ms.addData([{ id: 1, ts: new Date(0) }]);
  await q.processAllAvailable();
  const p = q.lastProgress!;
  await q.stop();
  // The session's listeners now: the monitor only (the query has ended but its record remains).
  const listeners = (s.streams as unknown as { listeners: { onQueryProgress?(e: unknown): void }[] }).listeners;
  const monitor = listeners[0]!;
  const e = { id: p.id, runId: p.runId, progress: p };
  for (let i = 0; i < 2000; i++) monitor.onQueryProgress!(e);
  const t = performance.now();
  for (let i = 0; i < events; i++) monitor.onQueryProgress!(e);
  const us = ((performance.now() - t) / events) * 1000;
  await s.stop();
  return us;
}

const started = new Date().toISOString();
const loadBefore = loadAverage();
const engine = get("--engine") === "src" ? "src" : "dist";
if (engine === "dist") {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], {
    cwd: root,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("tsc -p tsconfig.json failed");
}
const arus = await loadEngine(engine);
const { dir } = dataFor("quick", "json", log);
const tp = await throughput(arus, dir);
const pb = await perBatch(arus);
const us = await listenerCost(arus);
const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
const k = (x: number) => `${(x / 1000).toFixed(0)} k`;
const total = (f: (r: (typeof tp)[number]) => number) => tp.reduce((a, r) => a + r.events / f(r), 0);
const sumRow = (kind: "wall" | "cpu") => {
  const ev = tp.reduce((a, r) => a + r.events, 0);
  const off = ev / total((r) => r[kind].off);
  const on = ev / total((r) => r[kind].on);
  const viewed = ev / total((r) => r[kind].viewed);
  return `| **all** (${kind}) | ${ev} | ${k(off)} | ${k(on)} | ${k(viewed)} | **${pct(on, off)}** | **${pct(viewed, off)}** |`;
};
const table = (kind: "wall" | "cpu") => [
  "| query | events | off | on | on + viewer | on vs off | on + viewer vs off |",
  "|---|---|---|---|---|---|---|",
  ...tp.map(
    (r) =>
      `| ${r.name} | ${r.events} | ${k(r[kind].off)} | ${k(r[kind].on)} | ${k(r[kind].viewed)} | ${pct(r[kind].on, r[kind].off)} | ${pct(r[kind].viewed, r[kind].off)} |`,
  ),
  sumRow(kind),
];
const lines = [
  "Rows per CPU second of the process (CPU time is what monitoring adds; less sensitive than wall time to other load on the machine):",
  "",
  ...table("cpu"),
  "",
  "Rows per wall second:",
  "",
  ...table("wall"),
  "",
  `Per 1-row batch (windowed count, memory stream → noop, wall time incl. the idle trigger processAllAvailable waits for; median of 3 × 400): off ${pb.off.toFixed(3)} ms, on ${pb.on.toFixed(3)} ms (+${(pb.on - pb.off).toFixed(3)} ms), on + viewer ${pb.viewed.toFixed(3)} ms (+${(pb.viewed - pb.off).toFixed(3)} ms).`,
  `The monitor's own time per progress event (alert rules, metrics, history; no events client): ${us.toFixed(1)} µs.`,
  "",
  `Engine ${engine}; ${reps} repetitions, median; load average before ${loadBefore}, after ${loadAverage()}; node ${process.version}; ${started}.`,
];
process.stdout.write(`${lines.join("\n")}\n`);
