/**
 * A group key as "leaf" columns, the form GroupIndex hashes and compares: struct fields become
 * separate leaves (after a validity leaf of the struct's own), arrays, maps and binaries a
 * canonical string, a UTF-8 STRING its bytes, BIGINT/TIMESTAMP doubles with the exact values
 * beside them. Separate because hashing (group-hash.ts), the stored keys (group-key-store.ts)
 * and run detection (group-runs.ts) all read leaves.
 */
import { isInt64Type, isWide } from "../columnar/int64.js";
import { type Utf8Values, utf8Of } from "../columnar/utf8.js";
import { valueKeyText } from "../columnar/value-key.js";
import type { Vector } from "../columnar/vector.js";

export type NumArray = Float64Array | Int32Array | Uint8Array;
export interface Leaf {
  readonly numeric: boolean;
  /**
   * A BIGINT/TIMESTAMP leaf: values beyond ±2^53 − 1 hash and compare by their exact value
   * (`wide` holds them when the vector is on the wide lane; `values` then holds Number(x)).
   */
  readonly int64?: boolean;
  readonly wide?: BigInt64Array;
  readonly values: NumArray | unknown[];
  /** A UTF-8 STRING key (columnar/utf8.ts): hashed and compared on its bytes; `values` unused. */
  readonly utf8?: Utf8Values;
  /** 1 = valid; null = no nulls. */
  readonly validity: Uint8Array | null;
}

const NO_VALUES: unknown[] = [];

export function leavesOf(v: Vector, n: number, out: Leaf[]): void {
  if (v.children) {
    // Always a validity leaf (all ones without a validity array): the same key must give the
    // same leaves whether or not its batch carried NULLs, or it would hash into another group.
    out.push({ numeric: true, values: v.validity ?? new Uint8Array(n).fill(1), validity: null });
    for (const c of v.children) leavesOf(c, n, out);
    return;
  }
  const k = v.type.kind;
  if (k === "array" || k === "map" || k === "binary") {
    const vals = new Array<string>(n);
    for (let i = 0; i < n; i++) vals[i] = v.validity && v.validity[i] === 0 ? "" : valueKeyText(v.values[i]);
    out.push({ numeric: false, values: vals, validity: v.validity });
    return;
  }
  const u = utf8Of(v);
  if (u !== undefined) {
    out.push({ numeric: false, values: NO_VALUES, utf8: u, validity: v.validity });
    return;
  }
  if (isWide(v.values)) {
    const wide = v.values;
    const approx = new Float64Array(n);
    for (let i = 0; i < n; i++) approx[i] = Number(wide[i]!);
    out.push({ numeric: true, int64: true, values: approx, wide, validity: v.validity });
    return;
  }
  const int64 = isInt64Type(v.type);
  out.push({
    numeric: !Array.isArray(v.values),
    int64,
    values: v.values as NumArray | unknown[],
    validity: k === "null" ? new Uint8Array(n) : v.validity,
  });
}

/** The exact value of an int64 leaf's row i (only asked for unsafe values). */
export function exactOf(leaf: Leaf, i: number): bigint {
  return leaf.wide ? leaf.wide[i]! : BigInt((leaf.values as Float64Array)[i]!);
}
