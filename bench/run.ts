/**
 * `npm run bench`: engine throughput, per-batch overhead and cold start. Prints a table and
 * writes bench/results/latest.json; copy the table into bench/RESULTS.md with the command.
 * `--quick` uses 1 M rows instead of 10 M.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { engineBenchmarks } from "./engine.js";
import { streamingBenchmarks } from "./streaming.js";

const quick = process.argv.includes("--quick");
const rows = quick ? 1_000_000 : 10_000_000;

function coldStart(): number {
  // Median of 3 fresh processes: process start to the first batch, on the built package.
  const root = path.resolve(import.meta.dirname, "..");
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { cwd: root });
  const runs = [0, 1, 2].map(() => Number(execFileSync(process.execPath, [path.join(root, "bench/cold-start.mjs")], { encoding: "utf8" }).trim()));
  return runs.sort((a, b) => a - b)[1]!;
}

const engine = await engineBenchmarks(rows);
const streaming = await streamingBenchmarks();
const cold = coldStart();
const lines = [
  `| benchmark | figure |`,
  `|---|---|`,
  ...engine.map((r) => `| ${r.name}, ${(r.rows / 1e6).toFixed(0)} M rows | ${(r.rowsPerSec / 1e6).toFixed(1)} M rows/s (${r.ms.toFixed(0)} ms) |`),
  ...streaming.map((r) => `| per-batch overhead: ${r.name} | ${r.msPerBatch.toFixed(2)} ms/batch (mean of ${r.batches}) |`),
  `| cold start: process start to first batch (built package, median of 3) | ${cold.toFixed(0)} ms |`,
];
process.stdout.write(`${lines.join("\n")}\n`);
mkdirSync(path.resolve(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  path.resolve(import.meta.dirname, "results/latest.json"),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, engine, streaming, coldStartMs: cold }, null, 2),
);
