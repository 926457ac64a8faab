/**
 * Random differential fuzzer: generated streaming queries through real PySpark and arus.
 *
 *   node --import tsx conformance/fuzz/run.ts --seed N [--cases K] [--only i,j] [--out DIR] [--no-spark] [--show]
 *   node --import tsx conformance/fuzz/run.ts --found [--no-spark]     # the minimised repros in fuzz/found/
 *   node --import tsx conformance/fuzz/run.ts --dir DIR [--no-spark]   # every *.case.ts in DIR (minimising by hand)
 *
 * `--missing-fields` lets the generator leave NULL fields out of JSON lines (off by default, see gen.ts).
 * `--kind single|join|sql` generates only that kind of case (default: the mix of gen.ts).
 * `--strict` reports the failures that match a KNOWN signature (already in fuzz/found/) as failures too.
 * Case i of seed N is generated from caseSeed(N, i) (gen.ts), gets the id `s<N>-<i>`, and is
 * written as a `.case.ts` file under OUT/cases/ (to rerun or minimise by hand). All cases of a
 * run go through spark_runner.py in one JVM (results cached by spec hash in OUT/spark/, so a
 * rerun of a seed costs no JVM time), then through arus in this process (OUT/arus/), and are
 * compared with compare.ts. A case Spark refuses or fails is compared as an expected error: arus
 * must fail too, in the same phase, and its message must name one of Spark's error conditions.
 * OUT defaults to /tmp/arus-fuzz/<seed>.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { runArusCase } from "../arus_runner.js";
import { type CaseDef, type CaseSpec, toSpec } from "../case.js";
import { type CaseOutcome, compareResults, type EngineResult, readResult } from "../compare.js";
import { venvPython } from "../run.js";
import { caseFileText, GEN_VERSION, type Generated, generate } from "./gen.js";
import { caseSeed } from "./prng.js";

const HERE = import.meta.dirname;
const RUNNER = resolve(HERE, "..", "spark_runner.py");
const CASE_TS = resolve(HERE, "..", "case.ts");

/** Wrappers Spark puts around the real error condition of a failed batch. */
const WRAPPERS = new Set(["STREAM_FAILED", "FOREACH_BATCH_USER_FUNCTION_ERROR"]);

interface Item {
  id: string;
  def: CaseDef;
  spec: CaseSpec;
  gen?: Generated;
  file?: string;
}

function parseArgs(argv: string[]) {
  const o = {
    seed: 1,
    cases: 40,
    only: null as number[] | null,
    out: "",
    noSpark: false,
    found: false,
    dir: "",
    show: false,
    missingFields: false,
    strict: false,
    kind: undefined as "single" | "join" | "sql" | undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--seed") o.seed = Number(argv[++i]);
    else if (a === "--cases") o.cases = Number(argv[++i]);
    else if (a === "--only") o.only = argv[++i].split(",").map(Number);
    else if (a === "--out") o.out = resolve(argv[++i]);
    else if (a === "--no-spark") o.noSpark = true;
    else if (a === "--found") o.found = true;
    else if (a === "--dir") o.dir = resolve(argv[++i]);
    else if (a === "--show") o.show = true;
    else if (a === "--missing-fields") o.missingFields = true;
    else if (a === "--strict") o.strict = true;
    else if (a === "--kind") o.kind = argv[++i] as "single" | "join" | "sql";
    else {
      console.error(`unknown argument ${a}\nusage: run.ts --seed N [--cases K] [--only i,j] [--out DIR] [--no-spark] [--show] | --found`);
      process.exit(2);
    }
  }
  if (o.found) o.dir = join(HERE, "found");
  if (!o.out) o.out = o.dir ? `/tmp/arus-fuzz/dir-${basename(o.dir)}` : `/tmp/arus-fuzz/${o.seed}${o.kind ? `-${o.kind}` : ""}`;
  return o;
}

/** The error conditions of a failure (Spark's list, or the [BRACKETED] names in arus's message). */
function conditions(r: EngineResult): string[] {
  const e = r.meta.error;
  if (!e) return [];
  const list = e.conditions?.length ? e.conditions : [...e.message.matchAll(/\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]/g)].map((m) => m[1]);
  return list.filter((c) => !WRAPPERS.has(c));
}

