/**
 * transformWithState (Spark's TransformWithStateExec; also runs flatMapGroupsWithState and
 * mapGroupsWithState through the adapter in groups-with-state.ts). One batch:
 *   1. open every partition's store at version N, `init(handle)` the processor;
 *   2. batch 0 only: `handleInitialState` per key of the initial state;
 *   3. drop late input rows (event time <= the late watermark) when the input has an event-time
 *      column and the operator filters late rows;
 *   4. `handleInputRows(key, rows, timerValues)` per grouping key, in first-appearance order;
 *   5. the expired timers (expiry <= batch processing time, or <= the eviction watermark in
 *      eventTime mode, as PySpark 4.3 fires them; GroupState timeouts use <), earliest first,
 *      each `handleExpiredTimer` then deleted;
 *   6. TTL cleanup, `close()`, commit every store (version N+1).
 * A key's rows reach the handler as an array of plain-object rows: the operator groups the
 * batch's rows by key first anyway, and an array can be read twice, measured and indexed,
 * which a PySpark-style one-shot iterator cannot; rows are converted for that key only.
 * A handler that throws fails the batch with the key and batch id in the message; nothing of
 * the batch is committed (the runtime aborts every store), and a restart re-runs it.
 */
import { type Batch, batchFromRows, takeBatch } from "../../../columnar/batch.js";
import { getValue } from "../../../columnar/vector.js";
import { crashPoint } from "../../../common/crash-points.js";
import { ArusError } from "../../../common/errors.js";
import type { Attribute } from "../../../plan/expressions.js";
import type { ProcessorValues } from "../../../plan/logical.js";
import type {
  ExpiredTimerInfo,
  OutputRows,
  ProcessorRow,
  StatefulProcessorLike,
  TimeMode,
  TimerValues,
} from "../../../plan/stateful-processor.js";
import { encodeKey, type StateStore } from "../../../state/store.js";
import { field, StructOf } from "../../../types/datatypes.js";
import type { ExecContext, PhysicalOperator } from "../../operator.js";
import { eventTimeKeyIndex, eventTimeMicros, lateRowsOf, newMetrics, partitionOf } from "../common.js";
import { type StateOperatorMetrics, watermarksOf } from "../context.js";
import type { WatermarkProducer } from "../watermark-propagation.js";
import { EphemeralStore } from "./ephemeral-store.js";
import { GROUP_STATE_NAME, GroupsWithStateProcessor } from "./groups-with-state.js";
import { BatchProcessorHandle, type CurrentKey } from "./handle.js";
import { RowCodec } from "./row-codec.js";
import { SEP, storeKeyOf } from "./state-vars.js";
import { TimerIndex } from "./timers.js";

export interface TransformWithStateSpec {
  readonly operatorId: number;
  /** Physical name (explain) and progress operatorName. */
  readonly name: string;
  readonly progressName: string;
  readonly processor: StatefulProcessorLike;
  readonly timeMode: TimeMode;
  readonly groupingAttrs: readonly Attribute[];
  readonly output: readonly Attribute[];
  readonly values: ProcessorValues;
  /** Drop input rows at or below the late watermark (transformWithState: always; flatMapGroupsWithState: EventTimeTimeout only). */
  readonly filterLateRows: boolean;
  /** Output column whose values must stay above the watermark (eventTimeColumnName), or -1. */
  readonly eventTimeOutput: number;
  readonly initialState: { readonly plan: PhysicalOperator; readonly grouping: readonly Attribute[] } | null;
  /** flatMapGroupsWithState: TimerValues give the batch time and watermark in every time mode (GroupState reports them). */
  readonly timesInEveryMode?: boolean;
  /** flatMapGroupsWithState: a timeout is due at expiry < threshold (transformWithState timers: <=). */
  readonly strictTimers?: boolean;
}

interface Group {
  readonly gk: string;
  readonly key: unknown[];
  readonly partition: number;
  readonly rows: [number, number][];
}

export class TransformWithStateExec implements PhysicalOperator, WatermarkProducer {
  readonly name: string;
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  readonly operatorId: number;
  private readonly keyCols: number[];
  private readonly eventTimeCol: number;
  private readonly timers = new TimerIndex();
  private readonly outCodec: RowCodec;
  /** Variables deleteIfExists already dropped in this run (the drop scans the state, once). */
  private readonly dropped = new Set<string>();

  constructor(
    readonly spec: TransformWithStateSpec,
    readonly child: PhysicalOperator,
  ) {
    this.name = spec.name;
    this.operatorId = spec.operatorId;
    this.children = spec.initialState ? [child, spec.initialState.plan] : [child];
    this.output = spec.output;
    this.keyCols = spec.groupingAttrs.map((k) => child.output.findIndex((a) => a.exprId === k.exprId));
    this.eventTimeCol = eventTimeKeyIndex(child.output);
    this.outCodec = new RowCodec(
      StructOf(spec.output.map((a) => field(a.name, a.type, a.nullable))),
      spec.values,
      `${spec.progressName} output row`,
    );
  }

