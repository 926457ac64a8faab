/**
 * Aggregation state in the row stores (`state/store.ts`, memory or lmdb provider), one store per
 * key-hash partition (Spark's StateStoreRestore → merge → StateStoreSave). Per batch:
 *   1. aggregate the chunks' rows into partial buffers per group (vectorized, `GroupIndex`);
 *   2. merge them with the stored buffers of the same keys and put the merged rows back;
 *   3. emit by output mode and evict (`emitByMode`, aggregation-backend.ts);
 *   4. commit every partition's store.
 * State row layout: [...grouping key values, ...buffer values of each aggregate].
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { getValue, type Vector, vectorFromValues } from "../../columnar/vector.js";
import type { Accumulator, EvalContext } from "../../functions/index.js";
import { encodeKey, type StateRow, type StateStore } from "../../state/store.js";
import type { DataType } from "../../types/datatypes.js";
import type { AggregationSpec } from "../aggregation.js";
import { compileExpr } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import type { AggregateChunk, AggregateRunOptions, AggregationBackend, BackendRunResult, EmitView } from "./aggregation-backend.js";
import { emitByMode } from "./aggregation-backend.js";
import { exactRow, partitionOf } from "./common.js";
import type { StatefulContext } from "./context.js";

/** Stored groups: their rows and encoded keys (a key's partition names its store). */
interface RowGroups {
  readonly rows: StateRow[];
  readonly keys: string[];
}

export class RowStoreBackend implements AggregationBackend {
  readonly kind = "row";
  readonly usesStateThreads = false;
  private readonly bufferTypes: DataType[][];
  /** Stores of the last batch, for explainWatermark(). */
  private lastStores: StateStore[] = [];

  constructor(
    readonly operatorId: number,
    readonly spec: AggregationSpec,
    /** Which grouping key carries the watermark (window struct or timestamp), or -1. */
    readonly eventTimeKey: number,
  ) {
    this.bufferTypes = spec.bufferTypes();
  }

  async run(st: StatefulContext, chunks: readonly AggregateChunk[], o: AggregateRunOptions): Promise<BackendRunResult> {
    const started = Date.now();
    const spec = this.spec;
    const nKeys = spec.groupAttrs.length;

    // 1. partial aggregation of this batch
    const index = new GroupIndex(spec.groupAttrs.map((a) => a.type));
    const accs = spec.newAccumulators();
    for (const c of chunks) {
      if (c.n === 0) continue;
      const gids = index.assign(c.keys, c.n);
      for (const a of accs) a.resize(index.numGroups);
      for (let i = 0; i < accs.length; i++) {
        if (c.partial) accs[i]!.merge(gids, c.n, c.inputs[i]!);
        else accs[i]!.update(gids, c.n, c.inputs[i]!);
      }
    }
    // A global aggregate (no keys) has its one row in every batch, even an empty one (Spark
    // merges an empty partial buffer and re-emits the row in update/complete mode).
    if (o.globalRow && index.numGroups === 0) {
      index.assign([], 1);
      for (const a of accs) a.resize(1);
    }
    const G = index.numGroups;
    const keyVecs = index.keyVectors();
    const partialBuffers = accs.map((a) => a.buffers(G));

    // 2. merge with state
    const stores: StateStore[] = [];
    for (let p = 0; p < st.numPartitions; p++) stores.push(await st.store(this.operatorId, p));
    const storeOfKey = (k: string) => stores[partitionOf(k, st.numPartitions)]!;
    const keyRows = Array.from({ length: G }, (_, g) => keyVecs.map((k) => getValue(k, g)));
    const keyStrings = keyRows.map((k) => encodeKey(k));
    const oldRows = await Promise.all(keyStrings.map(async (k) => storeOfKey(k).get(k)));
    const bufferRows = this.mergeBuffers(G, partialBuffers, oldRows, nKeys);
    const updated: RowGroups = { rows: [], keys: keyStrings };
    for (let g = 0; g < G; g++) {
      const row = exactRow(keyRows[g]!, bufferRows[g]!);
      storeOfKey(keyStrings[g]!).put(keyStrings[g]!, row);
      updated.rows.push(row);
    }
    const allUpdatesTimeMs = Date.now() - started;

    // 3. output and eviction
    const removeStart = Date.now();
    const { output, removed } = emitByMode(this.emitView(stores, storeOfKey, updated, o.eval), o);
    const allRemovalsTimeMs = Date.now() - removeStart;

    // 4. commit
    const commitStart = Date.now();
    let total = 0;
    for (const s of stores) {
      await s.commit();
      total += s.numKeys;
    }
    const commitTimeMs = Date.now() - commitStart;
    this.lastStores = stores;
    return {
      output: output && output.numRows > 0 ? [output] : [],
      numRowsUpdated: G,
      numRowsRemoved: removed,
      numRowsTotal: total,
      memoryUsedBytes: stores.reduce((n, s) => n + s.memoryUsedBytes(), 0),
      allUpdatesTimeMs,
      allRemovalsTimeMs,
      commitTimeMs,
    };
  }