/** Compares one case; a Spark failure becomes an expected error whose class arus must share. */
function judge(item: Item, s: EngineResult, a: EngineResult): CaseOutcome & { sparkError?: string } {
  if (s.meta.status === "error" || s.meta.status === "expected-error") {
    const sc = conditions(s);
    const expect = sc[0] ?? s.meta.error?.message.split("\n")[0] ?? "error";
    const o = compareResults(item.id, { ...s, meta: { ...s.meta, status: "expected-error" } }, a, item.spec.compare, expect);
    if (o.verdict === "pass") {
      const ac = conditions(a);
      const msg = a.meta.error?.message ?? "";
      // A new-style class must be named in arus's message ("[CLASS] ..."); for a legacy class
      // (_LEGACY_ERROR_TEMP_*, whose name Spark does not print) the start of Spark's text must be there.
      const sparkText = (s.meta.error?.message ?? "").replace(/^\[[^\]]*\]\s*/, "").slice(0, 60);
      const same = sc.length === 0 || sc.some((c) => msg.includes(c) || (c.startsWith("_LEGACY_ERROR_TEMP") && msg.includes(sparkText)));
      if (!same) {
        return {
          ...o,
          verdict: "fail",
          reason: `both failed, but with different errors: Spark [${sc.join(", ")}] ${JSON.stringify(sparkText)}, arus [${ac.join(", ")}] ${msg.split("\n")[0].slice(0, 200)}`,
          sparkError: sc.join(","),
        };
      }
    }
    return { ...o, sparkError: sc.join(",") || "error" };
  }
  return compareResults(item.id, s, a, item.spec.compare, null);
}

const LOCK = "/tmp/arus-fuzz/.jvm.lock";

/** One fuzz JVM at a time on this machine: waits while another run.ts holds the lock (its pid alive). */
async function jvmLock(): Promise<void> {
  mkdirSync("/tmp/arus-fuzz", { recursive: true });
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: "wx" });
      return;
    } catch {
      const pid = Number(readFileSync(LOCK, "utf8"));
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = pid !== process.pid;
      } catch {
        alive = false;
      }
      if (!alive) rmSync(LOCK, { force: true });
      else await new Promise((r) => setTimeout(r, 5000));
    }
  }
}

/** The Spark result in a directory was computed for this spec (its query, inputs and mode). */
function sameSpec(path: string, spec: CaseSpec): boolean {
  if (!existsSync(path)) return false;
  const old = JSON.parse(readFileSync(path, "utf8")) as CaseSpec;
  const key = (x: CaseSpec) =>
    JSON.stringify([
      x.pyspark,
      x.sql,
      x.outputMode,
      x.trigger,
      x.restartAt,
      x.inputs.map((i) => ("files" in i ? [i.schema, i.files, i.watermark ?? null] : i)),
    ]);
  return key(old) === key(spec);
}

/** Every `*.case.ts` of a directory (fuzz/found/ or a scratch directory of hand-minimised cases). */
/**
 * Mismatches already minimised into fuzz/found/: a failing case that matches one of these is
 * reported as `known (<file>)` instead of failing, so a run shows what is new. A signature
 * looks at the case's PySpark text and the kind of difference, so it can hide a new bug of the
 * same shape: rerun with --strict to see everything.
 */
