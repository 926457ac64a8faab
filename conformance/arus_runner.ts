/**
 * Runs conformance cases through arus, writing the same directory layout as spark_runner.py:
 * meta.json, schema.json, batch_ids.json, batches/<id>.jsonl, progress.jsonl, console.txt.
 *
 *   tsx conformance/arus_runner.ts [--filter S]... [case files or dirs] OUTDIR
 *
 * Written against the public API in shared spec api.md (Session.builder(), readStream, writeStream,
 * foreachBatch, trigger({ availableNow: true }), recentProgress); imports ../src/index.js.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { canonRow } from "./canonical.js";
import { type CaseDef, type CaseInput, type CaseSpec, type FileInput, inputFiles, type RateMicroBatchInput } from "./case.js";
import { loadCases } from "./load_cases.js";

// biome-ignore lint/suspicious/noExplicitAny: the engine's types are not available yet
type Any = any;

export interface ArusModule {
  Session: Any;
  functions: Any;
  types: Any;
}

let engine: ArusModule | null = null;
let engineError: string | null = null;

/** Loads ../src/index.js once; returns null (and remembers why) when the engine is not there yet. */
export async function loadEngine(): Promise<ArusModule | null> {
  if (engine || engineError) return engine;
  try {
    const entry = new URL("../src/index.js", import.meta.url).href;
    engine = (await import(entry)) as ArusModule;
    if (!engine.Session) throw new Error("src/index.js does not export Session");
  } catch (e) {
    engineError = `cannot load arus engine (src/index.js): ${(e as Error).message}`;
  }
  return engine;
}

function isRate(i: CaseInput): i is RateMicroBatchInput & { name: string } {
  return "rateMicroBatch" in i;
}

export function phaseBounds(restartAt: number[], n: number): [number, number][] {
  const cuts = [...new Set(restartAt)].filter((c) => c >= 0 && c <= n).sort((a, b) => a - b);
  const pts = [0, ...cuts, n];
  return pts.slice(0, -1).map((p, i) => [p, pts[i + 1]] as [number, number]);
}

/** Where a failure happened: building the query, writeStream.start(), or while batches ran. */
export type Phase = "build" | "start" | "run";

interface RunOutput {
  phase: Phase | null;
  batches: Map<number, unknown[]>;
  batchIds: number[];
  schema: { name: string; type: string; nullable: boolean }[] | null;
  progress: Record<string, unknown>[];
  console: string;
}

/** Spark's simpleString for a data type given as the engine's kind-tagged data, a type object, or a string. */
export function typeString(dt: Any): string {
  if (typeof dt === "string") return dt;
  if (typeof dt?.simpleString === "function") return dt.simpleString();
  switch (dt?.kind) {
    case "array":
      return `array<${typeString(dt.elementType)}>`;
    case "map":
      return `map<${typeString(dt.keyType)},${typeString(dt.valueType)}>`;
    case "struct":
      return `struct<${(dt.fields ?? []).map((f: Any) => `${f.name}:${typeString(f.type ?? f.dataType)}`).join(",")}>`;
    case "decimal":
      return `decimal(${dt.precision},${dt.scale})`;
    case "interval":
      return "interval day to second";
    case undefined:
      break;
    default:
      return String(dt.kind);
  }
  if (typeof dt?.typeName === "function") return dt.typeName();
  return String(dt);
}

/** The case's `batch` transform of a foreachBatch DataFrame (as spark_runner.py's transform_batch). */
async function transformBatch(def: CaseDef, bdf: Any, session: Any, mod: ArusModule): Promise<Any> {
  const tr = def.batch!;
  if (tr.sql) {
    bdf.createOrReplaceTempView("batch");
    return session.sql(tr.sql);
  }
  return await tr.arus!({ df: bdf, inputs: {}, F: mod.functions, T: mod.types, Window: (mod as Any).Window, session });
}

