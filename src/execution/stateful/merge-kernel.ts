/**
 * What a columnar aggregation's merge kernels share (columnar-kernels.ts, columnar-struct-kernel.ts):
 * the kernel's signature, the table's buffer arrays, and how numbers compare and widen.
 */
import { isWide, widen } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";

/** BIGINT/TIMESTAMP columns may be wide (columnar/int64.ts): a kernel that meets one widens the table's column in `bv`. */
export type BufArray = Float64Array | Uint8Array | BigInt64Array;

/** Merge one aggregate's partial buffers (n groups) into the table's columns [col, ...) at entry ids. */
export type MergeKernel = (
  ids: Int32Array,
  n: number,
  partial: readonly Vector[],
  bv: BufArray[],
  bvalid: (Uint8Array | null)[],
  col: number,
  ansi: boolean,
) => void;

/** Spark's ordering of numbers: NaN above everything, equal to itself; a bigint compares exactly. */
export function compareNumbers(x: number, y: number): number {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x === y) return 0;
  if (typeof x !== "number" || typeof y !== "number") return 0; // number vs bigint, equal values
  return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
}

/** `x` as `column` stores it: a number into a column on the wide lane becomes a bigint. */
export function laneValue(column: BufArray, x: number): number {
  return isWide(column) && typeof x === "number" ? (BigInt(x) as unknown as number) : x;
}

/** Column `col` of `bv` on the wide lane, in place (the table's own array of columns). */
export function widenColumn(bv: BufArray[], col: number): BigInt64Array {
  const c = bv[col]!;
  if (isWide(c)) return c;
  const w = widen(c as Float64Array);
  bv[col] = w;
  return w;
}