const KNOWN: { file: string; test: (py: string, o: CaseOutcome & { sparkError?: string }, shape: string, spec: CaseSpec) => boolean }[] = [
  {
    file: "inner-stream-join-update-mode",
    test: (py, o, _shape, spec) =>
      /\.join\(r/.test(py) && spec.outputMode === "update" && /not supported in Update output mode/.test(o.reason),
  },
  {
    file: "outer-join-one-side-conjunct-accepted",
    test: (py, o) =>
      /AND (v|w) [<>]|AND v <= w/.test(py) && /arus failed: .*not supported without a watermark in the join keys/.test(o.reason),
  },
];

/** Every difference is a progress difference in one of these fields. */
function onlyMetrics(o: CaseOutcome, fields: string[]): boolean {
  if (!o.diffs.length) return false;
  return o.diffs.every((d) => {
    if (d.kind !== "progress") return false;
    const parts = d.message.replace(/^progress of batch \d+: /, "").split("; ");
    return parts.every((x) => fields.some((f) => x.startsWith(f) || x.includes(`].${f} `)));
  });
}

async function loadDir(dir: string): Promise<Item[]> {
  if (!existsSync(dir)) return [];
  const out: Item[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith(".case.ts"))
    .sort()) {
    const file = join(dir, f);
    const def = (await import(pathToFileURL(file).href)).default as CaseDef;
    const id = `found/${basename(f, ".case.ts")}`;
    out.push({ id, def, spec: toSpec(id, def), file });
  }
  return out;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  let items: Item[];
  if (o.dir) items = await loadDir(o.dir);
  else {
    const idx = o.only ?? Array.from({ length: o.cases }, (_, i) => i);
    items = idx.map((i) => {
      const id = `s${o.seed}-${i}`;
      const gen = generate(caseSeed(o.seed, i), { missingFields: o.missingFields, kind: o.kind });
      return { id, def: gen.def, spec: toSpec(id, gen.def), gen };
    });
  }
  const specsDir = join(o.out, "specs");
  rmSync(specsDir, { recursive: true, force: true });
  mkdirSync(specsDir, { recursive: true });
  mkdirSync(join(o.out, "cases"), { recursive: true });
  for (const it of items) {
    const name = it.id.replace(/\//g, "__");
    writeFileSync(join(specsDir, `${name}.json`), `${JSON.stringify(it.spec, null, 1)}\n`);
    if (it.gen) {
      it.file = join(o.out, "cases", `${name}.case.ts`);
      writeFileSync(it.file, caseFileText(it.gen, CASE_TS));
    }
    if (o.show && it.gen) console.log(`${it.id}: ${it.gen.shape}\n  py: ${it.gen.pyspark}\n  ts: ${it.gen.arusSrc}`);
  }

  // Spark: one JVM for the whole batch, cached per spec hash
  const py = venvPython();
  if (!o.noSpark) {
    if (!existsSync(py)) throw new Error(`no PySpark venv at ${py} (scripts/setup-pyspark.sh)`);
    await jvmLock();
    // the JVM's log (stack traces of refused queries) goes to OUT/spark_runner.log
    const log = openSync(join(o.out, "spark_runner.log"), "w");
    process.stderr.write(`[fuzz] ${items.length} case(s) on PySpark (log: ${join(o.out, "spark_runner.log")})\n`);
    const r = spawnSync(py, [RUNNER, specsDir, join(o.out, "spark")], { stdio: ["ignore", log, log], cwd: "/tmp" });
    closeSync(log);
    rmSync(LOCK, { force: true });
    if (r.status !== 0) process.stderr.write(`[fuzz] spark_runner exited with ${r.status}\n`);
  }
  const tSpark = Date.now();

  // arus, in process
  const results: { id: string; verdict: string; reason: string; shape: string; sparkError?: string }[] = [];
  for (const it of items) {
    const sdir = join(o.out, "spark", it.id);
    const adir = join(o.out, "arus", it.id);
    const s = readResult(sdir);
    if (s.meta.status !== "missing" && !sameSpec(join(sdir, "spec.json"), it.spec)) {
      results.push({
        id: it.id,
        verdict: "skip",
        reason: "Spark result is for another spec (generator changed?); run without --no-spark",
        shape: it.gen?.shape ?? "",
      });
      continue;
    }
    if (s.meta.status === "missing") {
      results.push({ id: it.id, verdict: "skip", reason: "no Spark result", shape: it.gen?.shape ?? "" });
      continue;
    }
    await runArusCase(it.spec, it.def, adir);
    const a = readResult(adir);
    let out: CaseOutcome & { sparkError?: string } = judge(it, s, a);
    const known =
      out.verdict === "fail" && !o.strict && !o.dir
        ? KNOWN.find((k) => k.test(it.spec.pyspark ?? it.spec.sql ?? "", out, it.gen?.shape ?? "", it.spec))
        : undefined;
    if (known) out = { ...out, verdict: "known", reason: `known: fuzz/found/${known.file} (${out.reason})` };
    results.push({
      id: it.id,
      verdict: out.verdict,
      reason: out.reason,
      shape: it.gen?.shape ?? it.def.description,
      sparkError: out.sparkError,
    });
    if (out.verdict === "fail") {
      console.log(`FAIL ${it.id}  ${it.gen?.shape ?? ""}\n  file: ${it.file}\n  ${out.reason.slice(0, 300)}`);
      for (const d of out.diffs.slice(0, 6)) {
        console.log(`    ${d.kind}${d.batchId === undefined ? "" : ` (batch ${d.batchId})`}: ${d.message.slice(0, 300)}`);
        for (const m of (d.missing ?? []).slice(0, 4)) console.log(`      only in Spark: ${m.slice(0, 200)}`);
        for (const u of (d.unexpected ?? []).slice(0, 4)) console.log(`      only in arus:  ${u.slice(0, 200)}`);
      }
    }
  }
  writeFileSync(join(o.out, "summary.json"), `${JSON.stringify(results, null, 1)}\n`);
  const n = (v: string) => results.filter((x) => x.verdict === v).length;
  const errs = results.filter((x) => x.sparkError !== undefined).length;
  console.log(
    `fuzz ${o.dir ? o.dir : `seed ${o.seed} (generator v${GEN_VERSION})`}: ${results.length} cases, ${n("pass")} passed, ${n("fail")} failed, ${n("skip")} skipped` +
      `, ${n("known")} known (fuzz/found/)` +
      ` (${errs} refused/failed by Spark); Spark ${((tSpark - t0) / 1000).toFixed(0)} s, arus ${((Date.now() - tSpark) / 1000).toFixed(0)} s; results in ${o.out}`,
  );
  if (n("fail") > 0) process.exitCode = 1;
}

await main();
