/**
 * Compares what Spark and arus wrote for one case (directory layout: see spark_runner.py).
 *
 * - Rows: per foreachBatch batch id, as multisets of canonical JSON rows. No float tolerance
 *   unless the case sets `compare.floatTolerance`; timestamps are canonical strings with six
 *   fraction digits, so they compare at microsecond precision.
 * - Batch ids: the set of batch ids for which foreachBatch was called (no-data batches included).
 * - Schema: output column names and Spark type strings.
 * - Progress: per executed batch id, PROGRESS_FIELDS (top level and per state operator).
 * - Console: the exact text the console sink printed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompareOptions } from "./case.js";

export type DiffKind = "status" | "batch-ids" | "rows" | "schema" | "progress" | "console";

export interface Diff {
  kind: DiffKind;
  batchId?: number;
  message: string;
  /** Rows Spark produced that arus did not (canonical JSON), and the reverse. */
  missing?: string[];
  unexpected?: string[];
}

export interface EngineMeta {
  id?: string;
  status: string;
  error?: { type?: string; condition?: string; conditions?: string[]; message: string; phase?: string | null } | null;
  sparkVersion?: string;
  hash?: string;
  durationSec?: number;
}

export interface ProgressEntry {
  batchId: number;
  run?: number;
  idle?: boolean;
  numInputRows?: number;
  watermark?: string | null;
  stateOperators?: {
    operatorName?: string;
    numRowsTotal?: number;
    numRowsUpdated?: number;
    numRowsRemoved?: number;
    numRowsDroppedByWatermark?: number;
    customMetrics?: Record<string, number>;
  }[];
  /** df.observe's metrics by name (absent when the query observes nothing). */
  observedMetrics?: Record<string, unknown> | null;
}

export interface SchemaField {
  name: string;
  type: string;
  nullable?: boolean;
}

export interface EngineResult {
  meta: EngineMeta;
  schema: SchemaField[] | null;
  batchIds: number[];
  batches: Map<number, unknown[]>;
  progress: ProgressEntry[];
  console: string | null;
}

/** Progress fields compared by default; a case can drop some with `compare.ignoreProgress`. */
export const PROGRESS_FIELDS = [
  "numInputRows",
  "watermark",
  "operatorName",
  "numRowsTotal",
  "numRowsUpdated",
  "numRowsRemoved",
  "numRowsDroppedByWatermark",
  "numDroppedDuplicateRows",
  "observedMetrics",
] as const;

const MAX_ROWS_SHOWN = 10;

function readJson<T>(p: string, dflt: T): T {
  return existsSync(p) ? (JSON.parse(readFileSync(p, "utf8")) as T) : dflt;
}

