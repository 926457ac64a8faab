/**
 * Session: the entry point (Spark's SparkSession). Holds the configuration, the catalog and the
 * streaming query manager; batch plans run through the runtime's `BatchQuery`
 * (runtime/query-execution.ts: analyze → optimize → plan → execute).
 */

import { randomUUID } from "node:crypto";
import { Table as ArrowTable, type RecordBatch } from "apache-arrow";
import { arrowToBatch } from "../columnar/arrow-import.js";
import { type Batch, batchFromRows } from "../columnar/batch.js";
import { setUtf8Strings, UTF8_STRINGS_CONF, utf8StringsOf } from "../columnar/utf8-conf.js";
import { localThreads, RuntimeConfig } from "../common/conf.js";
import { IllegalArgumentException } from "../common/errors.js";
import { HEAP_GROWING_CONF, heapGrowingPercentOf, setHeapGrowingPercent } from "../common/heap-growth.js";
import { logWarning } from "../common/log.js";
import { getField } from "../common/row-object.js";
import { JSON_DECODER_CONF, jsonDecoderOf, setJsonDecoder, setScanThreads } from "../connectors/files/index.js";
import { DEFAULT_WAREHOUSE, tableInfoSync, WAREHOUSE_KEY, warehouseDir } from "../connectors/table/index.js";
import { type Attribute, attribute, type Expr } from "../plan/expressions.js";
import { isStreamingPlan, type LogicalPlan, Plans } from "../plan/logical.js";
import { analyzePlan, BatchQuery, explainStreaming, resolveExpression } from "../runtime/query-execution.js";
import { isRuntimeSetting, parseQuery, parseSchema, readStatement, sessionConfGuard } from "../sql/index.js";
import { LongType, type StructType } from "../types/datatypes.js";
import { SessionCatalog } from "./catalog.js";
import { lit } from "./column.js";
import { DataFrame } from "./dataframe.js";
import { DataFrameReader } from "./reader.js";
import type { SessionInternals } from "./session-internals.js";
import { SparkContext } from "./spark-context.js";
import { runViewCommand } from "./sql-commands.js";
import { StreamingQueryManager } from "./streaming/manager.js";
import { MemoryStream } from "./streaming/memory-stream.js";
import { DataStreamReader } from "./streaming/reader.js";
import { UDFRegistration } from "./udf.js";
import { toInternal } from "./values.js";

/** @internal A service that lives as long as a session (the monitoring layer's dashboard and metrics). */
export interface SessionService {
  stop(): Promise<void> | void;
}
/**
 * @internal Factories run by every new Session. api/ cannot import the layer above it
 * (src/monitoring), so that layer registers itself here when the package entry point loads.
 */
export const sessionServiceFactories: ((session: Session) => SessionService | null)[] = [];

export class SessionBuilder {
  private readonly settings: Record<string, string> = {};
  appName(name: string): this {
    this.settings["spark.app.name"] = name;
    return this;
  }
  /** `local[N]`: N threads (big JSON files are decoded on N worker threads; `arus.state.threads = "local"` gives aggregation state N threads too). */
  master(master: string): this {
    if (!/^local(\[(\d+|\*)\])?$/.test(master)) {
      throw new IllegalArgumentException(`Unsupported master '${master}': arus runs embedded; use local, local[N] or local[*].`);
    }
    this.settings["spark.master"] = master;
    return this;
  }
  config(key: string, value: string | number | boolean): this {
    this.settings[key] = String(value);
    return this;
  }
  /** Returns the active session (updated with this builder's settings) or a new one. */
  getOrCreate(): Session {
    if (Session.active && !Session.active.stopped) {
      // as Spark: static and core settings of a running session stay; the others are checked
      const ignored = Object.keys(this.settings).filter((k) => !isRuntimeSetting(k));
      if (ignored.length > 0)
        logWarning(
          "SparkSession",
          `Using an existing Spark session; only runtime SQL configurations will take effect (ignored: ${ignored.join(", ")}).`,
        );
      for (const [k, v] of Object.entries(this.settings)) if (isRuntimeSetting(k)) Session.active.conf.set(k, v);
      if (this.settings["spark.master"]) setScanThreads(localThreads(this.settings["spark.master"]));
      return Session.active;
    }
    const s = new Session(this.settings);
    Session.active = s;
    return s;
  }
}

export class Session implements SessionInternals {
  /** @internal */
  static active: Session | null = null;
  static builder(): SessionBuilder {
    return new SessionBuilder();
  }

