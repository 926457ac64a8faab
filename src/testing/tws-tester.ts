/**
 * `TwsTester`: unit-test a transformWithState processor without a query (PySpark 4.0.2+'s
 * `pyspark.sql.streaming.tws_tester.TwsTester`, with Scala's timers and clock). It runs the
 * engine's own state variables, timers and TTL over an in-memory store: one `test(key, rows)` is
 * what one micro-batch does for that key — `handleInputRows`, then the timers that have expired
 * by the tester's processing time (processingTime mode) or watermark (eventTime mode).
 *
 * @example
 * const tester = new TwsTester(new RunningCount());
 * tester.test("a", [{ k: "a" }, { k: "a" }]); // [{ key: "a", count: 2 }]
 * tester.peekValueState("count", "a");        // { value: 2 }
 */
import { processorValues } from "../api/stateful-processing.js";
import { ArusError } from "../common/errors.js";
import { EphemeralStore } from "../execution/stateful/tws/ephemeral-store.js";
import { BatchProcessorHandle } from "../execution/stateful/tws/handle.js";
import type { ListStateImpl, MapStateImpl, ValueStateImpl } from "../execution/stateful/tws/state-vars.js";
import { TimerIndex } from "../execution/stateful/tws/timers.js";
import type { OutputRows, ProcessorRow, StatefulProcessorLike, TimeMode, TimerValues } from "../plan/stateful-processor.js";
import { encodeKey } from "../state/store.js";

export interface TwsTesterOptions {
  /** Default "none". Timers need "processingTime" or "eventTime"; TTL needs "processingTime". */
  readonly timeMode?: TimeMode | "None" | "ProcessingTime" | "EventTime";
  /** `[key, row]` pairs given to `handleInitialState` at construction. */
  readonly initialState?: readonly (readonly [unknown, ProcessorRow])[];
  /** The starting processing time (ms); default 0. */
  readonly processingTimeMs?: number;
  /** The session time zone for TIMESTAMP text in state rows; default UTC. */
  readonly timeZone?: string;
}

const MODES: Record<string, TimeMode> = { none: "none", processingtime: "processingTime", eventtime: "eventTime" };

export class TwsTester {
  private readonly mode: TimeMode;
  private readonly store = new EphemeralStore();
  private readonly timers = new TimerIndex();
  private readonly values;
  private nowMs: number;
  private watermarkMs = 0;

  constructor(
    readonly processor: StatefulProcessorLike,
    options: TwsTesterOptions = {},
  ) {
    const mode = MODES[String(options.timeMode ?? "none").toLowerCase()];
    if (!mode)
      throw new ArusError(
        "ILLEGAL_ARGUMENT",
        `TwsTester: timeMode must be "none", "processingTime" or "eventTime" (got ${JSON.stringify(options.timeMode)}).`,
      );
    this.mode = mode;
    this.values = processorValues(options.timeZone ?? "UTC");
    this.nowMs = options.processingTimeMs ?? 0;
    for (const [key, row] of options.initialState ?? []) {
      if (!processor.handleInitialState)
        throw new ArusError("ILLEGAL_ARGUMENT", "TwsTester: initialState given, but the processor has no handleInitialState method.");
      this.withKey(key, (_h, k) => processor.handleInitialState!(k, row, this.timerValues()));
    }
  }

  private timerValues(): TimerValues {
    const now = this.mode === "none" ? -1 : this.nowMs;
    const wm = this.mode === "eventTime" ? this.watermarkMs : -1;
    return { getCurrentProcessingTimeInMs: () => now, getCurrentWatermarkInMs: () => wm };
  }

  /** A fresh handle (as each batch gets), `init` run on it, and `key` current while `fn` runs. */
  private withKey<T>(key: unknown, fn: (h: BatchProcessorHandle, key: readonly unknown[]) => T): T {
    const h = new BatchProcessorHandle(this.mode, this.values, this.nowMs, this.timers);
    this.processor.init(h);
    h.inInit = false;
    const k = Array.isArray(key) ? (key as unknown[]) : [key];
    const gk = encodeKey(k);
    h.current = { gk, key: k, partition: 0, store: this.store };
    try {
      return fn(h, k);
    } finally {
      h.current = null;
    }
  }

  /** One batch's work for `key`: `handleInputRows(key, rows)` and then the expired timers; their output rows. */
  test(key: unknown, rows: readonly ProcessorRow[]): ProcessorRow[] {
    const out = this.withKey(key, (_h, k) => collect(this.processor.handleInputRows(k, rows, this.timerValues())));
    return [...out, ...this.fireTimers()];
  }

