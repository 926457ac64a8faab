/**
 * Helpers shared by the stateful operators: which column carries event time, reading event
 * times as micros, state partitioning by key hash, fresh metric records, state rows.
 */
import type { Batch } from "../../columnar/batch.js";
import type { Vector } from "../../columnar/vector.js";
import { keyTextHash } from "../../common/hash.js";
import { wideLaneUnsupported } from "../../functions/long-ops.js";
import type { Attribute } from "../../plan/expressions.js";
import type { LateRows, StateOperatorMetrics } from "./context.js";

export const WATERMARK_KEY = "spark.watermarkDelayMs";

/**
 * The state row `[...a, ...b]` with exactly that many slots. The store keeps the very array, so
 * its spare capacity is held as long as the key lives: a spread grows its result as it goes
 * (a 7-value row kept 19 slots, 96 B more per key) and `concat` of these arrays can fall back
 * to dictionary elements (over 300 B more).
 */
export function exactRow(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const row = new Array<unknown>(a.length + b.length);
  for (let i = 0; i < a.length; i++) row[i] = a[i];
  for (let i = 0; i < b.length; i++) row[a.length + i] = b[i];
  return row;
}

/** Index of the attribute carrying watermark metadata, or -1. */
export function eventTimeKeyIndex(attrs: readonly Attribute[]): number {
  return attrs.findIndex((a) => a.metadata[WATERMARK_KEY] !== undefined);
}

/** Event time per row in micros (into `out`, n long): timestamps as is, window structs by their `end`; NULL as NaN. */
export function eventTimeMicros(v: Vector, n: number, out: Float64Array = new Float64Array(n)): Float64Array {
  const src = v.children ? v.children[1]! : v;
  // Event times after 2255 (the wide lane, columnar/int64.ts) would round here: refuse them.
  if (src.values instanceof BigInt64Array) throw wideLaneUnsupported("an event-time watermark", null);
  const vals = src.values as Float64Array;
  for (let i = 0; i < n; i++) {
    const isNull = (v.validity !== null && v.validity[i] === 0) || (src.validity !== null && src.validity[i] === 0);
    // NaN: Spark's `eventTime <= watermark` is NULL for a NULL time, so the row is never late and
    // its state never evicted by the watermark (every comparison with NaN is false).
    out[i] = isNull ? Number.NaN : vals[i]!;
  }
  return out;
}

/** Partition of an encoded key: FNV-1a of the key text (keyTextHash), modulo the partition count. */
export function partitionOf(key: string, numPartitions: number): number {
  return numPartitions <= 1 ? 0 : partitionOfHash(keyTextHash(key), numPartitions);
}

/** Partition of a key whose text hashes to `hash` (keyTextHash). */
export function partitionOfHash(hash: number, numPartitions: number): number {
  return numPartitions <= 1 ? 0 : (hash >>> 0) % numPartitions;
}

export function newMetrics(operatorName: string, numPartitions: number): StateOperatorMetrics {
  return {
    operatorName,
    numRowsTotal: 0,
    numRowsUpdated: 0,
    allUpdatesTimeMs: 0,
    numRowsRemoved: 0,
    allRemovalsTimeMs: 0,
    commitTimeMs: 0,
    memoryUsedBytes: 0,
    numRowsDroppedByWatermark: 0,
    numLateInputRows: 0,
    numShufflePartitions: numPartitions,
    numStateStoreInstances: numPartitions,
    customMetrics: {},
  };
}

/** The late-rows record of `batch` (rows of an operator's input `output`) dropped by watermark `wm` (ms). */
export function lateRowsOf(operatorId: number, operatorName: string, output: readonly Attribute[], batch: Batch, wm: number): LateRows {
  const col = eventTimeKeyIndex(output);
  const n = batch.numRows;
  return {
    operatorId,
    operatorName,
    output,
    batch,
    watermarkMs: wm,
    eventTimeMicros: col >= 0 ? eventTimeMicros(batch.columns[col]!, n) : new Float64Array(n),
  };
}