  readonly conf: RuntimeConfig;
  readonly catalog = new SessionCatalog();
  readonly streams: StreamingQueryManager;
  /** PySpark's `spark.sparkContext`: setLogLevel, appName, master, defaultParallelism. */
  readonly sparkContext: SparkContext;
  /** @internal */
  stopped = false;
  /** @internal */
  readonly services: SessionService[] = [];

  /** @internal use Session.builder() */
  constructor(settings: Record<string, string> = {}) {
    // the generated app name is an initial setting, so SQL's RESET keeps it
    this.conf = new RuntimeConfig({ "spark.app.name": randomUUID(), ...settings });
    this.sparkContext = new SparkContext(this.conf);
    setScanThreads(localThreads(this.conf.getOption("spark.master")));
    this.conf.watch(JSON_DECODER_CONF, (v) => setJsonDecoder(jsonDecoderOf(v)));
    this.conf.watch(HEAP_GROWING_CONF, (v) => setHeapGrowingPercent(heapGrowingPercentOf(v)));
    this.conf.watch(UTF8_STRINGS_CONF, (v) => setUtf8Strings(utf8StringsOf(v)));
    this.conf.guardWith(sessionConfGuard);
    this.streams = new StreamingQueryManager(this);
    // Files queried directly in SQL: SELECT * FROM json.`/data/events.json` (as in Spark, with
    // the reader's defaults: csv.`path` has no header and all-string columns _c0, _c1, ...).
    this.catalog.addResolver((name) => {
      const m = /^(json|csv|parquet|text)\.(?:`(.+)`|([\p{L}_][\p{L}\d_]*))$/iu.exec(name);
      if (!m) return undefined;
      return this.read.format(m[1]!.toLowerCase()).load((m[2] ?? m[3])!.replaceAll("``", "`")).plan;
    });
    // Saved tables (saveAsTable / toTable) are found by name after temp views.
    this.catalog.addResolver((name) => {
      const t = tableInfoSync(this.warehouse, name);
      if (!t) return undefined;
      const output = t.schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
      return Plans.fileRelation("parquet", [t.dir], {}, output);
    });
    for (const make of sessionServiceFactories) {
      const svc = make(this);
      if (svc) this.services.push(svc);
    }
  }

  get timeZone(): string {
    return this.conf.timeZone;
  }
  /** `spark.sql.warehouse.dir` (default ./spark-warehouse), absolute. */
  get warehouse(): string {
    return warehouseDir({ [WAREHOUSE_KEY]: this.conf.get(WAREHOUSE_KEY, DEFAULT_WAREHOUSE) });
  }
  get version(): string {
    return "4.0.0-arus";
  }

  // ---------------------------------------------------------------- DataFrames

