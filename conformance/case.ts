/**
 * The conformance case format.
 *
 * One case per file: `conformance/cases/<group>/<name>.case.ts`, default-exporting `defineCase({...})`.
 * The Spark-relevant part of a case (inputs, PySpark source or SQL, output mode, confs, restarts,
 * console options) is exported to JSON by `export_cases.ts` and run by `spark_runner.py`; the arus
 * part (`arus`) is a real TypeScript function run by `arus_runner.ts`.
 *
 * See conformance/README.md for the full description and examples.
 */

/** A JSON value as it appears in an input row. Timestamps are ISO-8601 strings (use `t()`). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
export type InputRow = Record<string, JsonValue>;

interface InputCommon {
  /** Name of the input: the temp-view name for `sql`, the keyword for multi-input PySpark `build`, the key in `ctx.inputs`. Default `input`. */
  name?: string;
  /** Applied to the input DataFrame by the harness before the query: `df.withWatermark(column, delay)`. Mostly for `sql` cases. */
  watermark?: { column: string; delay: string };
}

/** A file-source input: one file per micro-batch, read with `maxFilesPerTrigger = 1`. */
export interface FileInput extends InputCommon {
  /** Spark DDL schema, given to both engines: `"k STRING, ts TIMESTAMP, v INT"`. */
  schema: string;
  /** `json` (default) or `csv`. */
  format?: "json" | "csv";
  /** Reader options passed to both engines (`mode`, `header`, `timestampFormat`, ...). */
  options?: Record<string, string | number | boolean>;
  /** Batch i becomes file i. Rows are written as JSON lines (format json) or CSV lines in schema order (format csv). An empty array makes an empty file. */
  batches?: InputRow[][];
  /** Alternative to `batches`: the raw text of each file (for parser edge cases). */
  files?: string[];
}

/** A `rate-micro-batch` input (schema `timestamp TIMESTAMP, value BIGINT`), run with the default trigger and stopped after `numBatches` batches. */
export interface RateMicroBatchInput extends InputCommon {
  rateMicroBatch: {
    rowsPerBatch: number;
    numPartitions?: number;
    startTimestamp?: number;
    advanceMillisPerBatch?: number;
  };
  numBatches: number;
}

export type CaseInput = FileInput | RateMicroBatchInput;

/** What the arus side gets. Typed loosely on purpose: the engine's public API is not in the tree yet. */
export interface ArusContext {
  // biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
  df: any;
  // biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
  inputs: Record<string, any>;
  // biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
  F: any;
  // biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
  T: any;
  // biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
  session: any;
}
// biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
export type ArusQuery = (ctx: ArusContext) => any;

/**
 * A transform of each micro-batch's DataFrame inside `foreachBatch`, before its rows are
 * collected: batch-only features (window functions, ...) run where Spark users run them.
 * `sql` runs in both engines over the batch registered as the temp view `batch`; otherwise
 * `pyspark` (an expression over `df`, `spark`, `F`, `T`, `Window`, or source defining
 * `def transform(spark, df)`) and `arus` (gets `{ df, F, T, Window, session }`).
 */
export interface BatchTransform {
  sql?: string;
  pyspark?: string;
  // biome-ignore lint/suspicious/noExplicitAny: engine API types are not available yet
  arus?: (ctx: ArusContext & { Window: any }) => any;
}

export interface CompareOptions {
  /** Column paths (`col` or `col.field`) whose arrays are compared as multisets (e.g. `collect_set` output, whose order is a hash order). */
  unorderedArrays?: string[];
  /** Relative tolerance for floating-point values; default 0 (exact). Use only with a comment saying why. */
  floatTolerance?: number;
  /** Progress fields not compared for this case (see compare.ts PROGRESS_FIELDS). */
  ignoreProgress?: string[];
  /** Skip comparing the output schema (names and types). */
  ignoreSchema?: boolean;
  /** Compare the order of console table rows too (only for queries whose output order is defined, e.g. orderBy in complete mode). */
  consoleRowOrder?: boolean;
  /** Skip comparing the console text even if `console` is set. */
  ignoreConsole?: boolean;
}

export interface CaseDef {
  /** One or two sentences: what is tested and what Spark does. */
  description: string;
  /** A single input (named `input`) ... */
  input?: CaseInput;
  /** ... or several, in this order (PySpark `build(spark, a, b)` receives them positionally). */
  inputs?: CaseInput[];
  outputMode?: "append" | "update" | "complete";
  /** `availableNow` (default) or `once` (reads every file in one batch). Rate inputs always use the default trigger. */
  trigger?: "availableNow" | "once";
  /**
   * The PySpark query. Either a Python expression over the input names (`df` for the single input,
   * plus `spark`, `F` = pyspark.sql.functions, `T` = pyspark.sql.types, `Window`), or source that
   * defines `def build(spark, df): ... return result_df` (multi-input: `def build(spark, left, right)`).
   */
  pyspark?: string;
  /** The same query as Spark SQL over the input views (run through both engines). Replaces `pyspark` and `arus`. */
  sql?: string;
  /** The arus query. */
  arus?: ArusQuery;
  /** Transform each micro-batch inside foreachBatch (see BatchTransform). */
  batch?: BatchTransform;
  /** Extra session confs for this case (on top of local[1], shuffle partitions 1, UTC). */
  confs?: Record<string, string>;
  /** Input-batch indexes before which the query is stopped and restarted on the same checkpoint. */
  restartAt?: number[];
  /** Also run the query with the console sink and compare the printed text. */
  console?: { numRows?: number; truncate?: boolean | number };
  /** The query must fail (at start or while running) in both engines; the value is a substring expected in Spark's message. */
  expectError?: string;
  compare?: CompareOptions;
  /** Free text: what this case showed about Spark (kept in the report). */
  notes?: string;
}

