/**
 * The repartition topic's records: stage A's rows routed by the stateful key to partition
 * `partitionOf(key) mod P` (the same FNV-1a the state partitions use), and one record per
 * (batch, partition) holding those rows, encoded as the state files encode rows (msgpack of
 * internal values), so every type a state row can hold crosses the topic exactly.
 */
import { type Batch, batchFromRows, rowValues } from "../../columnar/batch.js";
import { partitionOf } from "../../execution/stateful/common.js";
import { decodeValue, encodeValue } from "../../state/codec.js";
import { encodeKey } from "../../state/store.js";
import type { DataType } from "../../types/datatypes.js";

/** Rows per repartition partition (only partitions that got rows). */
export function routeRows(batches: readonly Batch[], routeColumns: readonly number[], numPartitions: number): Map<number, unknown[][]> {
  const out = new Map<number, unknown[][]>();
  for (const b of batches) {
    for (let i = 0; i < b.numRows; i++) {
      const row = rowValues(b, i);
      const p = routeColumns.length === 0 ? 0 : partitionOf(encodeKey(routeColumns.map((c) => row[c])), numPartitions);
      let rows = out.get(p);
      if (!rows) out.set(p, (rows = []));
      rows.push(row);
    }
  }
  return out;
}

export function encodeRows(rows: readonly (readonly unknown[])[]): Uint8Array {
  return encodeValue(rows as unknown as readonly unknown[]);
}

export function decodeRows(types: readonly DataType[], bytes: Uint8Array, where: string): Batch {
  let rows: unknown;
  try {
    rows = decodeValue(bytes);
  } catch (e) {
    throw new Error(`cannot decode the repartition record at ${where}: ${(e as Error).message}`);
  }
  if (!Array.isArray(rows)) throw new Error(`the repartition record at ${where} is not a row list`);
  return batchFromRows(types, rows as unknown[][]);
}
