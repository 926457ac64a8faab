/**
 * Building blocks for kernels: validity merging and typed loops that skip per-row objects.
 */
import { canonical, isInt64Type, isWide, laneFromValues } from "../columnar/int64.js";
import { allocValues, makeVector, type Vector } from "../columnar/vector.js";
import type { DataType } from "../types/datatypes.js";

/** AND of two validity maps (null = all valid). */
export function andValidity(a: Uint8Array | null, b: Uint8Array | null, n: number): Uint8Array | null {
  if (a === null) return b === null ? null : b.slice(0, n);
  if (b === null) return a.slice(0, n);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = a[i]! & b[i]!;
  return out;
}

/** Whether row i is non-NULL in every input. */
export function allValid(input: readonly Vector[], i: number): boolean {
  for (const v of input) if (v.validity !== null && v.validity[i] === 0) return false;
  return true;
}

export function allValidity(vs: readonly Vector[], n: number): Uint8Array | null {
  let acc: Uint8Array | null = null;
  for (const v of vs) acc = andValidity(acc, v.validity, n);
  return acc;
}

/** Numeric values of a vector as a typed array (INT/BIGINT/DOUBLE/TIMESTAMP/DATE/BOOLEAN). */
export function nums(v: Vector): Float64Array | Int32Array | Uint8Array {
  return v.values as Float64Array | Int32Array | Uint8Array;
}

/** Apply fn to each valid pair; result NULL where either input is NULL. */
export function mapBinary(type: DataType, a: Vector, b: Vector, n: number, fn: (x: number, y: number) => number): Vector {
  const out = allocValues(type, n) as Float64Array;
  const av = nums(a);
  const bv = nums(b);
  for (let i = 0; i < n; i++) out[i] = fn(av[i]!, bv[i]!);
  return makeVector(type, out, andValidity(a.validity, b.validity, n), n);
}

export function mapUnary(type: DataType, a: Vector, n: number, fn: (x: number) => number): Vector {
  const out = allocValues(type, n) as Float64Array;
  const av = nums(a);
  for (let i = 0; i < n; i++) out[i] = fn(av[i]!);
  return makeVector(type, out, a.validity ? a.validity.slice(0, n) : null, n);
}

/** Generic per-row map over internal values, for object-typed columns (strings, arrays). */
export function mapRows(
  type: DataType,
  args: readonly Vector[],
  n: number,
  fn: (...vals: unknown[]) => unknown,
  nullIfAnyNull = true,
): Vector {
  // BIGINT/TIMESTAMP results are gathered as values and laid out once (a bigint needs the wide lane).
  const int64 = isInt64Type(type);
  const out = int64 ? new Array<unknown>(n).fill(null) : allocValues(type, n);
  let validity: Uint8Array | null = null;
  const vals = new Array<unknown>(args.length);
  const wide = args.map((v) => isWide(v.values));
  for (let i = 0; i < n; i++) {
    let anyNull = false;
    for (let k = 0; k < args.length; k++) {
      const v = args[k]!;
      if (v.validity !== null && v.validity[i] === 0) {
        vals[k] = null;
        anyNull = true;
      } else vals[k] = wide[k] ? canonical((v.values as BigInt64Array)[i]!) : v.values[i];
    }
    const r = anyNull && nullIfAnyNull ? null : fn(...vals);
    if (r === null || r === undefined || (typeof r === "number" && Number.isNaN(r) && type.kind !== "double" && type.kind !== "float")) {
      validity ??= new Uint8Array(n).fill(1);
      validity[i] = 0;
    } else if (out instanceof Uint8Array) out[i] = r ? 1 : 0;
    else (out as unknown[])[i] = r;
  }
  return makeVector(type, int64 ? laneFromValues(out as unknown[]) : out, validity, n);
}

/** Mark rows NULL where `nullMask[i]` is 1, on top of existing validity. */
export function withNulls(v: Vector, nullMask: Uint8Array | null): Vector {
  if (!nullMask) return v;
  const validity = v.validity ? v.validity.slice() : new Uint8Array(v.length).fill(1);
  let any = false;
  for (let i = 0; i < v.length; i++) {
    if (nullMask[i]) {
      validity[i] = 0;
      any = true;
    }
  }
  return any ? { ...v, validity } : v;
}

/** `a` when it holds `n` values, else a copy at least twice as long (accumulators grow per group). */
export function growF64(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const b = new Float64Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

/** As growF64, for validity and seen flags. */
export function growU8(a: Uint8Array, n: number): Uint8Array {
  if (a.length >= n) return a;
  const b = new Uint8Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}
