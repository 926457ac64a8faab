/**
 * arus vs PySpark, side by side, on the same generated files (issue: "Benchmark against
 * PySpark side by side").
 *
 *   node --import tsx bench/compare.ts --quick                  # small size, ~2 min for both engines
 *   node --import tsx bench/compare.ts --size full              # documented full size
 *   node --import tsx bench/compare.ts --quick --engines arus   # arus only
 *        [--queries q0,q7] [--no-checksum] [--recheck] [--no-results-md] [--format parquet]
 *        [--conf key=value]...   (arus's settings, passed to bench/arus/run.ts)
 *        [--node-flag F]...      (flags of the node process running arus, e.g.
 *                                 --node-flag=--initial-old-space-size=128; docs/benchmarks.md)
 *
 * Writes bench/results/compare-<size>.json and the `compare-<size>` table of bench/RESULTS.md
 * (`compare-<size>-parquet` with `--format parquet`: the same rows as Parquet files, written
 * by bench/data/parquet.ts).
 *
 * Steps: generate the data (bench/data/generate.ts, cached by its manifest), build dist/ (the
 * arus runner measures the built package), run bench/arus/run.ts and bench/pyspark/run.py as
 * child processes (each runs every query in one process after one warm-up query; before each,
 * every data file is read once so both find their input in the page cache), and merge
 * their JSON lines. Each engine's checksum comes from a separate, untimed run with a
 * foreachBatch sink; PySpark's checksums are cached in bench/results/pyspark-checksums.json
 * under a key of (its query, runner and canonicalization files, the data manifest, the PySpark
 * version), since Spark's answer cannot change unless one of those does (`--recheck` recomputes
 * them). arus's checksums are always recomputed.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import path from "node:path";
import type { Manifest } from "./data/generate.js";
import { type DataFormat, dataFor } from "./data/parquet.js";
import type { EngineRun } from "./lib/engine-run.js";
import { warmPageCache } from "./lib/page-cache.js";
import { loadAverage } from "./lib/proc.js";
import { updateResultsMd } from "./lib/results-md.js";

const here = import.meta.dirname;
const root = path.resolve(here, "..");

export interface CompareRow {
  query: string;
  title: string;
  arus: EngineRun | null;
  pyspark: EngineRun | null;
  /** arus events/s ÷ PySpark events/s, on engine time and on wall time. */
  speedupEngine: number | null;
  speedupWall: number | null;
  /** arus events per CPU second (the "per core" figure). */
  arusEventsPerCpuS: number | null;
  checksumsAgree: boolean | null;
}

export interface CompareResult {
  date: string;
  size: string;
  format: DataFormat;
  manifest: Manifest;
  maxFilesPerTrigger: number;
  loadBefore: string;
  loadAfter: string;
  startup: Record<string, number>;
  pysparkVersion: string | null;
  pysparkSkipped: string | null;
  rows: CompareRow[];
  totalS: number;
}

export interface CompareOptions {
  size: string;
  format?: DataFormat;
  queries?: string[];
  engines?: ("arus" | "pyspark")[];
  checksum?: boolean;
  recheck?: boolean;
  /** `--conf key=value` settings for the arus runs (bench/arus/run.ts). */
  arusConf?: string[];
  /** Flags of the node process that runs arus (before its script). */
  nodeFlags?: string[];
  log?: (s: string) => void;
}

const QUERY_NAMES = ["seed001", "seed002", "q0", "q1", "q2", "q5", "q7", "q8"];

export function pysparkPython(): string {
  return path.join(process.env.ARUS_PYSPARK_VENV ?? path.join(homedir(), ".cache/arus/pyspark-venv"), "bin/python");
}

/** PySpark's version from the venv's files (no interpreter start). */
function pysparkVersion(python: string): string | null {
  const lib = path.join(path.dirname(path.dirname(python)), "lib");
  if (!existsSync(lib)) return null;
  for (const py of readdirSync(lib)) {
    const f = path.join(lib, py, "site-packages/pyspark/version.py");
    if (existsSync(f)) return /__version__[^"']*["']([^"']+)/.exec(readFileSync(f, "utf8"))?.[1] ?? null;
  }
  return null;
}

