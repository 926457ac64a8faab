/**
 * Column vectors: one typed array per column plus a validity byte map (1 = value present).
 *
 * Internal values (what kernels see): BOOLEAN 0/1, INT/DATE numbers (DATE = days since epoch),
 * BIGINT numbers, TIMESTAMP microseconds since epoch as numbers (both a `bigint` beyond ±2^53 − 1:
 * the wide lane of columnar/int64.ts), DOUBLE numbers, STRING JS strings, DECIMAL the unscaled
 * integer (number while p <= 15, else bigint), BINARY Uint8Array, ARRAY JS arrays of internal values, MAP JS Map, STRUCT a child
 * vector per field (row values are plain objects keyed by field name).
 *
 * This module: the Vector type, the type → typed-array layout (`physicalOf`), and building
 * and reading vectors.
 */

import { getField, setField } from "../common/row-object.js";
import type { DataType, StructType } from "../types/datatypes.js";
import { NUMBER_LANE_MAX_PRECISION } from "../types/decimal.js";
import { allocLike, canonical, canonicalNumber, isInt64Type, laneFromValues } from "./int64.js";

// Moving rows between vectors (gather, scatter, slice, interleave, concatenate) is
// vector-rows.ts; exported from here too, so this module stays the one import for vectors.
export { concatVectors, interleave, scatter, slice, take } from "./vector-rows.js";

/** BIGINT/TIMESTAMP values are a Float64Array, or a BigInt64Array when a value is not a safe integer (columnar/int64.ts). */
export type VectorValues = Uint8Array | Int32Array | Float64Array | BigInt64Array | unknown[];

export interface Vector {
  readonly type: DataType;
  readonly length: number;
  readonly values: VectorValues;
  /** null means "no nulls". */
  readonly validity: Uint8Array | null;
  /** Struct fields, in type order. */
  readonly children?: readonly Vector[];
}

export type Physical = "u8" | "i32" | "f64" | "obj" | "struct";

export function physicalOf(type: DataType): Physical {
  switch (type.kind) {
    case "boolean":
      return "u8";
    case "tinyint":
    case "smallint":
    case "int":
    case "date":
      return "i32";
    case "bigint":
    case "float": // values rounded to float precision (Math.fround)
    case "double":
    case "timestamp":
    case "interval":
      return "f64";
    case "struct":
      return "struct";
    case "decimal":
      // Unscaled integers: doubles while exact (p <= 15), bigints above (src/types/decimal.ts).
      return type.precision <= NUMBER_LANE_MAX_PRECISION ? "f64" : "obj";
    default:
      return "obj";
  }
}

export function allocValues(type: DataType, n: number): VectorValues {
  switch (physicalOf(type)) {
    case "u8":
      return new Uint8Array(n);
    case "i32":
      return new Int32Array(n);
    case "f64":
      return new Float64Array(n);
    case "struct":
      return [];
    default:
      return new Array<unknown>(n).fill(null);
  }
}

export function makeVector(
  type: DataType,
  values: VectorValues,
  validity: Uint8Array | null,
  length: number = values.length,
  children?: readonly Vector[],
): Vector {
  return children ? { type, length, values, validity, children } : { type, length, values, validity };
}

export function isValid(v: Vector, i: number): boolean {
  return v.validity === null || v.validity[i] === 1;
}

/** Internal value at row i, or null. */
export function getValue(v: Vector, i: number): unknown {
  if (v.validity !== null && v.validity[i] === 0) return null;
  if (v.children) {
    const t = v.type as StructType;
    const o: Record<string, unknown> = {};
    for (let f = 0; f < t.fields.length; f++) setField(o, t.fields[f]!.name, getValue(v.children[f]!, i));
    return o;
  }
  if (v.type.kind === "null") return null;
  const x = v.values[i];
  // BIGINT/TIMESTAMP values are canonical (a number while safe); a DECIMAL's bigint lane stays bigint.
  if (!isInt64Type(v.type)) return x;
  return typeof x === "bigint" ? canonical(x) : canonicalNumber(x as number);
}

