/**
 * min / max of a struct of numeric fields in the columnar state table: `max(struct(num,
 * auction))` (Nexmark q5's hot item, the usual "row with the largest x" idiom) keeps its value as
 * one nullable table column per field plus the `set` column, so a chained aggregation of
 * windows runs on the table (and on the state threads) instead of the row store.
 *
 * Order as Spark's for structs: field by field, a NULL field first, NaN above every number.
 * A NULL struct is skipped (min / max ignore NULLs); a tie keeps the value already in the table
 * (the rows are equal field by field, so which one stays cannot be told apart).
 */
import { isWide } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import { physOf } from "../../state/columnar/index.js";
import type { StructType } from "../../types/datatypes.js";
import { type BufArray, compareNumbers, laneValue, type MergeKernel, widenColumn } from "./merge-kernel.js";

/** Can every field of this struct be a numeric table column? (Nested structs, strings, ... cannot.) */
export function structFieldsFit(t: StructType): boolean {
  return t.fields.length > 0 && t.fields.every((f) => physOf(f.type) !== null);
}

/** Merge partial struct buffers `[struct, set]` into the table's `k` field columns from `col`, then `set`. */
export function structPickKernel(k: number, order: 1 | -1): MergeKernel {
  return (ids, n, partial, bv, bvalid, col) => {
    const value = partial[0]!;
    const fields = value.children!;
    const set = partial[1]!.values as Uint8Array;
    // One lane kind on both sides (columnar/int64.ts): a wide partial field widens its column.
    for (let f = 0; f < k; f++) if (isWide(fields[f]!.values as Float64Array)) widenColumn(bv, col + f);
    const taken = bv[col + k] as Uint8Array;
    for (let i = 0; i < n; i++) {
      if (set[i] !== 1 || (value.validity !== null && value.validity[i] === 0)) continue;
      const e = ids[i]!;
      if (taken[e] === 1 && compareWithEntry(fields, i, bv, bvalid, col, e) * order <= 0) continue;
      for (let f = 0; f < k; f++) writeField(fields[f]!, i, bv, bvalid[col + f]!, col + f, e);
      taken[e] = 1;
    }
  };
}

/** Partial row `i` against table entry `e`, field by field (NULL first). */
function compareWithEntry(
  fields: readonly Vector[],
  i: number,
  bv: readonly BufArray[],
  bvalid: readonly (Uint8Array | null)[],
  col: number,
  e: number,
): number {
  for (let f = 0; f < fields.length; f++) {
    const p = fields[f]!;
    const pValid = p.validity === null || p.validity[i] === 1;
    const eValid = bvalid[col + f]![e] === 1;
    if (!pValid || !eValid) {
      if (pValid !== eValid) return pValid ? 1 : -1;
      continue;
    }
    const c = compareNumbers((p.values as Float64Array)[i]!, (bv[col + f] as Float64Array)[e]!);
    if (c !== 0) return c;
  }
  return 0;
}

function writeField(p: Vector, i: number, bv: BufArray[], valid: Uint8Array, col: number, e: number): void {
  const isNull = p.validity !== null && p.validity[i] === 0;
  const column = bv[col]!;
  (column as Float64Array)[e] = laneValue(column, isNull ? 0 : (p.values as Float64Array)[i]!);
  valid[e] = isNull ? 0 : 1;
}
