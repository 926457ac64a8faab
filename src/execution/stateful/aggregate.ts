/**
 * Streaming aggregation (Spark's StateStoreRestore → merge → StateStoreSave) for one
 * micro-batch:
 *   1. aggregate the batch's rows into partial buffers per group (vectorized);
 *   2. drop groups whose event time is at or below the *late* watermark W(N-1) — counted as
 *      groups (Spark's numRowsDroppedByWatermark) and as input rows (arus numLateInputRows),
 *      and handed to the late-rows sink;
 *   3. merge the rest with the stored buffers (state partitioned by key hash);
 *   4. emit by output mode: append = groups evicted by the *eviction* watermark W(N),
 *      update = groups changed in this batch (then evict silently), complete = every group.
 * State row layout: [...grouping key values, ...buffer values of each aggregate].
 */
import { type Batch, makeBatch, takeBatch } from "../../columnar/batch.js";
import { getValue, type Vector, vectorFromValues } from "../../columnar/vector.js";
import type { Accumulator } from "../../functions/index.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { encodeKey, type StateRow, type StateStore } from "../../state/store.js";
import type { DataType } from "../../types/datatypes.js";
import { AggregationSpec } from "../aggregation.js";
import { compileExpr } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, OpenGroups, PhysicalOperator } from "../operator.js";
import { eventTimeKeyIndex, eventTimeMicros, exactRow, lateRowsOf, newMetrics, partitionOf } from "./common.js";
import { watermarksOf } from "./context.js";

export class StatefulAggregateExec implements PhysicalOperator {
  readonly name = "StateStoreSave";
  readonly children: PhysicalOperator[];
  readonly spec: AggregationSpec;
  /** Which grouping key carries the watermark (window struct or timestamp), or -1. */
  readonly eventTimeKey: number;
  private readonly bufferTypes: DataType[][];
  /** Stores of the last batch, for explainWatermark(). */
  private lastStores: StateStore[] = [];