/** Run a child process; stdout JSON lines are returned, stderr is passed through (prefixed). */
function runJsonLines(cmd: string, args: string[], prefix: string, log: (s: string) => void): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const out: Record<string, unknown>[] = [];
    let buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d: string) => {
      buf += d;
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line.startsWith("{")) {
          const obj = JSON.parse(line) as Record<string, unknown>;
          out.push(obj);
          if (typeof obj.query === "string")
            log(`${prefix} ${obj.query}: ${obj.inputRows} events, wall ${(obj.wallS as number).toFixed(2)} s`);
        }
        nl = buf.indexOf("\n");
      }
    });
    let err = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d: string) => {
      err += d;
      for (const l of d.split("\n")) if (/\[pyspark-bench\]|Error|Exception/.test(l)) log(`${prefix} ${l.trim()}`);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}:\n${err.slice(-4000)}`));
    });
  });
}

function buildDist(log: (s: string) => void): void {
  const t = performance.now();
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.json")], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("tsc -p tsconfig.json failed: dist/ could not be built");
  log(`built dist/ in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

function checksumKey(manifest: Manifest, version: string | null): string {
  const h = createHash("sha256");
  for (const f of ["pyspark/queries.py", "pyspark/canonical.py", "pyspark/run.py"]) h.update(readFileSync(path.join(here, f)));
  h.update(JSON.stringify(manifest));
  h.update(version ?? "");
  return h.digest("hex").slice(0, 20);
}

/** Per data size: the key the checksums were computed under, and the checksums by query. */
type ChecksumCache = Record<string, { key: string; queries: Record<string, { outputRows: number; checksum: string }> }>;
const cachePath = path.join(here, "results/pyspark-checksums.json");

function readCache(): ChecksumCache {
  try {
    return JSON.parse(readFileSync(cachePath, "utf8")) as ChecksumCache;
  } catch {
    return {};
  }
}