  /** ProcessingTime output has no event time to carry a watermark on (Spark's produceOutputWatermark). */
  produceOutputWatermark(input: number): number | null {
    return this.spec.timeMode === "processingTime" || this.spec.name !== "TransformWithState" ? null : input;
  }

  private fail(what: string, key: readonly unknown[] | null, batchId: number, e: unknown): ArusError {
    const cause = e instanceof Error ? e : new Error(String(e));
    const where = key ? ` for key ${JSON.stringify(this.externalKey(key), jsonValue)}` : "";
    return new ArusError(
      "STATEFUL_PROCESSOR_FAILED",
      `${this.spec.progressName} (operator ${this.operatorId}): ${what} failed${where} in batch ${batchId}: ${cause.message}`,
      { cause },
    );
  }

  private externalKey(key: readonly unknown[]): unknown[] {
    return key.map((v, i) => this.spec.values.toExternal(v, this.spec.groupingAttrs[i]!.type));
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state;
    const { spec } = this;
    const batchId = st?.batchId ?? 0;
    const numPartitions = st?.numPartitions ?? 1;
    const metrics = newMetrics(spec.progressName, numPartitions);
    const started = Date.now();
    const stores: StateStore[] = [];
    for (let p = 0; p < numPartitions; p++) stores.push(st ? await st.store(this.operatorId, p) : new EphemeralStore());
    const wm = st ? watermarksOf(st, this.operatorId) : { evictionMs: -1, lateMs: -1 };
    const nowMs = ctx.eval.batchTimestampMs;
    if (this.timers.validFor !== batchId || !st) this.timers.rebuild(stores);
    this.timers.validFor = -1;
    this.timers.counters = { numRegisteredTimers: 0, numDeletedTimers: 0, numExpiredTimers: 0 };
    const handle = new BatchProcessorHandle(spec.timeMode, spec.values, nowMs, this.timers);
    const timerValues: TimerValues = {
      getCurrentProcessingTimeInMs: () => (spec.timeMode === "none" && !spec.timesInEveryMode ? -1 : nowMs),
      getCurrentWatermarkInMs: () => ((spec.timeMode === "eventTime" || spec.timesInEveryMode) && st ? wm.evictionMs : -1),
    };
    const processor = spec.processor;
    try {
      processor.init(handle);
    } catch (e) {
      throw this.fail("init", null, batchId, e);
    }
    handle.inInit = false;
    this.dropDeleted(handle, stores);
    const out: unknown[][] = [];
    const enter = (g: { gk: string; key: readonly unknown[]; partition: number }): CurrentKey =>
      (handle.current = { gk: g.gk, key: g.key, partition: g.partition, store: stores[g.partition]! });
    const emit = (rows: OutputRows | undefined | null, what: string, key: readonly unknown[]) => {
      if (rows === undefined || rows === null) return;
      if (typeof (rows as Iterable<unknown>)[Symbol.iterator] !== "function") {
        throw this.fail(
          what,
          key,
          batchId,
          new TypeError(`it must return an iterable of rows (an array or a generator), got ${typeof rows}`),
        );
      }
      try {
        for (const r of rows) out.push(this.outCodec.toInternal(r));
      } catch (e) {
        throw this.fail(what, key, batchId, e);
      }
    };

    // 2. Initial state (the first batch of the query only).
    if (spec.initialState && batchId === 0) {
      await this.applyInitialState(ctx, handle, enter, timerValues, batchId, numPartitions);
    }

    // 3-4. Input rows by key.
    const groups = new Map<string, Group>();
    const batches: Batch[] = [];
    const lateMicros = wm.lateMs * 1000;
    for (const b0 of await this.child.execute(ctx)) {
      let b = b0;
      if (st && spec.filterLateRows && this.eventTimeCol >= 0) {
        const et = eventTimeMicros(b.columns[this.eventTimeCol]!, b.numRows);
        const keep: number[] = [];
        const late: number[] = [];
        for (let i = 0; i < b.numRows; i++) (et[i]! <= lateMicros ? late : keep).push(i);
        if (late.length) {
          metrics.numRowsDroppedByWatermark += late.length;
          metrics.numLateInputRows += late.length;
          st.report.addLateRows(lateRowsOf(this.operatorId, spec.progressName, this.child.output, takeBatch(b, late), wm.lateMs));
          b = takeBatch(b, keep);
        }
      }
      const bi = batches.push(b) - 1;
      for (let i = 0; i < b.numRows; i++) {
        const key = this.keyCols.map((c) => getValue(b.columns[c]!, i));
        const gk = encodeKey(key);
        let g = groups.get(gk);
        if (!g) {
          g = { gk, key, partition: partitionOf(gk, numPartitions), rows: [] };
          groups.set(gk, g);
        }
        g.rows.push([bi, i]);
      }
    }
    const names = this.child.output.map((a) => a.name);
    const types = this.child.output.map((a) => a.type);
    for (const g of groups.values()) {
      const rows: ProcessorRow[] = g.rows.map(([bi, i]) => {
        const b = batches[bi]!;
        const r: ProcessorRow = {};
        for (let c = 0; c < names.length; c++) r[names[c]!] = spec.values.toExternal(getValue(b.columns[c]!, i), types[c]!);
        return r;
      });
      enter(g);
      let res: OutputRows;
      try {
        res = processor.handleInputRows(this.externalKey(g.key), rows, timerValues);
      } catch (e) {
        throw this.fail("handleInputRows", g.key, batchId, e);
      }
      emit(res, "handleInputRows", g.key);
      // Crash tests: the key's state changed in the open store, nothing committed yet.
      crashPoint("insideHandler", batchId);
      handle.current = null;
    }
    metrics.allUpdatesTimeMs = Date.now() - started;

    // 5. Expired timers.
    const removalsStarted = Date.now();
    if (spec.timeMode !== "none" && st) {
      const threshold = spec.timeMode === "processingTime" ? nowMs : wm.evictionMs;
      for (const t of this.timers.expired(threshold, !spec.strictTimers)) {
        const c = enter(t);
        this.timers.counters.numExpiredTimers++;
        if (processor.handleExpiredTimer) {
          const info: ExpiredTimerInfo = { getExpiryTimeInMs: () => t.ts };
          let res: OutputRows;
          try {
            res = processor.handleExpiredTimer(this.externalKey(t.key), timerValues, info);
          } catch (e) {
            throw this.fail("handleExpiredTimer", t.key, batchId, e);
          }
          emit(res, "handleExpiredTimer", t.key);
          crashPoint("insideTimerHandler", batchId);
        }
        this.timers.delete(c.store, t.gk, t.ts);
        this.timers.counters.numDeletedTimers--; // the firing's own delete is not the user's
        handle.current = null;
      }
    }

    // 6. TTL cleanup, close, commit.
    this.expireTtl(handle, stores, nowMs);
    metrics.allRemovalsTimeMs = Date.now() - removalsStarted;
    try {
      processor.close?.();
    } catch (e) {
      throw this.fail("close", null, batchId, e);
    }
    if (spec.eventTimeOutput >= 0 && st) this.checkEventTimes(out, wm.evictionMs);
    const commitStarted = Date.now();
    let bytes = 0;
    for (const s of stores) {
      await s.commit();
      const m = s.metrics();
      metrics.numRowsTotal += m.numKeys;
      metrics.numRowsUpdated += m.numUpdatedKeys;
      metrics.numRowsRemoved += m.numRemovedKeys;
      bytes += m.memoryUsedBytes;
    }
    if (processor instanceof GroupsWithStateProcessor) this.groupStateRowCounts(metrics, processor, stores);
    crashPoint("afterStateCommit", batchId);
    metrics.commitTimeMs = Date.now() - commitStarted;
    metrics.memoryUsedBytes = bytes;
    this.timers.validFor = batchId + 1;
    const count = (k: string, ttl: boolean) => [...handle.vars.values()].filter((v) => v.kind === k && (v.ttlMs !== null) === ttl).length;
    metrics.customMetrics = {
      numDeletedStateVars: handle.counters.numDeletedStateVars,
      numDeletedTimers: this.timers.counters.numDeletedTimers,
      numExpiredTimers: this.timers.counters.numExpiredTimers,
      numListStateVars: count("list", false),
      numListStateWithTTLVars: count("list", true),
      numMapStateVars: count("map", false),
      numMapStateWithTTLVars: count("map", true),
      numRegisteredTimers: this.timers.counters.numRegisteredTimers,
      numValueStateVars: count("value", false),
      numValueStateWithTTLVars: count("value", true),
      numValuesRemovedDueToTTLExpiry: handle.counters.numValuesRemovedDueToTTLExpiry,
    };
    st?.report.addStateOperator(this.operatorId, metrics);
    if (!out.length) return [];
    return [
      batchFromRows(
        this.output.map((a) => a.type),
        out,
      ),
    ];
  }