  /**
   * Rows are objects keyed by column name, or arrays in schema order. TIMESTAMP values may be
   * Dates, ISO strings (read in the session time zone) or epoch milliseconds.
   */
  createDataFrame(rows: readonly (Record<string, unknown> | readonly unknown[])[], schema: string | StructType): DataFrame {
    if (!Array.isArray(rows)) {
      throw new IllegalArgumentException(`createDataFrame: rows must be an array of objects or arrays, got ${describeValue(rows)}.`);
    }
    if (typeof schema !== "string" && !(typeof schema === "object" && schema !== null && Array.isArray((schema as StructType).fields))) {
      throw new IllegalArgumentException(
        `createDataFrame needs a schema: a DDL string like "name STRING, qty INT" or a StructType (got ${describeValue(schema)}); arus does not infer one from the rows.`,
      );
    }
    const st = typeof schema === "string" ? parseSchema(schema) : schema;
    const tz = this.timeZone;
    const internal = rows.map((r, i) =>
      st.fields.map((f, c) =>
        toInternal(Array.isArray(r) ? r[c] : getField(r as object, f.name), f.type, tz, `row ${i}, column ${f.name}`),
      ),
    );
    const output = st.fields.map((f) => attribute(f.name, f.type, f.nullable));
    return new DataFrame(
      this,
      Plans.localRelation(output, [
        batchFromRows(
          st.fields.map((f) => f.type),
          internal,
        ),
      ]),
    );
  }
  /** A DataFrame over an Apache Arrow table or record batch (numeric columns are not copied). */
  createDataFrameFromArrow(table: ArrowTable | RecordBatch): DataFrame {
    const batches = table instanceof ArrowTable ? table.batches : [table];
    const first = arrowToBatch(batches[0] ?? new ArrowTable((table as ArrowTable).schema));
    const output = first.schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
    return new DataFrame(this, Plans.localRelation(output, [first.batch, ...batches.slice(1).map((b) => arrowToBatch(b).batch)]));
  }
  /** `numPartitions` (PySpark's fourth argument) is checked as Spark checks it; a batch here has no partitions to split into. */
  range(startOrEnd: number, end?: number, step = 1, numPartitions?: number): DataFrame {
    const [s, e] = end === undefined ? [0, startOrEnd] : [startOrEnd, end];
    if (step === 0) throw new IllegalArgumentException("The step of range() must not be 0.");
    if (numPartitions !== undefined && !(numPartitions > 0)) throw new IllegalArgumentException("Positive number of partitions required");
    return new DataFrame(this, Plans.range(s, e, step, [attribute("id", LongType, false)]));
  }
  /** PySpark's `spark.udf`: register a JavaScript function for SQL text (api/udf.ts). */
  get udf(): UDFRegistration {
    return new UDFRegistration();
  }
  get read(): DataFrameReader {
    return new DataFrameReader(this);
  }
  get readStream(): DataStreamReader {
    return new DataStreamReader(this);
  }
  /** A test source: each `addData` call becomes (part of) one micro-batch. */
  memoryStream(schema: string | StructType): MemoryStream {
    return new MemoryStream(this, typeof schema === "string" ? parseSchema(schema) : schema);
  }
  /**
   * A Spark SQL query; `args` bind its parameter markers, as PySpark's `spark.sql(text, args)`:
   * an object or Map for `:name` markers, an array for `?` markers, in order. Each value is a
   * literal (`lit(v)`: never SQL text, so nothing can inject SQL) or a Column (`F.array(...)`).
   */
  sql(text: string, args?: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown> | readonly unknown[]): DataFrame {
    const value = (v: unknown) => lit(v).expr;
    const params =
      args === undefined
        ? undefined
        : Array.isArray(args)
          ? { positional: args.map(value) }
          : { named: new Map([...(args instanceof Map ? args : Object.entries(args))].map(([k, v]) => [k, value(v)])) };
    const st = readStatement(text, params);
    if (st === null) return new DataFrame(this, parseQuery(text, params)); // PARSE_EMPTY_STATEMENT
    return st.kind === "query" ? new DataFrame(this, st.plan) : runViewCommand(this, st);
  }
  table(name: string): DataFrame {
    return new DataFrame(this, Plans.unresolvedRelation(name));
  }

  async stop(): Promise<void> {
    await this.streams.stopAll();
    for (const svc of this.services.splice(0)) await svc.stop();
    this.stopped = true;
    if (Session.active === this) Session.active = null;
  }

  // ---------------------------------------------------------------- internals

  /** @internal */
  analyze(plan: LogicalPlan): LogicalPlan {
    return analyzePlan(plan, this.catalog, { ansi: this.conf.getBool("spark.sql.ansi.enabled") });
  }
  /** @internal */
  analyzeExpr(e: Expr, input: readonly Attribute[]): Expr {
    return resolveExpression(e, input);
  }
  /** @internal */
  excludedRules(): Set<string> {
    const v = this.conf.getOption("arus.optimizer.excludedRules") ?? this.conf.getOption("spark.sql.optimizer.excludedRules") ?? "";
    return new Set(
      v
        .split(",")
        .map((s) => s.trim().replace(/^.*\./, ""))
        .filter(Boolean),
    );
  }
  /** @internal the batch query of an analyzed plan (runtime/query-execution.ts). */
  batchQuery(plan: LogicalPlan): BatchQuery {
    return new BatchQuery(plan, {
      excludedRules: this.excludedRules(),
      timeZone: this.timeZone,
      ansi: this.conf.getBool("spark.sql.ansi.enabled"),
    });
  }
  /** @internal */
  async execute(plan: LogicalPlan): Promise<Batch[]> {
    return this.batchQuery(plan).execute();
  }
  /** @internal */
  explain(plan: LogicalPlan, extended: boolean): string {
    // a streaming DataFrame: the plan a query started now would run (Spark's incremental execution)
    if (isStreamingPlan(plan)) return this.batchQuery(plan).explain(extended, explainStreaming(plan, this.conf, this.excludedRules()));
    return this.batchQuery(plan).explain(extended);
  }
}

function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  return Array.isArray(v) ? "an array" : typeof v;
}
