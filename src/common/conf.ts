/**
 * Runtime configuration: Spark's keys with Spark's defaults. Values are strings, as in Spark.
 */
import { availableParallelism } from "node:os";
import { setDecimalPrecisionLoss } from "../types/decimal.js";
import { defaultTimeZone, resolveTimeZone } from "./datetime/index.js";
import { IllegalArgumentException } from "./errors.js";

const PRECISION_LOSS = "spark.sql.decimalOperations.allowPrecisionLoss";

export const DEFAULTS: Readonly<Record<string, string>> = {
  "spark.sql.shuffle.partitions": "200",
  "spark.sql.streaming.multipleWatermarkPolicy": "min",
  "spark.sql.streaming.noDataMicroBatches.enabled": "true",
  "spark.sql.streaming.minBatchesToRetain": "100",
  "spark.sql.streaming.stateStore.providerClass": "arus.state.MemoryStateStoreProvider",
  "spark.sql.streaming.stateStore.minDeltasForSnapshot": "10",
  "spark.sql.streaming.statefulOperator.allowMultiple": "true",
  "spark.sql.streaming.statefulOperator.checkCorrectness.enabled": "true",
  "spark.sql.streaming.pollingDelay": "10ms",
  "spark.sql.streaming.schemaInference": "false",
  "spark.sql.streaming.noDataProgressEventInterval": "10000ms",
  "spark.sql.streaming.numRecentProgressUpdates": "100",
  "spark.sql.streaming.fileSink.log.compactInterval": "10",
  "spark.sql.ansi.enabled": "true",
  "spark.sql.decimalOperations.allowPrecisionLoss": "true",
  "spark.sql.caseSensitive": "false",
  // arus: streaming aggregation state in typed-array columns (docs/state.md); sticky per checkpoint
  "arus.state.aggregation.columnar": "true",
  // arus: min / max of a struct of numbers in that columnar state, one column per field (docs/state.md); sticky per checkpoint
  "arus.state.aggregation.columnarStructs": "true",
  // arus: stream-stream join state in typed-array columns (docs/state.md); sticky per checkpoint
  "arus.state.join.columnar": "true",
  // arus: sliding windows aggregate per pane before expanding (same output); "false" expands every row
  "arus.state.aggregation.panes": "true",
  // arus: fdatasync each per-batch checkpoint file before its rename; "false" is Spark's local behaviour (docs/reliability.md)
  "arus.checkpoint.fsync": "true",
  // arus: with local[N], N ≥ 2, a streaming aggregation over JSON files runs its stateless part and partial aggregation on the decode threads (docs/parallel-execution.md)
  "arus.exec.partialAggregation": "true",
  // arus: with local[N], N ≥ 2, a streaming JSON scan's pushed filter and the filters / projections above it run on the decode threads (docs/parallel-execution.md)
  "arus.exec.scanTasks": "true",
  // arus: threads owning the state partitions of columnar aggregations and stream-stream joins: a count, "local" (local[N]'s N), or "auto": local[N]'s N for a query whose partial aggregation runs on the decode threads or whose stream-stream join reads JSON files scanned there (docs/parallel-execution.md)
  "arus.state.threads": "auto",
  // arus: under arus.state.threads=auto, a columnar aggregation or stream-stream join keeps its state on the main thread until it has worked this long there in a run, then moves it to the state threads (docs/parallel-execution.md)
  "arus.state.threads.moveAfter": "5s",
  // arus: rows a query's partial aggregation observes before deciding whether it pays (execution/partial/adaptive-skip.ts)
  "arus.exec.partialAggregation.probeRows": "100000",
  // arus: partial groups per input row above which the decode threads stop aggregating and ship rows
  "arus.exec.partialAggregation.maxGroupRatio": "0.25",
  // arus: V8's heap growing factor for the process while its live heap is small; 0 leaves V8's own (common/heap-growth.ts, docs/benchmarks.md)
  "arus.v8.heapGrowingPercent": "400",
  // arus: JSON lines decode through the WASM decoder ("js": the byte scanner alone; same rows)
  "arus.json.decoder": "wasm",
  // arus: STRING columns from the WASM JSON decoder / Arrow as UTF-8 bytes + offsets, not a JS string per row (docs/architecture.md)
  "arus.columnar.utf8Strings": "true",
};

