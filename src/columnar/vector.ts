/**
 * Column vectors: one typed array per column plus a validity byte map (1 = value present).
 *
 * Internal values (what kernels see): BOOLEAN 0/1, INT/DATE numbers (DATE = days since epoch),
 * BIGINT numbers, TIMESTAMP microseconds since epoch as numbers (both a `bigint` beyond ±2^53 − 1:
 * the wide lane of columnar/int64.ts), DOUBLE numbers, STRING JS strings, DECIMAL the unscaled
 * integer (number while p <= 15, else bigint), BINARY Uint8Array, ARRAY JS arrays of internal values, MAP JS Map, STRUCT a child
 * vector per field (row values are plain objects keyed by field name).
 */

import { getField, setField } from "../common/row-object.js";
import type { DataType, StructType } from "../types/datatypes.js";
import { NUMBER_LANE_MAX_PRECISION } from "../types/decimal.js";
import { allocLike, canonical, canonicalNumber, concatLanes, type Int64Lane, isInt64Type, isWide, laneFromValues } from "./int64.js";
import { type Utf8Values, utf8Concat, utf8Of, utf8Scatter, utf8Slice, utf8Take, utf8Vector } from "./utf8.js";

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

/** Gather rows by index (indices may repeat; -1 produces NULL, used by outer joins). */
export function take(v: Vector, idx: ArrayLike<number>, n: number = idx.length): Vector {
  let validity: Uint8Array | null = null;
  const src = v.validity;
  let hasNeg = false;
  for (let i = 0; i < n; i++) {
    if (idx[i]! < 0) {
      hasNeg = true;
      break;
    }
  }
  if (src !== null || hasNeg) {
    validity = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const j = idx[i]!;
      validity[i] = j >= 0 && (src === null || src[j] === 1) ? 1 : 0;
    }
  }
  if (v.children) {
    return makeVector(
      v.type,
      [],
      validity,
      n,
      v.children.map((c) => take(c, idx, n)),
    );
  }
  const u = utf8Of(v);
  if (u !== undefined) return utf8Vector(v.type, utf8Take(u, idx, n), validity, n);
  const values = isWide(v.values) ? new BigInt64Array(n) : allocValues(v.type, n);
  const sv = v.values;
  if (isWide(values)) {
    const s = sv as BigInt64Array;
    for (let i = 0; i < n; i++) {
      const j = idx[i]!;
      if (j >= 0) values[i] = s[j]!;
    }
  } else if (values instanceof Float64Array || values instanceof Int32Array || values instanceof Uint8Array) {
    const s = sv as Float64Array;
    for (let i = 0; i < n; i++) {
      const j = idx[i]!;
      if (j >= 0) values[i] = s[j]!;
    }
  } else {
    const s = sv as unknown[];
    for (let i = 0; i < n; i++) {
      const j = idx[i]!;
      values[i] = j >= 0 ? s[j] : null;
    }
  }
  return makeVector(v.type, values, validity, n);
}

/**
 * Split rows into parts: row i goes to part `part[i]` (0 <= part[i] < counts.length), keeping
 * the order within each part; `counts[j]` is the number of rows of part j. One pass per column
 * (a take per part would read the column once per part).
 */
export function scatter(v: Vector, part: Int32Array, counts: Int32Array): Vector[] {
  const k = counts.length;
  const n = part.length;
  let validity: Uint8Array[] | null = null;
  if (v.validity !== null) {
    const src = v.validity;
    const out = Array.from(counts, (c) => new Uint8Array(c));
    const pos = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const j = part[i]!;
      out[j]![pos[j]!++] = src[i]!;
    }
    validity = out;
  }
  if (v.children) {
    const kids = v.children.map((c) => scatter(c, part, counts));
    return Array.from(counts, (c, j) =>
      makeVector(
        v.type,
        [],
        validity ? validity[j]! : null,
        c,
        kids.map((kid) => kid[j]!),
      ),
    );
  }
  const u = utf8Of(v);
  if (u !== undefined) return utf8Scatter(u, part, counts).map((p, j) => utf8Vector(v.type, p, validity ? validity[j]! : null, counts[j]!));
  const values = Array.from(counts, (c) => (isWide(v.values) ? new BigInt64Array(c) : allocValues(v.type, c)));
  const src = v.values as ArrayLike<unknown>;
  const pos = new Int32Array(k);
  if (src instanceof BigInt64Array) {
    const dst = values as BigInt64Array[];
    for (let i = 0; i < n; i++) {
      const j = part[i]!;
      dst[j]![pos[j]!++] = src[i]!;
    }
  } else if (src instanceof Float64Array || src instanceof Int32Array || src instanceof Uint8Array) {
    const dst = values as unknown as (Float64Array | Int32Array | Uint8Array)[];
    for (let i = 0; i < n; i++) {
      const j = part[i]!;
      dst[j]![pos[j]!++] = src[i]!;
    }
  } else {
    const dst = values as unknown[][];
    for (let i = 0; i < n; i++) {
      const j = part[i]!;
      dst[j]![pos[j]!++] = src[i];
    }
  }
  return values.map((vals, j) => makeVector(v.type, vals, validity ? validity[j]! : null, counts[j]!));
}