/** Build a vector from internal values (null = SQL NULL). */
export function vectorFromValues(type: DataType, vals: ArrayLike<unknown>): Vector {
  const n = vals.length;
  if (type.kind === "struct") {
    let validity: Uint8Array | null = null;
    for (let i = 0; i < n; i++) {
      if (vals[i] == null) {
        validity ??= new Uint8Array(n).fill(1);
        validity[i] = 0;
      }
    }
    const children = type.fields.map((f) =>
      vectorFromValues(
        f.type,
        Array.from(vals, (row) => {
          if (row == null) return null;
          const r = row as Record<string, unknown>;
          return getField(r, f.name) ?? null;
        }),
      ),
    );
    return makeVector(type, [], validity, n, children);
  }
  const values = isInt64Type(type) ? laneFromValues(vals) : allocValues(type, n);
  let validity: Uint8Array | null = null;
  const int64 = isInt64Type(type);
  for (let i = 0; i < n; i++) {
    const x = vals[i];
    if (x == null || type.kind === "null") {
      validity ??= new Uint8Array(n).fill(1);
      validity[i] = 0;
      continue;
    }
    if (type.kind === "boolean") (values as Uint8Array)[i] = x ? 1 : 0;
    else if (!int64) (values as unknown[] | Float64Array)[i] = x as number;
  }
  return makeVector(type, values, validity, n);
}

export function nullVector(type: DataType, n: number): Vector {
  if (type.kind === "struct") {
    return makeVector(
      type,
      [],
      new Uint8Array(n),
      n,
      type.fields.map((f) => nullVector(f.type, n)),
    );
  }
  return makeVector(type, allocValues(type, n), new Uint8Array(n), n);
}

/** A vector of n copies of one internal value. */
export function constantVector(type: DataType, value: unknown, n: number): Vector {
  if (value == null) return nullVector(type, n);
  if (type.kind === "struct") {
    const o = value as Record<string, unknown>;
    return makeVector(
      type,
      [],
      null,
      n,
      type.fields.map((f) => constantVector(f.type, getField(o, f.name), n)),
    );
  }
  if (isInt64Type(type) && (typeof value === "bigint" || typeof value === "number")) {
    const lane = laneFromValues([value]);
    const values = allocLike(lane, n);
    (values as Float64Array).fill(lane[0] as number);
    return makeVector(type, values, null, n);
  }
  const values = allocValues(type, n);
  if (type.kind === "boolean") (values as Uint8Array).fill(value ? 1 : 0);
  else if (values instanceof Float64Array || values instanceof Int32Array) values.fill(value as number);
  else (values as unknown[]).fill(value);
  const v = makeVector(type, values, null, n);
  // Kernels with a byte path (UTF-8 strings against a literal) look the value up once.
  if (typeof value === "string") Object.defineProperty(v, CONSTANT, { value });
  return v;
}

const CONSTANT = Symbol("arus.constant");

/** The string every row of a `constantVector` holds; undefined for any other vector. */
export function constantString(v: Vector): string | undefined {
  return (v as unknown as { [CONSTANT]?: string })[CONSTANT];
}

/** Rows where mask[i] === 1 (mask from a boolean predicate; NULL counts as false). */
export function selectionFromMask(mask: Vector): Int32Array {
  const m = mask.values as Uint8Array;
  const valid = mask.validity;
  const n = mask.length;
  return fillSelection(m, valid, n, new Int32Array(countSelected(m, valid, n)));
}

// One loop per function: V8 optimizes a long loop on stack (OSR), and code after the loop that
// has not run yet (the allocation between two loops) deopted on leaving it, call after call.
function countSelected(m: Uint8Array, valid: Uint8Array | null, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) if (m[i] === 1 && (valid === null || valid[i] === 1)) count++;
  return count;
}

function fillSelection(m: Uint8Array, valid: Uint8Array | null, n: number, sel: Int32Array): Int32Array {
  for (let i = 0, k = 0; i < n; i++) if (m[i] === 1 && (valid === null || valid[i] === 1)) sel[k++] = i;
  return sel;
}

/** 0, 1, …, n - 1: its own function, as the loops above (a caller's code after it had deopted its OSR code, call after call). */
export function identityIds(n: number): Int32Array {
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  return ids;
}

export function countNulls(v: Vector): number {
  if (!v.validity) return 0;
  let c = 0;
  for (let i = 0; i < v.length; i++) if (v.validity[i] === 0) c++;
  return c;
}