  /**
   * [flat]MapGroupsWithState: Spark keeps one state row per key (value and timeout together),
   * arus a value row and a timer row; progress counts Spark's rows (the calls that wrote or
   * removed them, and the keys with a value or a timeout).
   */
  private groupStateRowCounts(metrics: StateOperatorMetrics, processor: GroupsWithStateProcessor, stores: readonly StateStore[]): void {
    let both = 0;
    for (const [gk, p] of this.timers.keys()) if (stores[p]!.get(storeKeyOf("value", GROUP_STATE_NAME, gk)) !== undefined) both++;
    metrics.numRowsTotal -= both;
    metrics.numRowsUpdated = processor.rowsWritten;
    metrics.numRowsRemoved = processor.rowsRemoved;
  }

  private async applyInitialState(
    ctx: ExecContext,
    handle: BatchProcessorHandle,
    enter: (g: { gk: string; key: readonly unknown[]; partition: number }) => CurrentKey,
    timerValues: TimerValues,
    batchId: number,
    numPartitions: number,
  ): Promise<void> {
    const init = this.spec.initialState!;
    const processor = this.spec.processor;
    const plan = init.plan;
    const cols = init.grouping.map((k) => plan.output.findIndex((a) => a.exprId === k.exprId));
    const seen = new Set<string>();
    for (const b of await plan.execute({ eval: ctx.eval })) {
      for (let i = 0; i < b.numRows; i++) {
        const key = cols.map((c) => getValue(b.columns[c]!, i));
        const gk = encodeKey(key);
        if (seen.has(gk)) {
          throw this.fail(
            "handleInitialState",
            key,
            batchId,
            new ArusError(
              "STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY",
              `[STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY] Cannot re-initialize state on the same grouping key during initial state handling: the initial state has more than one row for this key.`,
            ),
          );
        }
        seen.add(gk);
        if (!processor.handleInitialState) {
          throw new ArusError(
            "STATEFUL_PROCESSOR_MISSING_INITIAL_STATE_HANDLER",
            `${this.spec.progressName} was given an initial state, but the processor has no handleInitialState(key, initialState, timerValues) method.`,
          );
        }
        const row: ProcessorRow = {};
        plan.output.forEach((a, c) => {
          row[a.name] = this.spec.values.toExternal(getValue(b.columns[c]!, i), a.type);
        });
        enter({ gk, key, partition: partitionOf(gk, numPartitions) });
        try {
          processor.handleInitialState(this.externalKey(key), row, timerValues);
        } catch (e) {
          throw this.fail("handleInitialState", key, batchId, e);
        }
        handle.current = null;
      }
    }
  }