function schemaOf(df: Any): { name: string; type: string; nullable: boolean }[] {
  const fields: Any[] = df.schema?.fields ?? [];
  return fields.map((f: Any) => ({ name: f.name, type: typeString(f.dataType ?? f.type), nullable: f.nullable !== false }));
}

function parseProgress(p: Any): Record<string, unknown> {
  if (typeof p === "string") return JSON.parse(p);
  if (p && typeof p.json === "string") return JSON.parse(p.json);
  if (p && typeof p.json === "function") return JSON.parse(p.json());
  return JSON.parse(JSON.stringify(p, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
}

export function compactProgress(p: Record<string, Any>, run: number): Record<string, unknown> {
  const dur = (p.durationMs ?? {}) as Record<string, number>;
  return {
    batchId: Number(p.batchId),
    run,
    idle: !("addBatch" in dur),
    numInputRows: p.numInputRows,
    watermark: p.eventTime?.watermark ?? null,
    stateOperators: (p.stateOperators ?? []).map((s: Any) => ({
      operatorName: s.operatorName,
      numRowsTotal: s.numRowsTotal,
      numRowsUpdated: s.numRowsUpdated,
      numRowsRemoved: s.numRowsRemoved,
      numRowsDroppedByWatermark: s.numRowsDroppedByWatermark,
      customMetrics: s.customMetrics ?? {},
    })),
    sinkNumOutputRows: p.sink?.numOutputRows,
    observedMetrics: p.observedMetrics ?? null,
  };
}

/** Captures everything written to process.stdout while fn runs (the console sink prints there). */
async function captureStdout<T>(fn: () => Promise<T>): Promise<{ value: T; text: string }> {
  const orig = process.stdout.write.bind(process.stdout);
  let text = "";
  (process.stdout as Any).write = (chunk: Any, enc?: Any, cb?: Any) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof enc === "string" ? (enc as BufferEncoding) : "utf8");
    const done = typeof enc === "function" ? enc : cb;
    if (typeof done === "function") done();
    return true;
  };
  try {
    const value = await fn();
    return { value, text };
  } finally {
    (process.stdout as Any).write = orig;
  }
}

function cutConsole(text: string, limit: number): string {
  const sep = "-------------------------------------------\nBatch: ";
  const parts = text.split(sep);
  return [parts[0], ...parts.slice(1).filter((p) => Number(p.split("\n", 1)[0]) < limit)].join(sep);
}

function newOutput(): RunOutput {
  return { phase: null, batches: new Map(), batchIds: [], schema: null, progress: [], console: "" };
}