  testOneRow(key: unknown, row: ProcessorRow): ProcessorRow[] {
    return this.test(key, [row]);
  }

  /** Move the processing-time clock and fire the timers it expires (processingTime mode); their output. */
  setProcessingTime(ms: number): ProcessorRow[] {
    if (ms < this.nowMs) throw new ArusError("ILLEGAL_ARGUMENT", `TwsTester: processing time cannot go back (${this.nowMs} -> ${ms}).`);
    this.nowMs = ms;
    return this.fireTimers();
  }

  /** Move the watermark and fire the event-time timers it expires (eventTime mode); their output. */
  setWatermark(ms: number): ProcessorRow[] {
    if (this.mode !== "eventTime") throw new ArusError("ILLEGAL_ARGUMENT", 'TwsTester: setWatermark needs timeMode "eventTime".');
    if (ms < this.watermarkMs)
      throw new ArusError("ILLEGAL_ARGUMENT", `TwsTester: the watermark cannot go back (${this.watermarkMs} -> ${ms}).`);
    this.watermarkMs = ms;
    return this.fireTimers();
  }

  private fireTimers(): ProcessorRow[] {
    if (this.mode === "none") return [];
    const threshold = this.mode === "processingTime" ? this.nowMs : this.watermarkMs;
    const out: ProcessorRow[] = [];
    for (const t of this.timers.expired(threshold, true)) {
      this.withKey(t.key, (_h, k) => {
        if (this.processor.handleExpiredTimer)
          out.push(...collect(this.processor.handleExpiredTimer(k, this.timerValues(), { getExpiryTimeInMs: () => t.ts })));
        this.timers.delete(this.store, t.gk, t.ts);
      });
    }
    return out;
  }

  private variable<T>(h: BatchProcessorHandle, name: string, kind: "value" | "list" | "map"): T {
    const v = h.vars.get(name);
    if (!v)
      throw new ArusError(
        "ILLEGAL_ARGUMENT",
        `TwsTester: the processor declares no state variable "${name}" (it has ${[...h.vars.keys()].join(", ") || "none"}).`,
      );
    if (v.kind !== kind)
      throw new ArusError("ILLEGAL_ARGUMENT", `TwsTester: state variable "${name}" is a ${v.kind} state, not a ${kind} state.`);
    return v as T;
  }

  setValueState(name: string, key: unknown, value: ProcessorRow): void {
    this.withKey(key, (h) => this.variable<ValueStateImpl>(h, name, "value").update(value));
  }
  /** The value, or null when there is none (or its TTL expired). */
  peekValueState(name: string, key: unknown): ProcessorRow | null {
    return this.withKey(key, (h) => this.variable<ValueStateImpl>(h, name, "value").get());
  }
  setListState(name: string, key: unknown, values: readonly ProcessorRow[]): void {
    this.withKey(key, (h) => this.variable<ListStateImpl>(h, name, "list").put(values));
  }
  peekListState(name: string, key: unknown): ProcessorRow[] {
    return this.withKey(key, (h) => [...this.variable<ListStateImpl>(h, name, "list").get()]);
  }
  setMapState(name: string, key: unknown, entries: Iterable<readonly [ProcessorRow, ProcessorRow]>): void {
    this.withKey(key, (h) => {
      const m = this.variable<MapStateImpl>(h, name, "map");
      m.clear();
      for (const [k, v] of entries) m.updateValue(k, v);
    });
  }
  peekMapState(name: string, key: unknown): [ProcessorRow, ProcessorRow][] {
    return this.withKey(key, (h) => [...this.variable<MapStateImpl>(h, name, "map").iterator()]);
  }
  /** Clear one variable's state for `key`. */
  deleteState(name: string, key: unknown): void {
    this.withKey(key, (h) => {
      const v = h.vars.get(name);
      if (!v) throw new ArusError("ILLEGAL_ARGUMENT", `TwsTester: the processor declares no state variable "${name}".`);
      v.clear();
    });
  }
  /** The timers registered for `key`, earliest first. */
  peekTimers(key: unknown): number[] {
    return this.timers.list(encodeKey(Array.isArray(key) ? key : [key]));
  }
}

function collect(rows: OutputRows | null | undefined): ProcessorRow[] {
  if (rows === null || rows === undefined) return [];
  return [...rows] as ProcessorRow[];
}