function readJsonl(p: string): unknown[] {
  if (!existsSync(p)) return [];
  return readFileSync(p, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** Reads a result directory written by spark_runner.py or arus_runner.ts. */
export function readResult(dir: string): EngineResult {
  const meta = readJson<EngineMeta>(join(dir, "meta.json"), { status: "missing" });
  const batches = new Map<number, unknown[]>();
  const bdir = join(dir, "batches");
  if (existsSync(bdir)) {
    for (const f of readdirSync(bdir)) {
      const m = /^(\d+)\.jsonl$/.exec(f);
      if (m) batches.set(Number(m[1]), readJsonl(join(bdir, f)));
    }
  }
  const batchIds = readJson<number[]>(
    join(dir, "batch_ids.json"),
    [...batches.keys()].sort((a, b) => a - b),
  );
  const consolePath = join(dir, "console.txt");
  return {
    meta,
    schema: readJson<SchemaField[] | null>(join(dir, "schema.json"), null),
    batchIds,
    batches,
    progress: readJsonl(join(dir, "progress.jsonl")) as ProgressEntry[],
    console: existsSync(consolePath) ? readFileSync(consolePath, "utf8") : null,
  };
}

// ------------------------------------------------------------------------------------------------
// Canonical row keys
// ------------------------------------------------------------------------------------------------

/** JSON with object keys sorted and -0 folded to 0. */
export function stableStringify(v: unknown): string {
  if (v === null || typeof v !== "object") {
    if (typeof v === "number" && Object.is(v, -0)) return "0";
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify(o[k])}`)
    .join(",")}}`;
}

/** Sorts the arrays found at the given column paths (`col`, `col.field`) so their order does not matter. */
export function normalizeRow(row: unknown, opts: CompareOptions = {}): unknown {
  const paths = opts.unorderedArrays ?? [];
  if (paths.length === 0) return row;
  const copy = structuredClone(row) as Record<string, unknown>;
  for (const p of paths) sortAt(copy, p.split("."));
  return copy;
}

function sortAt(obj: unknown, path: string[]): void {
  if (obj === null || typeof obj !== "object") return;
  if (Array.isArray(obj)) {
    for (const x of obj) sortAt(x, path);
    return;
  }
  const o = obj as Record<string, unknown>;
  const [head, ...rest] = path;
  if (!(head in o)) return;
  if (rest.length === 0) {
    const v = o[head];
    if (Array.isArray(v)) v.sort((a, b) => cmpStr(stableStringify(a), stableStringify(b)));
  } else sortAt(o[head], rest);
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Deep equality where numbers may differ by a relative tolerance. */
export function approxEqual(a: unknown, b: unknown, tol: number): boolean {
  if (typeof a === "number" && typeof b === "number") {
    if (a === b) return true;
    const scale = Math.max(Math.abs(a), Math.abs(b));
    return Math.abs(a - b) <= tol * scale;
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => approxEqual(x, bb[i], tol));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ka = Object.keys(ao).sort();
  const kb = Object.keys(bo).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && approxEqual(ao[k], bo[k], tol));
}

/** Multiset difference of two row lists. */
export function diffRows(
  sparkRows: unknown[],
  arusRows: unknown[],
  opts: CompareOptions = {},
): { missing: string[]; unexpected: string[] } {
  const counts = new Map<string, number>();
  const sparkKeys = sparkRows.map((r) => stableStringify(normalizeRow(r, opts)));
  for (const k of sparkKeys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const unexpected: string[] = [];
  for (const r of arusRows) {
    const k = stableStringify(normalizeRow(r, opts));
    const c = counts.get(k) ?? 0;
    if (c > 0) counts.set(k, c - 1);
    else unexpected.push(k);
  }
  let missing: string[] = [];
  for (const [k, c] of counts) for (let i = 0; i < c; i++) missing.push(k);
  const tol = opts.floatTolerance ?? 0;
  if (tol > 0 && missing.length > 0 && unexpected.length > 0) {
    const un = unexpected.map((k) => ({ k, v: JSON.parse(k) as unknown, used: false }));
    missing = missing.filter((mk) => {
      const mv = JSON.parse(mk) as unknown;
      const hit = un.find((u) => !u.used && approxEqual(mv, u.v, tol));
      if (hit) hit.used = true;
      return !hit;
    });
    return { missing, unexpected: un.filter((u) => !u.used).map((u) => u.k) };
  }
  return { missing, unexpected };
}

// ------------------------------------------------------------------------------------------------
// Comparisons
// ------------------------------------------------------------------------------------------------

/** Per batch id multiset comparison of the foreachBatch rows, plus the set of batch ids. */
export function compareBatchData(spark: EngineResult, arus: EngineResult, opts: CompareOptions = {}): Diff[] {
  const diffs: Diff[] = [];
  const sIds = new Set(spark.batchIds);
  const aIds = new Set(arus.batchIds);
  const onlySpark = [...sIds].filter((i) => !aIds.has(i)).sort((a, b) => a - b);
  const onlyArus = [...aIds].filter((i) => !sIds.has(i)).sort((a, b) => a - b);
  if (onlySpark.length || onlyArus.length) {
    const desc = (ids: number[], r: EngineResult) => ids.map((i) => `${i} (${r.batches.get(i)?.length ?? 0} rows)`).join(", ");
    diffs.push({
      kind: "batch-ids",
      message:
        `foreachBatch batch ids differ: Spark [${spark.batchIds.join(",")}], arus [${arus.batchIds.join(",")}]` +
        (onlySpark.length ? `; only in Spark: ${desc(onlySpark, spark)}` : "") +
        (onlyArus.length ? `; only in arus: ${desc(onlyArus, arus)}` : ""),
    });
  }
  const ids = [...new Set([...spark.batches.keys(), ...arus.batches.keys()])].sort((a, b) => a - b);
  for (const id of ids) {
    const s = spark.batches.get(id) ?? [];
    const a = arus.batches.get(id) ?? [];
    const { missing, unexpected } = diffRows(s, a, opts);
    if (missing.length || unexpected.length) {
      diffs.push({
        kind: "rows",
        batchId: id,
        message: `batch ${id}: ${missing.length} row(s) only in Spark, ${unexpected.length} only in arus (Spark ${s.length} rows, arus ${a.length})`,
        missing: missing.slice(0, MAX_ROWS_SHOWN),
        unexpected: unexpected.slice(0, MAX_ROWS_SHOWN),
      });
    }
  }
  return diffs;
}

/** Reads both result directories and compares their batch rows (see compareBatchData). */
export function compareBatches(sparkDir: string, arusDir: string, opts: CompareOptions = {}): Diff[] {
  return compareBatchData(readResult(sparkDir), readResult(arusDir), opts);
}

export function compareSchema(spark: EngineResult, arus: EngineResult): Diff[] {
  if (!spark.schema) return [];
  const fmt = (s: SchemaField[] | null) => (s ? s.map((f) => `${f.name}: ${f.type}`).join(", ") : "(none)");
  const a = fmt(arus.schema);
  const s = fmt(spark.schema);
  return a === s ? [] : [{ kind: "schema", message: `output schema differs: Spark {${s}}, arus {${a}}` }];
}

function progressView(p: ProgressEntry, ignore: Set<string>): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  if (!ignore.has("numInputRows")) v.numInputRows = p.numInputRows;
  if (!ignore.has("watermark")) v.watermark = p.watermark ?? null;
  (p.stateOperators ?? []).forEach((op, i) => {
    for (const f of ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved", "numRowsDroppedByWatermark"] as const) {
      if (!ignore.has(f)) v[`stateOperators[${i}].${f}`] = op[f];
    }
    const dd = op.customMetrics?.numDroppedDuplicateRows;
    if (dd !== undefined && !ignore.has("numDroppedDuplicateRows")) v[`stateOperators[${i}].numDroppedDuplicateRows`] = dd;
  });
  if (!ignore.has("observedMetrics")) v.observedMetrics = p.observedMetrics ?? null;
  return v;
}

/** Per executed (non-idle) batch id: PROGRESS_FIELDS minus `ignore`. */
export function compareProgressEntries(spark: ProgressEntry[], arus: ProgressEntry[], ignore: string[] = []): Diff[] {
  const ig = new Set(ignore);
  const byId = (ps: ProgressEntry[]) => {
    const m = new Map<number, ProgressEntry>();
    for (const p of ps) if (!p.idle) m.set(p.batchId, p);
    return m;
  };
  const s = byId(spark);
  const a = byId(arus);
  const diffs: Diff[] = [];
  for (const id of [...new Set([...s.keys(), ...a.keys()])].sort((x, y) => x - y)) {
    const sp = s.get(id);
    const ap = a.get(id);
    if (!sp || !ap) {
      diffs.push({ kind: "progress", batchId: id, message: `progress for batch ${id} only in ${sp ? "Spark" : "arus"}` });
      continue;
    }
    const sv = progressView(sp, ig);
    const av = progressView(ap, ig);
    // arus may report a field Spark does not have (e.g. extra custom metrics): compare Spark's keys only.
    const bad = Object.keys(sv).filter((k) => stableStringify(sv[k]) !== stableStringify(av[k]));
    if (bad.length) {
      diffs.push({
        kind: "progress",
        batchId: id,
        message: `progress of batch ${id}: ${bad.map((k) => `${k} Spark ${JSON.stringify(sv[k])} vs arus ${JSON.stringify(av[k])}`).join("; ")}`,
      });
    }
  }
  return diffs;
}

/**
 * Sorts the data rows of every table in console output. Rows of an aggregation come out in
 * state-store hash order, which arus need not reproduce (semantics 10.1), so by default the rows
 * of each table are compared as a multiset while everything else (headers, widths, separators,
 * footers, batch headers, blank lines) stays exact.
 */
export function normalizeConsole(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i];
    // a table: +---+ / |hdr| / +---+ / |row|... / +---+
    if (l.startsWith("+") && lines[i + 1]?.startsWith("|") && lines[i + 2] === l) {
      out.push(l, lines[i + 1], l);
      let j = i + 3;
      const rows: string[] = [];
      while (j < lines.length && lines[j].startsWith("|")) rows.push(lines[j++]);
      out.push(...rows.sort());
      i = j;
      continue;
    }
    out.push(l);
    i++;
  }
  return out.join("\n");
}