async function runQuery(
  mod: ArusModule,
  session: Any,
  spec: CaseSpec,
  def: CaseDef,
  base: string,
  sink: "foreachBatch" | "console",
  out: RunOutput = newOutput(),
): Promise<RunOutput> {
  const { functions: F, types: T } = mod;
  const rate = spec.inputs.some(isRate);
  if (rate && spec.restartAt.length) throw new Error("restartAt is not supported with rate-micro-batch inputs");
  const limit = rate ? Math.min(...spec.inputs.filter(isRate).map((i) => i.numBatches)) : Number.POSITIVE_INFINITY;
  const contents = new Map<string, string[]>();
  let n = 0;
  for (const inp of spec.inputs) {
    if (isRate(inp)) continue;
    const files = inputFiles(inp as FileInput);
    contents.set(inp.name, files);
    n = Math.max(n, files.length);
  }
  const phases = rate ? [[0, 0] as [number, number]] : phaseBounds(spec.restartAt, n);
  const ck = join(base, "checkpoint");
  const mtime0 = Date.now() / 1000 - 100000;

  for (const [run, [lo, hi]] of phases.entries()) {
    for (const inp of spec.inputs) {
      if (isRate(inp)) continue;
      const dir = join(base, "in", inp.name);
      mkdirSync(dir, { recursive: true });
      const files = contents.get(inp.name) ?? [];
      const ext = (inp as FileInput).format === "csv" ? "csv" : "json";
      for (let i = lo; i < Math.min(hi, files.length); i++) {
        const p = join(dir, `part-${String(i).padStart(5, "0")}.${ext}`);
        writeFileSync(p, files[i]);
        utimesSync(p, mtime0 + i, mtime0 + i);
      }
    }
    out.phase = "build";
    const dfs: Any[] = [];
    const inputs: Record<string, Any> = {};
    for (const inp of spec.inputs) {
      let df: Any;
      if (isRate(inp)) {
        let r = session.readStream.format("rate-micro-batch");
        for (const [k, v] of Object.entries(inp.rateMicroBatch)) r = r.option(k, v);
        df = r.load();
      } else {
        const fi = inp as FileInput;
        let r = session.readStream
          .format(fi.format ?? "json")
          .schema(fi.schema)
          .option("maxFilesPerTrigger", 1);
        for (const [k, v] of Object.entries(fi.options ?? {})) r = r.option(k, v);
        df = r.load(join(base, "in", inp.name));
      }
      if (inp.watermark) df = df.withWatermark(inp.watermark.column, inp.watermark.delay);
      df.createOrReplaceTempView(inp.name);
      dfs.push(df);
      inputs[inp.name] = df;
    }
    let result: Any;
    if (spec.sql) result = session.sql(spec.sql);
    else {
      if (!def.arus) throw new Error(`${spec.id}: no arus query`);
      result = await def.arus({ df: dfs[0], inputs, F, T, session });
    }
    let w = result.writeStream.outputMode(spec.outputMode).option("checkpointLocation", ck);
    if (sink === "console") {
      const c = spec.console ?? { numRows: 20, truncate: true };
      w = w.format("console").option("numRows", c.numRows).option("truncate", c.truncate);
    } else {
      w = w.foreachBatch(async (bdf: Any, batchId: Any) => {
        const id = Number(batchId);
        if (id >= limit) return;
        if (def.batch) bdf = await transformBatch(def, bdf, session, mod);
        const schema = schemaOf(bdf);
        if (!out.schema) out.schema = schema;
        const rows: unknown[] = await bdf.collect();
        out.batches.set(
          id,
          rows.map((r) => canonRow(r, schema)),
        );
        out.batchIds.push(id);
      });
    }
    if (!rate) w = w.trigger(spec.trigger === "once" ? { once: true } : { availableNow: true });
    const exec = async () => {
      out.phase = "start";
      const q = await w.start();
      out.phase = "run";
      try {
        if (rate) {
          const deadline = Date.now() + 120_000;
          while (q.isActive && Date.now() < deadline) {
            const lp = q.lastProgress;
            if (lp && Number(lp.batchId) >= limit - 1) break;
            await new Promise((r) => setTimeout(r, 20));
          }
          await q.stop();
          if (q.exception) throw q.exception;
        } else {
          await q.awaitTermination();
        }
      } finally {
        if (q.isActive) await q.stop();
        for (const p of q.recentProgress ?? []) {
          const j = parseProgress(p) as Record<string, Any>;
          if (Number(j.batchId) >= limit) continue;
          out.progress.push(compactProgress(j, run));
        }
      }
    };
    if (sink === "console") out.console += (await captureStdout(exec)).text;
    else await exec();
  }
  if (sink === "console" && Number.isFinite(limit)) out.console = cutConsole(out.console, limit);
  return out;
}

function errorInfo(e: unknown): { type: string; message: string; conditions: string[] } {
  const err = e as Error;
  // every error class the error or its causes carry, and any named in their messages ([DIVIDE_BY_ZERO])
  const conditions: string[] = [];
  for (let x = e as (Error & { errorClass?: string }) | undefined, depth = 0; x && depth < 8; x = x.cause as typeof x, depth++) {
    if (typeof x.errorClass === "string") conditions.push(x.errorClass);
    for (const m of String(x.message ?? "").matchAll(/\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]/g)) conditions.push(m[1]!);
  }
  return {
    type: err?.name ?? typeof e,
    message: String(err?.stack ?? err?.message ?? e).slice(0, 6000),
    conditions: [...new Set(conditions)],
  };
}

