/**
 * Streaming aggregation over the columnar state store (arus.state.aggregation.columnar=true;
 * docs/state.md). Same semantics as `StatefulAggregateExec` (aggregate.ts), vectorized end to
 * end:
 *   1. per input batch: evaluate the grouping keys, drop rows whose event time is at or below
 *      the late watermark W(N-1) (counted per group, as Spark does, and handed to the late-rows
 *      sink), and look the remaining rows' keys up in the state table (`lookupOrInsert`: entry
 *      ids from the persistent open-addressing index, new keys inserted);
 *   2. fold the rows into batch-local accumulators (the existing `Accumulator.update`, by dense
 *      local ids: the entries' order of first touch in this batch, which the table hands out
 *      with the entry ids), then merge those partial buffers into the table's typed buffer
 *      columns in place, by entry id (one kernel per aggregate's buffer layout);
 *   3. emit by output mode: update = the entries touched this batch, complete = every entry,
 *      append = the entries evicted by W(N); eviction scans the typed event-time key column
 *      (for windows, the window dictionary first: nothing is scanned until a window closes);
 *   4. commit: the table writes the changed entries as columnar deltas.
 * Output values come from the buffers through fresh accumulators (`merge` + `evaluate`), then
 * the result projection, as the row operator does.
 *
 * `ColumnarAggregateExec.create` returns null for aggregations the columnar store cannot
 * hold (non-numeric buffers such as collect_list or min of a string, DISTINCT, keys that are
 * arrays, maps, binary or structs with non-numeric fields); the planner then uses the row
 * operator.
 */
import { type Batch, makeBatch, takeBatch } from "../../columnar/batch.js";
import { take, type Vector } from "../../columnar/vector.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { type ColumnarSchema, type ColumnarStateStore, columnarSchemaOf } from "../../state/columnar/index.js";
import type { DataType } from "../../types/datatypes.js";
import { AggregationSpec } from "../aggregation.js";
import { compileExpr } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { eventTimeKeyIndex, eventTimeMicros, newMetrics } from "./common.js";

type BufArray = Float64Array | Uint8Array;

/** Merge one aggregate's partial buffers (n groups) into the table's columns [col, ...) at entry ids. */
type MergeKernel = (
  ids: Int32Array,
  n: number,
  partial: readonly Vector[],
  bv: BufArray[],
  bvalid: (Uint8Array | null)[],
  col: number,
) => void;

/** Spark's ordering of numbers: NaN above everything, equal to itself. */
function compareNumbers(x: number, y: number): number {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x === y) return 0;
  return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
}

const countKernel: MergeKernel = (ids, n, partial, bv, _bvalid, col) => {
  const p = partial[0]!.values as Float64Array;
  const dst = bv[col] as Float64Array;
  for (let i = 0; i < n; i++) dst[ids[i]!]! += p[i]!;
};

const sumKernel: MergeKernel = (ids, n, partial, bv, bvalid, col) => {
  const s = partial[0]!;
  const sv = s.values as Float64Array;
  const sValid = s.validity;
  const cv = partial[1]!.values as Float64Array;
  const sums = bv[col] as Float64Array;
  const seen = bvalid[col]!;
  const counts = bv[col + 1] as Float64Array;
  for (let i = 0; i < n; i++) {
    if (sValid !== null && sValid[i] === 0) continue;
    const e = ids[i]!;
    sums[e]! += sv[i]!;
    counts[e]! += cv[i]!;
    seen[e] = 1;
  }
};