export async function compare(opts: CompareOptions): Promise<CompareResult> {
  const log = opts.log ?? ((s: string) => process.stderr.write(`${s}\n`));
  const t0 = performance.now();
  const queries = opts.queries ?? QUERY_NAMES;
  const engines = opts.engines ?? ["arus", "pyspark"];
  const checksum = opts.checksum ?? true;
  const format = opts.format ?? "json";
  const { dir: dataDir, manifest } = dataFor(opts.size, format, log);
  // PySpark's checksums are cached per data set: size, and format when it is not JSON.
  const dataSet = format === "json" ? opts.size : `${opts.size}-${format}`;
  const maxFiles = 1;
  const loadBefore = loadAverage();
  const startup: Record<string, number> = {};
  const runs: EngineRun[] = [];

  const warm = (who: string) => {
    const t = performance.now();
    const bytes = warmPageCache(dataDir);
    log(`[${who}] page cache warmed: ${(bytes / 1e6).toFixed(0)} MB read in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  if (engines.includes("arus")) {
    buildDist(log);
    warm("arus");
    const args = [
      ...(opts.nodeFlags ?? []),
      "--import",
      "tsx",
      path.join(here, "arus/run.ts"),
      "--data",
      dataDir,
      "--queries",
      queries.join(","),
      "--max-files",
      String(maxFiles),
    ];
    if (!checksum) args.push("--no-checksum");
    for (const kv of opts.arusConf ?? []) args.push("--conf", kv);
    const lines = await runJsonLines(process.execPath, args, "[arus]", log);
    for (const l of lines) {
      if (typeof l.query === "string") runs.push(l as unknown as EngineRun);
      else if (typeof l.startupS === "number") startup.arus = l.startupS;
    }
  }

  let version: string | null = null;
  let skipped: string | null = null;
  if (engines.includes("pyspark")) {
    const python = pysparkPython();
    version = pysparkVersion(python);
    if (!existsSync(python) || version === null) {
      skipped = `no PySpark venv at ${python} (run scripts/setup-pyspark.sh)`;
      log(`[pyspark] skipped: ${skipped}`);
    } else {
      const key = checksumKey(manifest, version);
      const cache = readCache();
      const cached = cache[dataSet]?.key === key ? cache[dataSet]!.queries : {};
      const needChecksums = checksum && (opts.recheck || queries.some((q) => !cached[q]));
      const args = [path.join(here, "pyspark/run.py"), "--data", dataDir, "--queries", queries.join(","), "--max-files", String(maxFiles)];
      if (!needChecksums) args.push("--no-checksum");
      else log("[pyspark] computing checksums (cached afterwards; --recheck recomputes)");
      warm("pyspark");
      const lines = await runJsonLines(python, args, "[pyspark]", log);
      for (const l of lines) {
        if (typeof l.query === "string") {
          const r = l as unknown as EngineRun;
          if (r.checksum !== null) cached[r.query] = { outputRows: r.outputRows!, checksum: r.checksum };
          else if (checksum && cached[r.query]) {
            r.outputRows = cached[r.query]!.outputRows;
            r.checksum = cached[r.query]!.checksum;
            r.checksumCached = true;
          }
          runs.push(r);
        } else if (typeof l.startupS === "number") startup.pyspark = l.startupS;
      }
      if (needChecksums) {
        cache[dataSet] = { key, queries: cached };
        mkdirSync(path.dirname(cachePath), { recursive: true });
        writeFileSync(cachePath, `${JSON.stringify(cache, null, 2)}\n`);
      }
    }
  }

  const rows: CompareRow[] = queries.map((q) => {
    const a = runs.find((r) => r.engine === "arus" && r.query === q) ?? null;
    const p = runs.find((r) => r.engine === "pyspark" && r.query === q) ?? null;
    const both = a && p;
    return {
      query: q,
      title: (a ?? p)?.title ?? q,
      arus: a,
      pyspark: p,
      speedupEngine: both ? p.engineS / a.engineS : null,
      speedupWall: both ? p.wallS / a.wallS : null,
      arusEventsPerCpuS: a ? a.inputRows / a.cpuS : null,
      checksumsAgree: both && a.checksum && p.checksum ? a.checksum === p.checksum && a.outputRows === p.outputRows : null,
    };
  });
  return {
    date: new Date().toISOString(),
    size: opts.size,
    format,
    manifest,
    maxFilesPerTrigger: maxFiles,
    loadBefore,
    loadAfter: loadAverage(),
    startup,
    pysparkVersion: version,
    pysparkSkipped: skipped,
    rows,
    totalS: (performance.now() - t0) / 1000,
  };
}

// ----------------------------------------------------------------------------------- reporting

const f1 = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const evs = (n: number, s: number) => `${f1(n / s / 1000)} k`;
const mb = (b: number) => `${(b / 1048576).toFixed(0)}`;

export function compareTable(r: CompareResult): string {
  const lines = [
    "| query | events | arus ev/s | PySpark ev/s | **arus ÷ PySpark** (engine time) | arus ÷ PySpark (wall) | arus ÷ PySpark (CPU) | arus ev/CPU-s | wall s arus / PySpark | CPU s arus / PySpark | peak RSS MB arus / PySpark | output rows | checksums |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  const pair = (a: number | undefined, p: number | undefined, fmt: (x: number) => string) =>
    `${a === undefined ? "—" : fmt(a)} / ${p === undefined ? "—" : fmt(p)}`;
  for (const row of r.rows) {
    const a = row.arus;
    const p = row.pyspark;
    const cs =
      row.checksumsAgree === null
        ? a?.checksum
          ? `arus ${a.checksum.slice(0, 8)}`
          : "—"
        : row.checksumsAgree
          ? `agree (${a!.checksum!.slice(0, 8)})`
          : `**DIFFER** (arus ${a!.checksum!.slice(0, 8)}, PySpark ${p!.checksum!.slice(0, 8)})`;
    const ao = a?.outputRows ?? null;
    const po = p?.outputRows ?? null;
    const out = ao !== null && po !== null && ao !== po ? `${ao} vs ${po}` : String(ao ?? po ?? "—");
    const cpuRatio = a && p ? p.cpuS / a.cpuS : null;
    lines.push(
      `| ${row.query} | ${(a ?? p)?.inputRows ?? "—"} | ${a ? evs(a.inputRows, a.engineS) : "—"} | ${p ? evs(p.inputRows, p.engineS) : "—"} | ${row.speedupEngine ? `**${f1(row.speedupEngine)}×**` : "—"} | ${row.speedupWall ? `${f1(row.speedupWall)}×` : "—"} | ${cpuRatio ? `${f1(cpuRatio)}×` : "—"} | ${row.arusEventsPerCpuS ? evs(row.arusEventsPerCpuS, 1) : "—"} | ${pair(a?.wallS, p?.wallS, f1)} | ${pair(a?.cpuS, p?.cpuS, f1)} | ${pair(a?.peakRssBytes, p?.peakRssBytes, mb)} | ${out} | ${cs} |`,
    );
  }
  const m = r.manifest;
  lines.push(
    "",
    `Size \`${r.size}\`${r.format === "json" ? "" : `, ${r.format === "parquet" ? "Parquet" : r.format} files`}: ${m.rows.person} persons, ${m.rows.auction} auctions, ${m.rows.bid} bids (${m.files.bid} file${m.files.bid === 1 ? "" : "s"} per Nexmark directory), ${m.rows.orders} checkout orders (${m.files.orders} file${m.files.orders === 1 ? "" : "s"}); maxFilesPerTrigger ${r.maxFilesPerTrigger}. ` +
      `Startup (not in the figures): arus ${r.startup.arus?.toFixed(1) ?? "—"} s, PySpark (JVM + session) ${r.startup.pyspark?.toFixed(1) ?? "—"} s. ` +
      `Load average (1/5/15 min) before ${r.loadBefore}, after ${r.loadAfter}, on ${availableParallelism()} cores. PySpark ${r.pysparkVersion ?? "—"}${r.pysparkSkipped ? ` (skipped: ${r.pysparkSkipped})` : ""}${r.rows.some((x) => x.pyspark?.checksumCached) ? " (PySpark checksums from the cache)" : ""}; node ${process.version}. ${r.date}, ${r.totalS.toFixed(0)} s in all.`,
  );
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const size = argv.includes("--quick") ? "quick" : (get("--size") ?? "quick");
  const format = (get("--format") ?? "json") as DataFormat;
  if (format !== "json" && format !== "parquet") throw new Error(`--format: json or parquet, not ${format}`);
  const name = format === "json" ? size : `${size}-${format}`;
  const r = await compare({
    size,
    format,
    queries: get("--queries")?.split(","),
    engines: get("--engines")?.split(",") as ("arus" | "pyspark")[] | undefined,
    checksum: !argv.includes("--no-checksum"),
    recheck: argv.includes("--recheck"),
    arusConf: argv.flatMap((a, i) => (a === "--conf" && argv[i + 1] !== undefined ? [argv[i + 1]!] : [])),
    nodeFlags: argv.flatMap((a) => (a.startsWith("--node-flag=") ? [a.slice("--node-flag=".length)] : [])),
  });
  mkdirSync(path.join(here, "results"), { recursive: true });
  writeFileSync(path.join(here, `results/compare-${name}.json`), `${JSON.stringify(r, null, 2)}\n`);
  const table = compareTable(r);
  process.stdout.write(`${table}\n`);
  if (!argv.includes("--no-results-md")) updateResultsMd({ [`compare-${name}`]: table });
}