/** The JSON document handed to spark_runner.py (functions removed, defaults filled). */
export interface CaseSpec {
  id: string;
  description: string;
  inputs: (CaseInput & { name: string })[];
  outputMode: "append" | "update" | "complete";
  trigger: "availableNow" | "once";
  pyspark: string | null;
  sql: string | null;
  confs: Record<string, string>;
  restartAt: number[];
  console: { numRows: number; truncate: boolean | number } | null;
  expectError: string | null;
  compare: CompareOptions;
  /** Only when the case has one (keeps every other spec, and its cache hash, unchanged). */
  batch?: { sql: string | null; pyspark: string | null };
}

export function defineCase(def: CaseDef): CaseDef {
  return def;
}

/** Base instant of `t()`: 2024-01-01T00:00:00Z. */
export const BASE_MS = Date.UTC(2024, 0, 1);

/**
 * An ISO timestamp string `seconds` (may be fractional or negative) after 2024-01-01T00:00:00Z, plus
 * `micros` extra microseconds: `t(5)` = "2024-01-01T00:00:05.000000Z", `t(10, -1)` = "...00:00:09.999999Z".
 */
export function t(seconds: number, micros = 0): string {
  const total = BigInt(BASE_MS) * 1000n + BigInt(Math.round(seconds * 1e6)) + BigInt(micros);
  return microsToIso(total);
}

/** Micros since epoch -> "YYYY-MM-DDTHH:MM:SS.ffffffZ" (UTC, always six fraction digits). */
export function microsToIso(micros: bigint): string {
  let ms = micros / 1000n;
  let rem = micros % 1000n;
  if (rem < 0n) {
    rem += 1000n;
    ms -= 1n;
  }
  const d = new Date(Number(ms));
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  return `${iso.slice(0, 23)}${rem.toString().padStart(3, "0")}Z`;
}

function ddlColumns(ddl: string): string[] {
  // top-level column names of a DDL schema; commas inside <...> or (...) do not split
  const cols: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of ddl) {
    if (ch === "<" || ch === "(") depth++;
    if (ch === ">" || ch === ")") depth--;
    if (ch === "," && depth === 0) {
      cols.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) cols.push(cur);
  return cols.map((c) => c.trim().split(/\s+/)[0].replace(/`/g, ""));
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The text of each input file (one per micro-batch). Computed once here and shipped in the spec, so
 * both engines read byte-identical files: JSON lines via JSON.stringify, or CSV in schema order.
 */
export function inputFiles(inp: FileInput): string[] {
  if (inp.files) return [...inp.files];
  const fmt = inp.format ?? "json";
  return (inp.batches ?? []).map((rows) => {
    if (fmt === "json") return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
    const names = ddlColumns(inp.schema);
    return rows.map((r) => `${(Array.isArray(r) ? r : names.map((n) => r[n])).map(csvCell).join(",")}\n`).join("");
  });
}

/** Normalize a definition into the JSON spec the Spark runner reads. */
export function toSpec(id: string, def: CaseDef): CaseSpec {
  const list = def.inputs ?? (def.input ? [def.input] : []);
  if (list.length === 0) throw new Error(`${id}: no input`);
  if (!def.sql && !def.pyspark) throw new Error(`${id}: needs pyspark or sql`);
  if (!def.sql && !def.arus) throw new Error(`${id}: needs arus (or sql)`);
  const inputs = list.map((inp, i) => {
    const name = inp.name ?? (list.length === 1 ? "input" : `input${i}`);
    if ("rateMicroBatch" in inp) return { ...inp, name };
    if (!inp.batches && !inp.files) throw new Error(`${id}: input ${name} has neither batches nor files`);
    return { format: "json" as const, options: {}, ...inp, name, files: inputFiles(inp) };
  });
  const c = def.console;
  return {
    id,
    description: def.description,
    inputs,
    outputMode: def.outputMode ?? "append",
    trigger: def.trigger ?? "availableNow",
    pyspark: def.sql ? null : (def.pyspark ?? null),
    sql: def.sql ?? null,
    confs: def.confs ?? {},
    restartAt: def.restartAt ?? [],
    console: c ? { numRows: c.numRows ?? 20, truncate: c.truncate ?? true } : null,
    expectError: def.expectError ?? null,
    compare: def.compare ?? {},
    ...(def.batch ? { batch: batchSpec(id, def.batch) } : {}),
  };
}

function batchSpec(id: string, b: BatchTransform): { sql: string | null; pyspark: string | null } {
  if (!b.sql && !(b.pyspark && b.arus)) throw new Error(`${id}: batch needs sql, or pyspark and arus`);
  return { sql: b.sql ?? null, pyspark: b.sql ? null : (b.pyspark ?? null) };
}