/** min / max / first / last: buffers [value, set]; `better(x, cur)` decides whether x replaces cur. */
function pickKernel(better: ((x: number, cur: number) => boolean) | "always" | "never", skipNulls: boolean): MergeKernel {
  return (ids, n, partial, bv, bvalid, col) => {
    const pv = partial[0]!.values as Float64Array | Int32Array | Uint8Array;
    const pValid = partial[0]!.validity;
    const ps = partial[1]!.values as Uint8Array;
    const vals = bv[col]!;
    const valid = bvalid[col]!;
    const set = bv[col + 1] as Uint8Array;
    for (let i = 0; i < n; i++) {
      if (ps[i] !== 1) continue;
      const isNull = pValid !== null && pValid[i] === 0;
      if (isNull && skipNulls) continue;
      const e = ids[i]!;
      let take = set[e] === 0;
      if (!take) {
        if (better === "always") take = true;
        else if (better !== "never") take = !isNull && valid[e] === 1 && better(pv[i]!, vals[e]!);
      }
      if (!take) continue;
      vals[e] = isNull ? 0 : pv[i]!;
      valid[e] = isNull ? 0 : 1;
      set[e] = 1;
    }
  };
}

interface ColumnarPlan {
  readonly schema: ColumnarSchema;
  readonly kernels: readonly MergeKernel[];
  /** First buffer column of each aggregate. */
  readonly offsets: readonly number[];
}

/** The columnar layout and merge kernels of an aggregation, or null when it does not fit. */
function columnarPlanOf(spec: AggregationSpec): ColumnarPlan | null {
  const kernels: MergeKernel[] = [];
  const buffers: { type: DataType; nullable: boolean }[] = [];
  const offsets: number[] = [];
  const bufferTypes = spec.bufferTypes();
  for (let i = 0; i < spec.aggCalls.length; i++) {
    const c = spec.aggCalls[i]!;
    if (c.call.distinct) return null;
    const types = bufferTypes[i]!;
    let kernel: MergeKernel;
    let nullable: boolean[];
    switch (c.fn.name) {
      case "count":
        kernel = countKernel;
        nullable = [false];
        break;
      case "sum":
      case "avg":
        kernel = sumKernel;
        nullable = [true, false];
        break;
      case "min":
        kernel = pickKernel((x, cur) => compareNumbers(x, cur) < 0, true);
        nullable = [true, false];
        break;
      case "max":
        kernel = pickKernel((x, cur) => compareNumbers(x, cur) > 0, true);
        nullable = [true, false];
        break;
      case "first":
      case "last": {
        const ignoreNulls = c.literals[1] === true || c.literals[1] === 1;
        kernel = pickKernel(c.fn.name === "first" ? "never" : "always", ignoreNulls);
        nullable = [true, false];
        break;
      }
      default:
        return null;
    }
    if (types.length !== nullable.length) return null;
    offsets.push(buffers.length);
    for (let k = 0; k < types.length; k++) buffers.push({ type: types[k]!, nullable: nullable[k]! });
    kernels.push(kernel);
  }
  const schema = columnarSchemaOf(
    spec.groupAttrs.map((a) => a.type),
    buffers,
  );
  return schema ? { schema, kernels, offsets } : null;
}

export class ColumnarAggregateExec implements PhysicalOperator {
  readonly name = "StateStoreSave";
  readonly children: PhysicalOperator[];
  /** Which grouping key carries the watermark (window struct or timestamp), or -1. */
  readonly eventTimeKey: number;
  private readonly bufferTypes: DataType[][];
  private lastStore: ColumnarStateStore | null = null;
  /** Operators created in this process (tests check the flag took effect). */
  static created = 0;

  private constructor(
    readonly operatorId: number,
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
    readonly hasWatermark: boolean,
    readonly spec: AggregationSpec,
    private readonly plan: ColumnarPlan,
  ) {
    this.children = [child];
    this.eventTimeKey = eventTimeKeyIndex(spec.groupAttrs);
    this.bufferTypes = spec.bufferTypes();
    ColumnarAggregateExec.created++;
  }