export function slice(v: Vector, start: number, end: number): Vector {
  const n = Math.max(0, end - start);
  const validity = v.validity ? v.validity.subarray(start, end) : null;
  if (v.children) {
    return makeVector(
      v.type,
      [],
      validity,
      n,
      v.children.map((c) => slice(c, start, end)),
    );
  }
  const u = utf8Of(v);
  if (u !== undefined) return utf8Vector(v.type, utf8Slice(u, start, start + n), validity, n);
  const values = Array.isArray(v.values) ? v.values.slice(start, end) : (v.values as Float64Array).subarray(start, end);
  return makeVector(v.type, values, validity, n);
}

/**
 * Row i of part j lands at i * k + j (k parts of equal length n): the rows of k projections of
 * one batch, each input row's projections adjacent. One pass, no intermediate copy.
 */
export function interleave(type: DataType, parts: readonly Vector[]): Vector {
  const k = parts.length;
  if (k === 1) return parts[0]!;
  const n = parts[0]!.length;
  const total = n * k;
  let validity: Uint8Array | null = null;
  if (parts.some((p) => p.validity !== null)) {
    validity = new Uint8Array(total);
    for (let j = 0; j < k; j++) {
      const src = parts[j]!.validity;
      for (let i = 0; i < n; i++) validity[i * k + j] = src === null ? 1 : src[i]!;
    }
  }
  if (type.kind === "struct") {
    return makeVector(
      type,
      [],
      validity,
      total,
      type.fields.map((f, c) =>
        interleave(
          f.type,
          parts.map((p) => p.children![c]!),
        ),
      ),
    );
  }
  if (parts.some((p) => isWide(p.values))) {
    const lane = concatLanes(
      parts.map((p) => p.values as Int64Lane),
      parts.map((p) => p.length),
    ) as BigInt64Array;
    const values = new BigInt64Array(total);
    for (let j = 0; j < k; j++) for (let i = 0; i < n; i++) values[i * k + j] = lane[j * n + i]!;
    return makeVector(type, values, validity, total);
  }
  const values = allocValues(type, total);
  for (let j = 0; j < k; j++) {
    const src = parts[j]!.values as ArrayLike<unknown>;
    const dst = values as unknown[];
    for (let i = 0; i < n; i++) dst[i * k + j] = src[i];
  }
  return makeVector(type, values, validity, total);
}

/** Concatenate vectors of one type. */
export function concatVectors(type: DataType, parts: readonly Vector[]): Vector {
  if (parts.length === 1) return parts[0]!;
  let n = 0;
  let anyNull = false;
  for (const p of parts) {
    n += p.length;
    if (p.validity) anyNull = true;
  }
  let validity: Uint8Array | null = null;
  if (anyNull) {
    validity = new Uint8Array(n);
    let o = 0;
    for (const p of parts) {
      if (p.validity) validity.set(p.validity.subarray(0, p.length), o);
      else validity.fill(1, o, o + p.length);
      o += p.length;
    }
  }
  if (type.kind === "struct") {
    return makeVector(
      type,
      [],
      validity,
      n,
      type.fields.map((f, i) =>
        concatVectors(
          f.type,
          parts.map((p) => p.children![i]!),
        ),
      ),
    );
  }
  if (isInt64Type(type) && parts.some((p) => isWide(p.values))) {
    const values = concatLanes(
      parts.map((p) => p.values as Int64Lane),
      parts.map((p) => p.length),
    );
    return makeVector(type, values, validity, n);
  }
  const bytes = parts.map(utf8Of);
  if (parts.length > 0 && bytes.every((u) => u !== undefined)) {
    const lengths = parts.map((p) => p.length);
    return utf8Vector(type, utf8Concat(bytes as Utf8Values[], lengths), validity, n);
  }
  const values = allocValues(type, n);
  let o = 0;
  for (const p of parts) {
    if (Array.isArray(values)) {
      const s = p.values as unknown[];
      for (let i = 0; i < p.length; i++) values[o + i] = s[i];
    } else {
      (values as Float64Array).set((p.values as Float64Array).subarray(0, p.length), o);
    }
    o += p.length;
  }
  return makeVector(type, values, validity, n);
}

/** Rows where mask[i] === 1 (mask from a boolean predicate; NULL counts as false). */
export function selectionFromMask(mask: Vector): Int32Array {
  const m = mask.values as Uint8Array;
  const valid = mask.validity;
  let count = 0;
  for (let i = 0; i < mask.length; i++) if (m[i] === 1 && (valid === null || valid[i] === 1)) count++;
  const sel = new Int32Array(count);
  let k = 0;
  for (let i = 0; i < mask.length; i++) if (m[i] === 1 && (valid === null || valid[i] === 1)) sel[k++] = i;
  return sel;
}

export function countNulls(v: Vector): number {
  if (!v.validity) return 0;
  let c = 0;
  for (let i = 0; i < v.length; i++) if (v.validity[i] === 0) c++;
  return c;
}