  constructor(
    readonly operatorId: number,
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
    /** Is any watermark defined upstream (no-data batches, eviction)? */
    readonly hasWatermark: boolean,
  ) {
    this.children = [child];
    this.spec = new AggregationSpec(groupingExprs, aggregateExprs, child.output);
    this.eventTimeKey = eventTimeKeyIndex(this.spec.groupAttrs);
    this.bufferTypes = this.spec.bufferTypes();
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const started = Date.now();
    const spec = this.spec;
    const metrics = newMetrics("stateStoreSave", st.numPartitions);
    const nKeys = spec.groupAttrs.length;
    const mode = st.outputMode;
    const watermarked = this.eventTimeKey >= 0 && mode !== "complete";
    const wm = watermarksOf(st, this.operatorId);
    const lateMicros = wm.lateMs * 1000;
    const evictMicros = wm.evictionMs * 1000;

    // 1. partial aggregation of this batch
    const index = new GroupIndex(spec.groupAttrs.map((a) => a.type));
    const accs = spec.newAccumulators();
    const inputBatches = await this.child.execute(ctx);
    const rowsPerGroup: number[] = [];
    const perBatchGids: Int32Array[] = [];
    for (const b of inputBatches) {
      if (b.numRows === 0) {
        perBatchGids.push(new Int32Array(0));
        continue;
      }
      const gids = index.assign(spec.groupKeys(b, ctx.eval), b.numRows);
      perBatchGids.push(gids);
      for (let i = 0; i < b.numRows; i++) rowsPerGroup[gids[i]!] = (rowsPerGroup[gids[i]!] ?? 0) + 1;
      const inputs = spec.aggInputs(b, ctx.eval);
      for (const a of accs) a.resize(index.numGroups);
      for (let i = 0; i < accs.length; i++) accs[i]!.update(gids, b.numRows, inputs[i]!);
    }
    // A global aggregate (no keys) has its one row in every batch, even an empty one (Spark
    // merges an empty partial buffer and re-emits the row in update/complete mode).
    if (nKeys === 0 && index.numGroups === 0) {
      index.assign([], 1);
      for (const a of accs) a.resize(1);
    }
    const G = index.numGroups;
    const keyVecs = index.keyVectors();
    const partialBuffers = accs.map((a) => a.buffers(G));

    // 2. late groups
    const late = new Uint8Array(G);
    if (watermarked) {
      const et = eventTimeMicros(keyVecs[this.eventTimeKey]!, G);
      for (let g = 0; g < G; g++) {
        if (et[g]! <= lateMicros) {
          late[g] = 1;
          metrics.numRowsDroppedByWatermark++;
          metrics.numLateInputRows += rowsPerGroup[g] ?? 0;
        }
      }
      if (metrics.numRowsDroppedByWatermark > 0) this.reportLate(ctx, inputBatches, perBatchGids, late, wm.lateMs);
    }

    // 3. merge with state
    const stores = new Map<number, StateStore>();
    const storeOf = async (p: number) => {
      let s = stores.get(p);
      if (!s) {
        s = await st.store(this.operatorId, p);
        stores.set(p, s);
      }
      return s;
    };
    for (let p = 0; p < st.numPartitions; p++) await storeOf(p);
    const live: number[] = [];
    for (let g = 0; g < G; g++) if (!late[g]) live.push(g);
    const keyRows = live.map((g) => keyVecs.map((k) => getValue(k, g)));
    const keyStrings = keyRows.map((k) => encodeKey(k));
    const oldRows = await Promise.all(keyStrings.map(async (k) => (await storeOf(partitionOf(k, st.numPartitions))).get(k)));
    const merged = this.mergeBuffers(live, partialBuffers, oldRows, nKeys);
    const updatedRows: StateRow[] = [];
    for (let j = 0; j < live.length; j++) {
      const row = exactRow(keyRows[j]!, merged.bufferRows[j]!);
      (await storeOf(partitionOf(keyStrings[j]!, st.numPartitions))).put(keyStrings[j]!, row);
      updatedRows.push(row);
    }
    metrics.numRowsUpdated = live.length;
    metrics.allUpdatesTimeMs = Date.now() - started;

    // 4. output
    const removeStart = Date.now();
    let outRows: StateRow[];
    if (mode === "complete") {
      outRows = [];
      for (const s of stores.values()) for (const [, row] of s.entries()) outRows.push(row);
    } else if (mode === "update") {
      outRows = updatedRows;
      if (watermarked) metrics.numRowsRemoved = this.evict(stores, evictMicros, null);
    } else {
      outRows = [];
      if (watermarked) metrics.numRowsRemoved = this.evict(stores, evictMicros, outRows);
    }
    metrics.allRemovalsTimeMs = Date.now() - removeStart;

    const commitStart = Date.now();
    let total = 0;
    for (const s of stores.values()) {
      await s.commit();
      total += s.numKeys;
    }
    metrics.commitTimeMs = Date.now() - commitStart;
    this.lastStores = [...stores.values()];
    metrics.numRowsTotal = total;
    metrics.memoryUsedBytes = [...stores.values()].reduce((n, s) => n + s.memoryUsedBytes(), 0);
    metrics.numStateStoreInstances = stores.size;
    st.report.addStateOperator(this.operatorId, metrics);
    return outRows.length ? [this.evaluateRows(outRows, ctx)] : [];
  }

  /** Merge stored buffers (if any) and this batch's partial buffers for the live groups. */
  private mergeBuffers(live: number[], partial: Vector[][], oldRows: (StateRow | undefined)[], nKeys: number): { bufferRows: unknown[][] } {
    const n = live.length;
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const accs = this.spec.newAccumulators();
    for (const a of accs) a.resize(n);
    const withOld: number[] = [];
    for (let j = 0; j < oldRows.length; j++) if (oldRows[j]) withOld.push(j);
    if (withOld.length)
      this.mergeRows(
        accs,
        withOld.map((j) => oldRows[j]!),
        Int32Array.from(withOld),
        nKeys,
      );
    const liveIdx = Int32Array.from(live);
    accs.forEach((a, i) => {
      const bufs = partial[i]!.map((v) => takeVector(v, liveIdx));
      a.merge(ids, n, bufs);
    });
    const bufVecs = accs.map((a) => a.buffers(n));
    const bufferRows = Array.from({ length: n }, (_, j) => bufVecs.flatMap((bs) => bs.map((v) => getValue(v, j))));
    return { bufferRows };
  }