  /** The columnar operator, or null when the aggregation does not fit the columnar store. */
  static create(
    operatorId: number,
    groupingExprs: readonly Expr[],
    aggregateExprs: readonly Expr[],
    output: readonly Attribute[],
    child: PhysicalOperator,
    hasWatermark: boolean,
  ): ColumnarAggregateExec | null {
    const spec = new AggregationSpec(groupingExprs, aggregateExprs, child.output);
    const plan = columnarPlanOf(spec);
    if (!plan) return null;
    return new ColumnarAggregateExec(operatorId, groupingExprs, aggregateExprs, output, child, hasWatermark, spec, plan);
  }

  get schema(): ColumnarSchema {
    return this.plan.schema;
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    if (!st.columnarStore) throw new Error("the runtime offers no columnar state (arus.state.aggregation.columnar)");
    const started = Date.now();
    const spec = this.spec;
    const metrics = newMetrics("stateStoreSave", st.numPartitions);
    const nKeys = spec.groupAttrs.length;
    const mode = st.outputMode;
    const watermarked = this.eventTimeKey >= 0 && mode !== "complete";
    const lateMicros = st.lateWatermarkMs * 1000;
    const evictMicros = st.evictionWatermarkMs * 1000;

    const inputBatches = await this.child.execute(ctx);
    const store = await st.columnarStore(this.operatorId, this.plan.schema);
    this.lastStore = store;

    // 1-2. look keys up in the state table, fold rows into batch-local accumulators
    const accs = spec.newAccumulators();
    const table = store.table;
    let lateIndex: GroupIndex | null = null;
    const lateRows: (Int32Array | null)[] = [];
    for (const b of inputBatches) {
      const n = b.numRows;
      lateRows.push(null);
      if (n === 0) continue;
      let keys = spec.groupKeys(b, ctx.eval);
      let sel: Int32Array | null = null;
      if (watermarked) {
        const et = eventTimeMicros(keys[this.eventTimeKey]!, n);
        let nLate = 0;
        for (let i = 0; i < n; i++) if (et[i]! <= lateMicros) nLate++;
        if (nLate > 0) {
          const late = new Int32Array(nLate);
          sel = new Int32Array(n - nLate);
          for (let i = 0, a = 0, l = 0; i < n; i++) {
            if (et[i]! <= lateMicros) late[l++] = i;
            else sel[a++] = i;
          }
          lateRows[lateRows.length - 1] = late;
          lateIndex ??= new GroupIndex(spec.groupAttrs.map((a) => a.type));
          lateIndex.assign(
            keys.map((k) => take(k, late)),
            nLate,
          );
          metrics.numLateInputRows += nLate;
          keys = keys.map((k) => take(k, sel!));
        }
      }
      const m = sel ? sel.length : n;
      if (m === 0) continue;
      // entry ids from the state's index; local ids = the entries' order of first touch in this batch
      const localIds = new Int32Array(m);
      store.lookupOrInsert(keys, m, new Int32Array(m), localIds);
      let inputs = spec.aggInputs(b, ctx.eval);
      if (sel) inputs = inputs.map((vs) => vs.map((v) => take(v, sel!)));
      const groups = table.touchedIds().length;
      for (const a of accs) a.resize(groups);
      for (let i = 0; i < accs.length; i++) accs[i]!.update(localIds, m, inputs[i]!);
    }
    // A global aggregate (no keys) has its one row in every batch, even an empty one.
    if (nKeys === 0 && table.touchedIds().length === 0) {
      store.lookupOrInsert([], 1, new Int32Array(1), new Int32Array(1));
      for (const a of accs) a.resize(1);
    }
    if (lateIndex) {
      metrics.numRowsDroppedByWatermark = lateIndex.numGroups;
      this.reportLate(ctx, inputBatches, lateRows, st.lateWatermarkMs);
    }
    const touched = table.touchedIds().slice();
    const G = touched.length;
    if (G > 0) {
      for (let i = 0; i < accs.length; i++) {
        this.plan.kernels[i]!(touched, G, accs[i]!.buffers(G), table.bv, table.bvalid, this.plan.offsets[i]!);
      }
    }
    metrics.numRowsUpdated = G;
    metrics.allUpdatesTimeMs = Date.now() - started;

    // 3. output
    const removeStart = Date.now();
    let out: Batch | null = null;
    if (mode === "complete") {
      const ids = store.table.liveIds();
      if (ids.length) out = this.evaluateIds(store, ids, ctx);
    } else if (mode === "update") {
      if (G > 0) out = this.evaluateIds(store, touched, ctx);
      if (watermarked) metrics.numRowsRemoved = this.evict(store, evictMicros, null);
    } else if (watermarked) {
      const collect: Batch[] = [];
      metrics.numRowsRemoved = this.evict(store, evictMicros, collect, ctx);
      out = collect[0] ?? null;
    }
    metrics.allRemovalsTimeMs = Date.now() - removeStart;

    // 4. commit
    const commitStart = Date.now();
    await store.commit();
    metrics.commitTimeMs = Date.now() - commitStart;
    metrics.numRowsTotal = store.numKeys;
    metrics.memoryUsedBytes = store.memoryUsedBytes();
    metrics.numStateStoreInstances = st.numPartitions;
    st.reportMetrics(this.operatorId, metrics);
    return out && out.numRows > 0 ? [out] : [];
  }