export function compareConsole(sparkText: string | null, arusText: string | null, ordered = false): Diff[] {
  if (sparkText === null) return [];
  if (arusText === null) return [{ kind: "console", message: "console text: arus printed nothing (no console.txt)" }];
  const s = ordered ? sparkText : normalizeConsole(sparkText);
  const a = ordered ? arusText : normalizeConsole(arusText);
  if (s === a) return [];
  const sl = s.split("\n");
  const al = a.split("\n");
  let i = 0;
  while (i < sl.length && i < al.length && sl[i] === al[i]) i++;
  return [
    {
      kind: "console",
      message:
        `console text differs at line ${i + 1}${ordered ? "" : " (table rows sorted)"}: ` +
        `Spark ${JSON.stringify(sl[i] ?? "<end>")}, arus ${JSON.stringify(al[i] ?? "<end>")}`,
    },
  ];
}

export type Verdict = "pass" | "fail" | "skip" | "known";

export interface CaseOutcome {
  id: string;
  verdict: Verdict;
  reason: string;
  diffs: Diff[];
}

/** Wrappers that say where an error surfaced, not what it is. */
const WRAPPER_CLASSES = new Set(["STREAM_FAILED", "FOREACH_BATCH_USER_FUNCTION_ERROR"]);

/**
 * When Spark's error names an error class (its condition, or one in its message), arus's must
 * name one of the same: a message that only reads alike is not Spark's error. Null when they agree.
 */
