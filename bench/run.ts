/**
 * `npm run bench`: every benchmark, then bench/results/latest.json and the generated tables in
 * bench/RESULTS.md (between the `<!-- bench:<section>:start/end -->` markers; sections: micro,
 * compare-<size>, latency; the prose around them is kept; --no-results-md leaves the file alone).
 *
 *   npm run bench -- --quick               small sizes (~3 min, of which ~2 min the engine comparison)
 *   npm run bench                          full sizes (see docs/benchmarks.md for the run time)
 *   npm run bench -- --only compare,latency --engines arus
 *
 * Sections (--only takes a comma list of these names):
 *   engine     in-memory group-by and filter+project (bench/engine.ts), 1 M rows (--quick) / 10 M
 *   streaming  per-batch overhead of the micro-batch loop (bench/streaming.ts)
 *   cold       process start to first batch on the built package (bench/cold-start.mjs)
 *   compare    arus vs PySpark 4.x on the same generated files (bench/compare.ts)
 *   latency    event creation → sink at 10 k events/s, with and without a checkpoint (bench/latency.ts)
 *   kafka      Kafka → from_json → windowed count → Kafka, arus vs PySpark: throughput and latency
 *              (bench/kafka.ts; needs ARUS_KAFKA_BOOTSTRAP; not in the default set: --only kafka)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadEngine } from "./arus/run.js";
import { type CompareResult, compare, compareTable } from "./compare.js";
import { engineBenchmarks } from "./engine.js";
import { type KafkaBenchResult, kafkaBenchFromArgs, kafkaTable } from "./kafka.js";
import { type LatencyResult, latencyBenchmarks, latencyTable } from "./latency.js";
import { loadAverage } from "./lib/proc.js";
import { updateResultsMd } from "./lib/results-md.js";
import { streamingBenchmarks } from "./streaming.js";

const argv = process.argv.slice(2);
const opt = (k: string) => {
  const i = argv.indexOf(k);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = argv.includes("--quick");
const rows = quick ? 1_000_000 : 10_000_000;
const ALL = ["engine", "streaming", "cold", "compare", "latency"];
const only = new Set(opt("--only")?.split(",") ?? ALL);
const root = path.resolve(import.meta.dirname, "..");

function buildDist(): void {
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], {
    cwd: root,
  });
}

function coldStart(): number {
  // Median of 3 fresh processes: process start to the first batch, on the built package.
  buildDist();
  const runs = [0, 1, 2].map(() =>
    Number(execFileSync(process.execPath, [path.join(root, "bench/cold-start.mjs")], { encoding: "utf8" }).trim()),
  );
  return runs.sort((a, b) => a - b)[1]!;
}

const started = new Date().toISOString();
const loadBefore = loadAverage();
const engine = only.has("engine") ? await engineBenchmarks(rows) : [];
const streaming = only.has("streaming") ? await streamingBenchmarks() : [];
const cold = only.has("cold") ? coldStart() : null;
let comparison: CompareResult | null = null;
if (only.has("compare")) {
  comparison = await compare({
    size: opt("--size") ?? (quick ? "quick" : "full"),
    queries: opt("--queries")?.split(","),
    engines: opt("--engines")?.split(",") as ("arus" | "pyspark")[] | undefined,
    checksum: !argv.includes("--no-checksum"),
    recheck: argv.includes("--recheck"),
  });
}
let latency: LatencyResult[] = [];
if (only.has("latency")) {
  buildDist();
  latency = await latencyBenchmarks(await loadEngine("dist"), quick ? 5 : 30);
}

let kafka: KafkaBenchResult | null = null;
if (only.has("kafka")) kafka = await kafkaBenchFromArgs(quick ? [...argv, "--events", "100000", "--seconds", "5"] : argv);

const micro = [
  `| benchmark | figure |`,
  `|---|---|`,
  ...engine.map(
    (r) => `| ${r.name}, ${(r.rows / 1e6).toFixed(0)} M rows | ${(r.rowsPerSec / 1e6).toFixed(1)} M rows/s (${r.ms.toFixed(0)} ms) |`,
  ),
  ...streaming.map((r) => `| per-batch overhead: ${r.name} | ${r.msPerBatch.toFixed(2)} ms/batch (mean of ${r.batches}) |`),
  ...(cold === null ? [] : [`| cold start: process start to first batch (built package, median of 3) | ${cold.toFixed(0)} ms |`]),
].join("\n");
const sections: Record<string, string> = {};
if (engine.length || streaming.length || cold !== null)
  sections.micro = `${micro}\n\nLoad average before: ${loadBefore}; node ${process.version}; ${quick ? "--quick" : "full"}; ${started}.`;
if (comparison) sections[`compare-${comparison.size}`] = compareTable(comparison);
if (latency.length)
  sections.latency = `${latencyTable(latency)}\n\nLoad average after: ${loadAverage()}; ${quick ? "--quick (5 s per run)" : "30 s per run"}; ${new Date().toISOString()}.`;
if (kafka) sections.kafka = kafkaTable(kafka);
for (const s of Object.values(sections)) process.stdout.write(`${s}\n\n`);

mkdirSync(path.resolve(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  path.resolve(import.meta.dirname, "results/latest.json"),
  `${JSON.stringify({ date: started, node: process.version, quick, loadBefore, loadAfter: loadAverage(), engine, streaming, coldStartMs: cold, comparison, latency, kafka }, null, 2)}\n`,
);

// Replace the generated tables in RESULTS.md, leaving the prose alone.
if (!argv.includes("--no-results-md")) {
  const done = updateResultsMd(sections);
  process.stderr.write(`bench/RESULTS.md: updated ${done.join(", ") || "nothing (no markers)"}\n`);
}