function writeJsonl(p: string, items: unknown[]): void {
  writeFileSync(p, items.map((x) => `${JSON.stringify(x)}\n`).join(""));
}

/** Runs one case and writes its result directory. Never throws: failures go to meta.json. */
export async function runArusCase(
  spec: CaseSpec,
  def: CaseDef,
  outdir: string,
  engineModule?: ArusModule,
): Promise<Record<string, unknown>> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(join(outdir, "batches"), { recursive: true });
  const t0 = Date.now();
  const meta: Record<string, unknown> = { id: spec.id, status: "ok", error: null };
  const mod = engineModule ?? (await loadEngine());
  if (!mod) {
    meta.status = "arus-unavailable";
    meta.error = { type: "EngineMissing", message: engineError };
    writeFileSync(join(outdir, "meta.json"), `${JSON.stringify(meta, null, 1)}\n`);
    return meta;
  }
  const work = mkdtempSync(join(tmpdir(), "arus-conf-"));
  let session: Any = null;
  try {
    let b = mod.Session.builder()
      .appName("arus-conformance")
      .master("local[1]")
      .config("spark.sql.shuffle.partitions", "1")
      .config("spark.sql.session.timeZone", "UTC");
    for (const [k, v] of Object.entries(spec.confs)) b = b.config(k, v);
    // ARUS_CONFORMANCE_CONF='{"arus.state.threads":"2"}': the whole suite under extra engine
    // settings (arus's own, which must not change a result).
    for (const [k, v] of Object.entries(JSON.parse(process.env.ARUS_CONFORMANCE_CONF ?? "{}") as Record<string, string>))
      b = b.config(k, v);
    session = b.getOrCreate();
    const res = newOutput();
    try {
      await runQuery(mod, session, spec, def, join(work, "main"), "foreachBatch", res);
    } catch (e) {
      meta.error = { ...errorInfo(e), phase: res.phase };
    }
    for (const [id, rows] of res.batches) writeJsonl(join(outdir, "batches", `${id}.jsonl`), rows);
    writeFileSync(join(outdir, "batch_ids.json"), JSON.stringify(res.batchIds));
    writeFileSync(join(outdir, "schema.json"), JSON.stringify(res.schema, null, 1));
    writeJsonl(join(outdir, "progress.jsonl"), res.progress);
    if (spec.console && !meta.error) {
      const c = newOutput();
      try {
        await runQuery(mod, session, spec, def, join(work, "console"), "console", c);
        writeFileSync(join(outdir, "console.txt"), c.console);
      } catch (e) {
        meta.error = { ...errorInfo(e), phase: c.phase };
        meta.errorIn = "console run";
      }
    }
    if (meta.error) meta.status = spec.expectError ? "expected-error" : "error";
    else if (spec.expectError) meta.status = "unexpected-success";
  } catch (e) {
    meta.status = "runner-error";
    meta.error = errorInfo(e);
  } finally {
    try {
      for (const q of session?.streams?.active ?? []) await q.stop();
      await session?.stop?.();
    } catch {
      // ignore
    }
    rmSync(work, { recursive: true, force: true });
  }
  meta.durationSec = (Date.now() - t0) / 1000;
  writeFileSync(join(outdir, "meta.json"), `${JSON.stringify(meta, null, 1)}\n`);
  return meta;
}

async function main() {
  const args = process.argv.slice(2);
  const filter: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--filter") filter.push(args[++i]);
    else rest.push(args[i]);
  }
  if (rest.length < 1) throw new Error("usage: arus_runner.ts [--filter S]... [cases...] OUTDIR");
  const outroot = resolve(rest.pop() as string);
  const cases = await loadCases(rest.length ? rest.map((p) => resolve(p)) : undefined, filter);
  for (const c of cases) {
    const od = join(outroot, c.id);
    mkdirSync(dirname(od), { recursive: true });
    const meta = await runArusCase(c.spec, c.def, od);
    process.stderr.write(`[arus_runner] ${c.id}: ${meta.status}\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
