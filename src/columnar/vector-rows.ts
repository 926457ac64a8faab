/**
 * Moving rows between column vectors (vector.ts): gather by index (`take`, -1 gives NULL),
 * split into parts (`scatter`), `slice`, `interleave` k projections of one batch, and
 * concatenate (`concatVectors`). Each keeps the lane it finds: UTF-8 byte strings stay bytes
 * (utf8.ts), wide BIGINT/TIMESTAMP lanes stay bigints (int64.ts), struct children move with
 * their parent. vector.ts re-exports these.
 */
import type { DataType } from "../types/datatypes.js";
import { concatLanes, type Int64Lane, isInt64Type, isWide } from "./int64.js";
import { type Utf8Values, utf8Concat, utf8Of, utf8Scatter, utf8Slice, utf8Take, utf8Vector } from "./utf8.js";
import { allocValues, makeVector, type Vector } from "./vector.js";

/** Gather rows by index (indices may repeat; -1 produces NULL, used by outer joins). */
export function take(v: Vector, idx: ArrayLike<number>, n: number = idx.length): Vector {
  const validity = v.validity !== null || anyNegative(idx, n) ? takeValidity(v.validity, idx, n) : null;
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
  const sv = v.values;
  if (isWide(sv)) return makeVector(v.type, takeBigInts(sv, idx, n), validity, n);
  const values = allocValues(v.type, n);
  if (values instanceof Float64Array) takeF64(values, sv as Float64Array, idx, n);
  else if (values instanceof Int32Array) takeI32(values, sv as Int32Array, idx, n);
  else if (values instanceof Uint8Array) takeU8(values, sv as Uint8Array, idx, n);
  else takeObjects(values as unknown[], sv as unknown[], idx, n);
  return makeVector(v.type, values, validity, n);
}

// take's loops, each a function of its own (docs/architecture.md, "Hot path rules"): in one
// function every new mix of column types and index arrays recompiled all of them.

function anyNegative(idx: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (idx[i]! < 0) return true;
  return false;
}

function takeValidity(src: Uint8Array | null, idx: ArrayLike<number>, n: number): Uint8Array {
  const validity = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    validity[i] = j >= 0 && (src === null || src[j] === 1) ? 1 : 0;
  }
  return validity;
}

function takeBigInts(s: BigInt64Array, idx: ArrayLike<number>, n: number): BigInt64Array {
  const values = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    if (j >= 0) values[i] = s[j]!;
  }
  return values;
}

function takeF64(values: Float64Array, s: Float64Array, idx: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    if (j >= 0) values[i] = s[j]!;
  }
}

function takeI32(values: Int32Array, s: Int32Array, idx: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    if (j >= 0) values[i] = s[j]!;
  }
}

function takeU8(values: Uint8Array, s: Uint8Array, idx: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    if (j >= 0) values[i] = s[j]!;
  }
}

function takeObjects(values: unknown[], s: readonly unknown[], idx: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    values[i] = j >= 0 ? s[j] : null;
  }
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