  /** deleteIfExists: drop a variable's rows in every partition (once per run: a dropped variable gets no new rows). */
  private dropDeleted(handle: BatchProcessorHandle, stores: readonly StateStore[]): void {
    for (const name of handle.deleted) {
      if (this.dropped.has(name) || handle.vars.has(name)) continue;
      let any = false;
      for (const s of stores) {
        const doomed: string[] = [];
        for (const kind of ["v", "l", "m"]) for (const [k] of s.prefixScan(`${kind}${SEP}${name}${SEP}`)) doomed.push(k);
        for (const k of doomed) s.remove(k);
        any ||= doomed.length > 0;
      }
      if (any) handle.counters.numDeletedStateVars++;
      this.dropped.add(name);
    }
  }

  private expireTtl(handle: BatchProcessorHandle, stores: readonly StateStore[], nowMs: number): void {
    for (const v of handle.vars.values()) {
      if (v.ttlMs === null) continue;
      const prefix = `${v.kind[0]}${SEP}${v.name}${SEP}`;
      for (const s of stores) {
        const changes: [string, readonly unknown[] | null][] = [];
        for (const [k, row] of s.prefixScan(prefix)) {
          const r = v.expire(row, nowMs);
          if (r.removed) {
            changes.push([k, r.keep]);
            handle.counters.numValuesRemovedDueToTTLExpiry += r.removed;
          }
        }
        for (const [k, keep] of changes) keep ? s.put(k, keep) : s.remove(k);
      }
    }
  }

  private checkEventTimes(out: readonly unknown[][], evictionMs: number): void {
    const c = this.spec.eventTimeOutput;
    for (const r of out) {
      const t = r[c] as number | null;
      if (t !== null && t <= evictionMs * 1000) {
        throw new ArusError(
          "EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED",
          `[EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED] Previous node emitted a row with eventTime=${Math.floor(t / 1000)} which is older than current_watermark_value=${evictionMs}. This can lead to correctness issues in the stateful operators downstream in the execution pipeline. Please correct the operator logic to emit rows after current global watermark value.`,
        );
      }
    }
  }

  describe(): string {
    return `[${this.spec.groupingAttrs.map((k) => k.name).join(", ")}], ${this.spec.timeMode}, operator ${this.operatorId}`;
  }
}

function jsonValue(_k: string, v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : typeof v === "bigint" ? String(v) : v;
}
