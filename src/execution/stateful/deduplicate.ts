/**
 * Streaming dropDuplicates / dropDuplicatesWithinWatermark (Spark's StreamingDeduplicateExec
 * and StreamingDeduplicateWithinWatermarkExec). Rows at or below the late watermark are
 * dropped first (whenever the input has an event-time column); the first row of each key
 * passes and is remembered. Keys are evicted when the event-time column is a key and its value
 * is <= the eviction watermark, or (within-watermark) once the eviction watermark reaches the
 * first row's event time + delay.
 */
import { type Batch, takeBatch } from "../../columnar/batch.js";
import { getValue } from "../../columnar/vector.js";
import type { Attribute } from "../../plan/expressions.js";
import { encodeKey, type StateStore } from "../../state/store.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { eventTimeKeyIndex, eventTimeMicros, lateRowsOf, newMetrics, partitionOf, WATERMARK_KEY } from "./common.js";
import { watermarksOf } from "./context.js";

export class StreamingDeduplicateExec implements PhysicalOperator {
  readonly name: string;
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly keyCols: number[];
  private readonly eventTimeCol: number;
  /** Position of the event-time column among the keys, or -1 (then state is never evicted). */
  private readonly eventTimeKey: number;

  constructor(
    readonly operatorId: number,
    readonly keys: readonly Attribute[],
    readonly withinWatermark: boolean,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
    this.name = withinWatermark ? "DeduplicateWithinWatermark" : "Deduplicate";
    this.keyCols = keys.map((k) => child.output.findIndex((a) => a.exprId === k.exprId));
    this.eventTimeCol = eventTimeKeyIndex(child.output);
    this.eventTimeKey = eventTimeKeyIndex(keys.map((_k, i) => child.output[this.keyCols[i]!]!));
  }

  private delayMs(): number {
    return Number(this.child.output[this.eventTimeCol]?.metadata[WATERMARK_KEY] ?? 0);
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const metrics = newMetrics(this.withinWatermark ? "dedupeWithinWatermark" : "dedupe", st.numPartitions);
    const started = Date.now();
    const stores: StateStore[] = [];
    for (let p = 0; p < st.numPartitions; p++) stores.push(await st.store(this.operatorId, p));
    const wm = watermarksOf(st, this.operatorId);
    const lateMicros = wm.lateMs * 1000;
    const out: Batch[] = [];
    let dupes = 0;
    for (const b of await this.child.execute(ctx)) {
      const et = this.eventTimeCol >= 0 ? eventTimeMicros(b.columns[this.eventTimeCol]!, b.numRows) : null;
      const keep: number[] = [];
      const lateRows: number[] = [];
      for (let i = 0; i < b.numRows; i++) {
        if (et && et[i]! <= lateMicros) {
          lateRows.push(i);
          continue;
        }
        const key = encodeKey(this.keyCols.map((c) => getValue(b.columns[c]!, i)));
        const store = stores[partitionOf(key, st.numPartitions)]!;
        if (store.get(key) !== undefined) {
          dupes++;
          continue;
        }
        const expiresAt = this.withinWatermark && et ? expiryOf(et[i]!, this.delayMs()) : null;
        store.put(key, expiresAt === null ? [] : [expiresAt]);
        metrics.numRowsUpdated++;
        keep.push(i);
      }
      if (lateRows.length) {
        metrics.numRowsDroppedByWatermark += lateRows.length;
        metrics.numLateInputRows += lateRows.length;
        const late = takeBatch(b, lateRows);
        st.report.addLateRows(lateRowsOf(this.operatorId, metrics.operatorName, this.output, late, wm.lateMs));
      }
      if (keep.length) out.push(keep.length === b.numRows ? b : takeBatch(b, keep));
    }
    metrics.allUpdatesTimeMs = Date.now() - started;
    // Batch 0 evicts too, at watermark 0: only an expiry at or below 0 goes (a NULL time's with delay 0).
    metrics.numRowsRemoved = this.evict(stores, wm.evictionMs * 1000);
    const commitStart = Date.now();
    let total = 0;
    let bytes = 0;
    for (const s of stores) {
      await s.commit();
      total += s.numKeys;
      bytes += s.memoryUsedBytes();
    }
    metrics.commitTimeMs = Date.now() - commitStart;
    metrics.numRowsTotal = total;
    metrics.memoryUsedBytes = bytes;
    metrics.customMetrics = { numDroppedDuplicateRows: dupes };
    st.report.addStateOperator(this.operatorId, metrics);
    return out;
  }

  private evict(stores: StateStore[], evictMicros: number): number {
    if (this.eventTimeCol < 0) return 0;
    if (!this.withinWatermark && this.eventTimeKey < 0) return 0;
    let removed = 0;
    for (const s of stores) {
      const doomed: string[] = [];
      for (const [k, row] of s.entries()) {
        if (this.withinWatermark) {
          // NaN: a NULL time's expiry as arus stored it before it stored expiryOf's
          const stored = row[0] as number;
          const expiresAt = Number.isNaN(stored) ? expiryOf(Number.NaN, this.delayMs()) : stored;
          if (evictMicros >= expiresAt) doomed.push(k);
        } else {
          const v = (JSON.parse(k) as unknown[])[this.eventTimeKey];
          // a NULL time is never at or below the watermark (NaN): the key stays, as in Spark
          const t = typeof v === "number" ? v : ((v as { end: number } | null)?.end ?? Number.NaN);
          if (t <= evictMicros) doomed.push(k);
        }
      }
      for (const k of doomed) s.remove(k);
      removed += doomed.length;
    }
    return removed;
  }

  describe(): string {
    return `[${this.keys.map((k) => k.name).join(", ")}], operator ${this.operatorId}`;
  }
}

/**
 * When a dropDuplicatesWithinWatermark key expires (µs): its first row's event time plus the
 * delay. Spark reads a NULL time as 0 (UnsafeRow.getLong) before adding the delay, so a NULL-time
 * key lives until the watermark reaches the delay itself.
 */
function expiryOf(eventTimeMicros: number, delayMs: number): number {
  return (Number.isNaN(eventTimeMicros) ? 0 : eventTimeMicros) + delayMs * 1000;
}