  /** Remove the entries whose event time is <= the eviction watermark; emit them if asked. */
  private evict(store: ColumnarStateStore, evictMicros: number, collect: Batch[] | null, ctx?: ExecContext): number {
    const ids = store.table.expired(this.eventTimeKey, evictMicros);
    if (ids.length === 0) return 0;
    if (collect) collect.push(this.evaluateIds(store, ids, ctx!));
    store.remove(ids);
    return ids.length;
  }

  /** Output rows of the given entries: final aggregate values, then the result projection. */
  private evaluateIds(store: ColumnarStateStore, ids: Int32Array, ctx: ExecContext): Batch {
    const spec = this.spec;
    const n = ids.length;
    const table = store.table;
    const keys = table.keyVectors(ids);
    const bufs = table.bufferVectors(ids);
    const seq = new Int32Array(n);
    for (let i = 0; i < n; i++) seq[i] = i;
    const accs = spec.newAccumulators();
    const results = accs.map((a, i) => {
      a.resize(n);
      const off = this.plan.offsets[i]!;
      a.merge(seq, n, bufs.slice(off, off + this.bufferTypes[i]!.length));
      return a.evaluate(n);
    });
    const intermediate = makeBatch([...keys, ...results], n);
    const attrs = spec.intermediateAttrs;
    return makeBatch(
      spec.resultExprs.map((e) => compileExpr(e, attrs)(intermediate, ctx.eval)),
      n,
    );
  }

  private reportLate(ctx: ExecContext, batches: readonly Batch[], lateRows: readonly (Int32Array | null)[], wm: number): void {
    const child = this.child;
    const etIdx = child.output.findIndex((a) => a.metadata["spark.watermarkDelayMs"] !== undefined);
    batches.forEach((b, bi) => {
      const rows = lateRows[bi];
      if (!rows || rows.length === 0) return;
      const lateBatch = takeBatch(b, rows);
      ctx.state!.reportLateRows({
        operatorId: this.operatorId,
        operatorName: "stateStoreSave",
        output: child.output,
        batch: lateBatch,
        watermarkMs: wm,
        eventTimeMicros: etIdx >= 0 ? eventTimeMicros(lateBatch.columns[etIdx]!, rows.length) : new Float64Array(rows.length),
      });
    });
  }

  /** Event times (micros) of the groups still in state: window ends or timestamps. */
  openEventTimes(): number[] {
    if (this.eventTimeKey < 0 || !this.lastStore) return [];
    return this.lastStore.table.eventTimes(this.eventTimeKey);
  }

  describe(): string {
    return `[${this.groupingExprs.map(exprToSql).join(", ")}], operator ${this.operatorId}, functions=[${this.spec.aggCalls.map((c) => exprToSql(c.call)).join(", ")}]`;
  }
}
