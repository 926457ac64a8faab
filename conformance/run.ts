/**
 * `npm run test:conformance`: differential tests of arus against real PySpark.
 *
 *   tsx conformance/run.ts [--filter S]... [--spark-only] [--no-spark] [--force-spark] [--no-console] [--no-fail]
 *
 * 1. loads conformance/cases/ ** /*.case.ts and exports the Spark-side specs to .cache/specs/
 * 2. runs spark_runner.py in the PySpark venv (ARUS_PYSPARK_VENV, default ~/.cache/arus/pyspark-venv)
 *    for cases whose cached result (.cache/spark/<id>/) is missing or stale; --no-spark uses the
 *    cache only, and a missing venv also falls back to the cache (cases without results are skipped)
 * 3. runs every case through arus (.cache/arus/<id>/)
 * 4. compares, writes conformance/REPORT.md, prints "N passed, N failed" and exits 1 on failures
 *    (unless --no-fail).
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { loadEngine, runArusCase } from "./arus_runner.js";
import { type CaseOutcome, compareResults, readResult } from "./compare.js";
import { KNOWN_DIFFERENCES } from "./known-differences.js";
import { loadCases } from "./load_cases.js";
import { writeReport } from "./report.js";

const HERE = import.meta.dirname;
const CACHE = join(HERE, ".cache");
const SPECS = join(CACHE, "specs");
/** Where Spark results live; ARUS_SPARK_RESULTS may point at a shared or committed copy. */
const SPARK_OUT = process.env.ARUS_SPARK_RESULTS ? resolve(process.env.ARUS_SPARK_RESULTS) : join(CACHE, "spark");
const ARUS_OUT = join(CACHE, "arus");

export function venvPython(): string {
  const venv = process.env.ARUS_PYSPARK_VENV ?? join(homedir(), ".cache", "arus", "pyspark-venv");
  return join(venv, "bin", "python");
}

const USAGE = "usage: tsx conformance/run.ts [--filter S]... [--spark-only] [--no-spark] [--force-spark] [--no-console] [--no-fail]";
const FLAGS = new Set(["--spark-only", "--no-spark", "--force-spark", "--no-console", "--no-fail"]);

async function main() {
  const args = process.argv.slice(2);
  const filter: string[] = [];
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--filter") filter.push(args[++i]);
    else if (args[i] === "--help" || args[i] === "-h") {
      console.log(USAGE);
      return;
    } else if (FLAGS.has(args[i])) flags.add(args[i]);
    else {
      // An unknown word must not start the whole suite against Spark (minutes of JVM time).
      console.error(`unknown argument ${JSON.stringify(args[i])}\n${USAGE}`);
      process.exit(2);
    }
  }
  const cases = await loadCases(undefined, filter);
  if (cases.length === 0) throw new Error("no cases matched");

  // 1. specs
  if (filter.length === 0) rmSync(SPECS, { recursive: true, force: true });
  for (const c of cases) {
    const p = join(SPECS, `${c.id}.json`);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, `${JSON.stringify(c.spec, null, 2)}\n`);
  }

  // 2. Spark
  const py = venvPython();
  if (!flags.has("--no-spark")) {
    if (existsSync(py)) {
      const sargs = [join(HERE, "spark_runner.py"), ...filter.flatMap((f) => ["--filter", f])];
      if (flags.has("--force-spark")) sargs.push("--force");
      if (flags.has("--no-console")) sargs.push("--no-console");
      if (filter.length === 0) sargs.push("--prune");
      sargs.push(SPECS, SPARK_OUT);
      const r = spawnSync(py, sargs, { stdio: ["ignore", "inherit", "inherit"] });
      if (r.status !== 0) process.stderr.write(`[conformance] spark_runner exited with ${r.status}\n`);
    } else {
      process.stderr.write(`[conformance] no PySpark venv at ${py}; run scripts/setup-pyspark.sh. Using cached Spark results only.\n`);
    }
  }
  if (flags.has("--spark-only")) return;

  // 3. arus
  const eng = await loadEngine();
  const outcomes: (CaseOutcome & { description: string })[] = [];
  const versions = new Set<string>();
  for (const c of cases) {
    const sdir = join(SPARK_OUT, c.id);
    const adir = join(ARUS_OUT, c.id);
    const sres = readResult(sdir);
    if (sres.meta.sparkVersion) versions.add(sres.meta.sparkVersion);
    if (sres.meta.status !== "missing") await runArusCase(c.spec, c.def, adir);
    const ares = readResult(adir);
    const compared = compareResults(c.id, sres, ares, c.spec.compare, c.spec.expectError);
    const known = KNOWN_DIFFERENCES[c.id];
    const o: CaseOutcome = !known
      ? compared
      : compared.verdict === "fail"
        ? { ...compared, verdict: "known", reason: `known difference: ${known} (${compared.reason})` }
        : compared.verdict === "pass"
          ? { ...compared, verdict: "fail", reason: "listed in known-differences.ts but passes now: remove it from the list" }
          : compared;
    outcomes.push({ ...o, description: c.def.description });
    process.stderr.write(`[conformance] ${o.verdict.padEnd(4)} ${c.id}${o.verdict === "fail" ? `: ${o.reason.slice(0, 160)}` : ""}\n`);
  }

  // 4. report
  const pass = outcomes.filter((o) => o.verdict === "pass").length;
  const fail = outcomes.filter((o) => o.verdict === "fail").length;
  const skip = outcomes.filter((o) => o.verdict === "skip").length;
  const known = outcomes.filter((o) => o.verdict === "known").length;
  if (filter.length === 0) {
    writeReport(join(HERE, "REPORT.md"), {
      outcomes,
      sparkVersions: [...versions].sort(),
      arusNote: eng ? undefined : "engine not loadable (src/index.js missing or failing); every case fails",
    });
  }
  if (known) process.stdout.write(`conformance: ${known} known differences (listed with reasons in conformance/REPORT.md)\n`);
  // Repeated at the very end so that a log's tail (all CI keeps) names what failed and why.
  for (const o of outcomes.filter((x) => x.verdict === "fail")) {
    process.stdout.write(`conformance: FAILED ${o.id}: ${o.reason}\n`);
    for (const d of o.diffs.slice(0, 8)) {
      process.stdout.write(`  ${d.kind}${d.batchId === undefined ? "" : ` (batch ${d.batchId})`}: ${d.message.slice(0, 400)}\n`);
      for (const m of (d.missing ?? []).slice(0, 5)) process.stdout.write(`    only in Spark: ${m.slice(0, 300)}\n`);
      for (const u of (d.unexpected ?? []).slice(0, 5)) process.stdout.write(`    only in arus: ${u.slice(0, 300)}\n`);
    }
  }
  process.stdout.write(`conformance: ${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ""}\n`);
  if (fail > 0 && !flags.has("--no-fail")) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