function errorClassDiff(spark: EngineResult["meta"]["error"], arus: EngineResult["meta"]["error"]): string | null {
  const named = (e: typeof spark) =>
    new Set([...(e?.conditions ?? []), ...(e?.condition ? [e.condition] : [])].filter((c) => !WRAPPER_CLASSES.has(c)));
  const want = named(spark);
  if (want.size === 0) return null;
  const got = named(arus);
  if ([...want].some((c) => got.has(c))) return null;
  return `error class differs: Spark ${[...want].join(" / ")}, arus ${got.size ? [...got].join(" / ") : "none"} (${arus?.message.split("\n")[0]?.slice(0, 160)})`;
}

/** Everything for one case: statuses first, then rows, batch ids, schema, progress, console. */
export function compareResults(
  id: string,
  spark: EngineResult,
  arus: EngineResult,
  opts: CompareOptions = {},
  expectError: string | null = null,
): CaseOutcome {
  const st = spark.meta.status;
  if (st === "missing") return { id, verdict: "skip", reason: "no Spark result (PySpark not set up?)", diffs: [] };
  if (st === "runner-error" || st === "error" || st === "wrong-error" || st === "unexpected-success") {
    const msg = spark.meta.error?.message?.split("\n")[0] ?? "";
    return { id, verdict: "fail", reason: `case is broken on Spark (${st}): ${msg}`, diffs: [] };
  }
  const at = arus.meta.status;
  if (at === "missing" || at === "arus-unavailable") {
    return { id, verdict: "fail", reason: `arus did not run: ${arus.meta.error?.message?.split("\n")[0] ?? at}`, diffs: [] };
  }
  if (expectError) {
    if (arus.meta.error) {
      const sp = spark.meta.error?.phase ?? null;
      const ap = arus.meta.error.phase ?? null;
      const arusMsg = arus.meta.error.message.split("\n")[0].slice(0, 200);
      if (sp && ap && sp !== ap) {
        return {
          id,
          verdict: "fail",
          reason: `Spark failed at ${sp}, arus at ${ap}: ${arusMsg}`,
          diffs: [{ kind: "status", message: `failure phase differs: Spark ${sp}, arus ${ap}; arus said: ${arusMsg}` }],
        };
      }
      const classes = errorClassDiff(spark.meta.error, arus.meta.error);
      if (classes) return { id, verdict: "fail", reason: classes, diffs: [{ kind: "status", message: classes }] };
      // batches delivered before the failure must still agree
      const diffs = compareBatchData(spark, arus, opts);
      return {
        id,
        verdict: diffs.length ? "fail" : "pass",
        reason: diffs[0]?.message ?? `both engines failed (${ap ?? "?"}): arus said ${arusMsg}`,
        diffs,
      };
    }
    return {
      id,
      verdict: "fail",
      reason: `Spark refused the query (${spark.meta.error?.condition ?? spark.meta.error?.message?.split("\n")[0]}) but arus ran it`,
      diffs: [{ kind: "status", message: "arus accepted a query Spark rejects" }],
    };
  }
  if (arus.meta.error) {
    return {
      id,
      verdict: "fail",
      reason: `arus failed: ${arus.meta.error.message.split("\n")[0]}`,
      diffs: [{ kind: "status", message: arus.meta.error.message }],
    };
  }
  const diffs = [
    ...compareBatchData(spark, arus, opts),
    ...(opts.ignoreSchema ? [] : compareSchema(spark, arus)),
    ...compareProgressEntries(spark.progress, arus.progress, opts.ignoreProgress),
    ...(opts.ignoreConsole ? [] : compareConsole(spark.console, arus.console, opts.consoleRowOrder ?? false)),
  ];
  return { id, verdict: diffs.length ? "fail" : "pass", reason: diffs[0]?.message ?? "", diffs };
}