  /** Fold stored rows' buffer columns into accumulators at the given group ids. */
  private mergeRows(accs: Accumulator[], rows: readonly StateRow[], gids: Int32Array, nKeys: number): void {
    let col = nKeys;
    accs.forEach((a, i) => {
      const types = this.bufferTypes[i]!;
      const bufs = types.map((t, k) =>
        vectorFromValues(
          t,
          rows.map((r) => r[col + k] ?? null),
        ),
      );
      col += types.length;
      a.merge(gids, rows.length, bufs);
    });
  }

  /** Remove every state row whose event time is <= the eviction watermark; collect them if asked. */
  private evict(stores: Map<number, StateStore>, evictMicros: number, collect: StateRow[] | null): number {
    let removed = 0;
    for (const s of stores.values()) {
      const doomed: string[] = [];
      for (const [k, row] of s.entries()) {
        if (stateEventTime(row[this.eventTimeKey]) <= evictMicros) {
          doomed.push(k);
          collect?.push(row);
        }
      }
      for (const k of doomed) s.remove(k);
      removed += doomed.length;
    }
    return removed;
  }

  /** Output rows from state rows: final aggregate values, then the result projection. */
  private evaluateRows(rows: readonly StateRow[], ctx: ExecContext): Batch {
    const spec = this.spec;
    const nKeys = spec.groupAttrs.length;
    const n = rows.length;
    const accs = spec.newAccumulators();
    for (const a of accs) a.resize(n);
    this.mergeRows(
      accs,
      rows,
      Int32Array.from({ length: n }, (_, i) => i),
      nKeys,
    );
    const keys = spec.groupAttrs.map((a, k) =>
      vectorFromValues(
        a.type,
        rows.map((r) => r[k] ?? null),
      ),
    );
    const intermediate = makeBatch([...keys, ...accs.map((a) => a.evaluate(n))], n);
    const attrs = spec.intermediateAttrs;
    return makeBatch(
      spec.resultExprs.map((e) => compileExpr(e, attrs)(intermediate, ctx.eval)),
      n,
    );
  }

  private reportLate(ctx: ExecContext, batches: readonly Batch[], gids: readonly Int32Array[], late: Uint8Array, wm: number): void {
    batches.forEach((b, bi) => {
      const g = gids[bi]!;
      const rows: number[] = [];
      for (let i = 0; i < b.numRows; i++) if (late[g[i]!]) rows.push(i);
      if (!rows.length) return;
      ctx.state!.report.addLateRows(lateRowsOf(this.operatorId, "stateStoreSave", this.child.output, takeBatch(b, rows), wm));
    });
  }

  openGroups(): OpenGroups {
    return { operatorId: this.operatorId, eventTimesMicros: this.openEventTimes() };
  }

  /** Event times (micros) of the groups still in state: window ends or timestamps. */
  openEventTimes(): number[] {
    if (this.eventTimeKey < 0) return [];
    const out: number[] = [];
    for (const s of this.lastStores) for (const [, row] of s.entries()) out.push(stateEventTime(row[this.eventTimeKey]));
    return out;
  }

  describe(): string {
    return `[${this.groupingExprs.map(exprToSql).join(", ")}], operator ${this.operatorId}, functions=[${this.spec.aggCalls.map((c) => exprToSql(c.call)).join(", ")}]`;
  }
}

function takeVector(v: Vector, idx: Int32Array): Vector {
  return takeBatch(makeBatch([v], v.length), idx).columns[0]!;
}

/** Event time (micros) of a stored key value: a window's end, or the timestamp itself. */
function stateEventTime(v: unknown): number {
  if (v === null || v === undefined) return Number.NEGATIVE_INFINITY;
  if (typeof v === "number") return v;
  return (v as { end: number }).end;
}