/** Milliseconds per unit of Spark's duration strings (JavaUtils.timeSuffixes). */
const TIME_UNITS_MS: Readonly<Record<string, number>> = {
  us: 0.001,
  usec: 0.001,
  ms: 1,
  msec: 1,
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** What a user may change at run time (Spark's RuntimeConfig checks; sql/conf-rules.ts): each throws to refuse. */
export interface ConfGuard {
  set(key: string, value: string): void;
  unset(key: string): void;
}

export class RuntimeConfig {
  private readonly values = new Map<string, string>();
  private readonly watchers = new Map<string, (value: string | undefined) => void>();
  /** The settings the session was built with: what SQL's RESET goes back to (as Spark's SparkConf). */
  private readonly initial: ReadonlyMap<string, string>;
  private guard: ConfGuard | null = null;
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.assign(k, String(v));
    this.initial = new Map(this.values);
  }
  /** From now on `set` and `unset` refuse what `guard` refuses (the session's builder settings came before). */
  guardWith(guard: ConfGuard): void {
    this.guard = guard;
  }
  /** A user's setting: refused as Spark refuses it (a static or core setting, a value of the wrong type). */
  set(key: string, value: string | number | boolean): void {
    const v = String(value);
    this.guard?.set(key, v);
    this.assign(key, v);
  }
  private assign(key: string, v: string): void {
    if (key === "spark.sql.session.timeZone") resolveTimeZone(v);
    if (key === "spark.sql.streaming.multipleWatermarkPolicy" && !["min", "max"].includes(v.toLowerCase())) {
      throw new IllegalArgumentException(`spark.sql.streaming.multipleWatermarkPolicy must be 'min' or 'max', got '${v}'.`);
    }
    this.watchers.get(key)?.(v); // may refuse the value by throwing
    this.values.set(key, v);
    if (key === PRECISION_LOSS) setDecimalPrecisionLoss(v.toLowerCase() !== "false");
  }
  /**
   * Runs `apply` with the key's value (undefined: unset) now and whenever it is set or unset:
   * for settings that live outside the session (the JSON decoder). A throw refuses a value.
   */
  watch(key: string, apply: (value: string | undefined) => void): void {
    this.watchers.set(key, apply);
    apply(this.getOption(key));
  }
  get(key: string, fallback?: string): string {
    const v = this.values.get(key) ?? DEFAULTS[key] ?? fallback;
    if (v === undefined) {
      if (key === "spark.sql.session.timeZone") return defaultTimeZone();
      throw new IllegalArgumentException(`[SQL_CONF_NOT_FOUND] The SQL config "${key}" cannot be found.`);
    }
    return v;
  }
  /** Forget a user setting; the default applies again. */
  unset(key: string): void {
    this.guard?.unset(key);
    this.remove(key);
  }
  private remove(key: string): void {
    this.values.delete(key);
    this.watchers.get(key)?.(this.getOption(key));
    if (key === PRECISION_LOSS) setDecimalPrecisionLoss(true);
  }
  /** SQL's `RESET key`: the value the session was built with, else the default. */
  reset(key: string): void {
    const v = this.initial.get(key);
    if (v === undefined) this.remove(key);
    else this.assign(key, v);
  }
  /** SQL's `RESET`: every key back to the session's initial settings. */
  resetAll(): void {
    for (const k of new Set([...this.values.keys(), ...this.initial.keys()])) this.reset(k);
  }
  /** The user's own setting of a key (not a default), or undefined. */
  getExplicit(key: string): string | undefined {
    return this.values.get(key);
  }
  /** Was the key set by the user (not a default)? */
  isExplicit(key: string): boolean {
    return this.values.has(key);
  }
  getOption(key: string): string | undefined {
    return this.values.get(key) ?? DEFAULTS[key];
  }
  getInt(key: string): number {
    const v = Number.parseInt(this.get(key), 10);
    if (!Number.isFinite(v)) throw new IllegalArgumentException(`Config ${key} must be an integer, got '${this.get(key)}'.`);
    return v;
  }
  getBool(key: string): boolean {
    return this.get(key).toLowerCase() === "true";
  }
  /** Milliseconds of a duration config such as "10ms" or "10s". */
  /** A duration setting in milliseconds, read as Spark's timeStringAs reads one (no unit: milliseconds). */
  getMs(key: string): number {
    const m = /^(\d+)\s*([a-z]+)?$/.exec(this.get(key).trim().toLowerCase());
    const perUnit = m ? TIME_UNITS_MS[m[2] ?? "ms"] : undefined;
    if (!m || perUnit === undefined)
      throw new IllegalArgumentException(`Config ${key} must be a duration like 10ms, 5s, 2min or 1h, got '${this.get(key)}'.`);
    return Math.floor(Number(m[1]) * perUnit);
  }
  get timeZone(): string {
    return resolveTimeZone(this.get("spark.sql.session.timeZone"));
  }
  all(): Record<string, string> {
    return { ...DEFAULTS, ...Object.fromEntries(this.values) };
  }
}

/** Threads of a `local[N]` master (`local` = 1, `local[*]` = the cores; the default is local[*], as spark-submit's). */
export function localThreads(master: string | undefined): number {
  const m = /^local(?:\[(\d+|\*)\])?$/.exec(master ?? "local[*]");
  if (!m) return 1;
  if (m[1] === undefined) return 1;
  return m[1] === "*" ? availableParallelism() : Math.max(1, Number(m[1]));
}