  /** The stores' rows as `emitByMode` sees them (partition by partition, in each store's order). */
  private emitView(
    stores: readonly StateStore[],
    storeOfKey: (key: string) => StateStore,
    updated: RowGroups,
    ev: EvalContext,
  ): EmitView<RowGroups> {
    const scan = (keep: (row: StateRow) => boolean): RowGroups => {
      const out: RowGroups = { rows: [], keys: [] };
      for (const store of stores)
        for (const [key, row] of store.entries()) {
          if (!keep(row)) continue;
          out.rows.push(row);
          out.keys.push(key);
        }
      return out;
    };
    return {
      updated: () => updated,
      all: () => scan(() => true),
      expired: (evictMicros) => scan((row) => stateEventTime(row[this.eventTimeKey]) <= evictMicros),
      size: (g) => g.rows.length,
      evaluate: (g) => this.evaluateRows(g.rows, ev),
      remove: (g) => {
        for (const key of g.keys) storeOfKey(key).remove(key);
      },
    };
  }

  /** Merge stored buffers (if any) and this batch's partial buffers, group by group. */
  private mergeBuffers(n: number, partial: Vector[][], oldRows: (StateRow | undefined)[], nKeys: number): unknown[][] {
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
    for (let i = 0; i < accs.length; i++) accs[i]!.merge(ids, n, partial[i]!);
    const bufVecs = accs.map((a) => a.buffers(n));
    return Array.from({ length: n }, (_, j) => bufVecs.flatMap((bs) => bs.map((v) => getValue(v, j))));
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

  /** Output rows from state rows: final aggregate values, then the result projection. */
  private evaluateRows(rows: readonly StateRow[], ev: EvalContext): Batch {
    const spec = this.spec;
    const nKeys = spec.groupAttrs.length;
    const n = rows.length;
    const accs = spec.newAccumulators(ev);
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
      spec.resultExprs.map((e) => compileExpr(e, attrs)(intermediate, ev)),
      n,
    );
  }

  /** Event times (micros) of the groups still in state: window ends or timestamps. */
  openEventTimes(): number[] {
    if (this.eventTimeKey < 0) return [];
    const out: number[] = [];
    for (const s of this.lastStores)
      for (const [, row] of s.entries()) {
        const t = stateEventTime(row[this.eventTimeKey]);
        if (!Number.isNaN(t)) out.push(t); // a NULL time never closes: not an open event time
      }
    return out;
  }
}

/** Event time (micros) of a stored key value: a window's end, or the timestamp itself. */
function stateEventTime(v: unknown): number {
  if (v === null || v === undefined) return Number.NaN; // never at or below a watermark: never evicted
  if (typeof v === "number") return v;
  return (v as { end: number }).end;
}
