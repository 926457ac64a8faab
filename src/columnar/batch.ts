/**
 * A record batch: equal-length column vectors. The schema lives in the plan (attributes), so
 * a batch is just columns and a row count; `BatchSchema` pairs them where a schema is needed.
 */
import { type DataType, field, StructOf, type StructType } from "../types/datatypes.js";
import { concatVectors, getValue, slice, take, type Vector, vectorFromValues } from "./vector.js";

export interface Batch {
  readonly columns: readonly Vector[];
  readonly numRows: number;
}

export function makeBatch(columns: readonly Vector[], numRows?: number): Batch {
  return { columns, numRows: numRows ?? columns[0]?.length ?? 0 };
}

export function emptyBatch(types: readonly DataType[]): Batch {
  return makeBatch(
    types.map((t) => vectorFromValues(t, [])),
    0,
  );
}

export function takeBatch(b: Batch, idx: ArrayLike<number>, n: number = idx.length): Batch {
  return makeBatch(
    b.columns.map((c) => take(c, idx, n)),
    n,
  );
}

export function sliceBatch(b: Batch, start: number, end: number): Batch {
  const e = Math.min(end, b.numRows);
  return makeBatch(
    b.columns.map((c) => slice(c, start, e)),
    Math.max(0, e - start),
  );
}

export function concatBatches(types: readonly DataType[], batches: readonly Batch[]): Batch {
  const nonEmpty = batches.filter((b) => b.numRows > 0);
  if (nonEmpty.length === 0) return emptyBatch(types);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  let n = 0;
  for (const b of nonEmpty) n += b.numRows;
  return makeBatch(
    types.map((t, i) =>
      concatVectors(
        t,
        nonEmpty.map((b) => b.columns[i]!),
      ),
    ),
    n,
  );
}

/** Row i as an array of internal values. */
export function rowValues(b: Batch, i: number): unknown[] {
  return b.columns.map((c) => getValue(c, i));
}

/** Build a batch from rows of internal values (arrays in column order). */
export function batchFromRows(types: readonly DataType[], rows: readonly (readonly unknown[])[]): Batch {
  return makeBatch(
    types.map((t, c) =>
      vectorFromValues(
        t,
        rows.map((r) => r[c] ?? null),
      ),
    ),
    rows.length,
  );
}

export function structOfColumns(names: readonly string[], types: readonly DataType[]): StructType {
  return StructOf(names.map((n, i) => field(n, types[i]!)));
}

export function totalRows(batches: readonly Batch[]): number {
  let n = 0;
  for (const b of batches) n += b.numRows;
  return n;
}
