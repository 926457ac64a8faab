/**
 * STRING vectors as UTF-8 bytes and offsets instead of a JS string per row
 * (`arus.columnar.utf8Strings`, default on: columnar/utf8-conf.ts). Row i is `bytes[offsets[i], offsets[i + 1])`
 * (a NULL row is an empty range); the bytes are always valid UTF-8 holding no lone surrogate,
 * so decoding them gives back exactly the JS string the row stands for.
 *
 * Correctness never depends on a consumer knowing this layout: such a vector's `values` is an
 * accessor that decodes every row into a JS string array once, on first read, and keeps it. So
 * every kernel written for `unknown[]` strings works unchanged; the kernels that matter for
 * throughput (gather, slice, concat, scatter here; equality, prefix matching, length, group-by
 * hashing elsewhere) ask `utf8Of(v)` and work on the bytes. The bytes and offsets are plain
 * typed arrays, so the vector moves between threads as transferable buffers (transfer.ts).
 */
import type { DataType } from "../types/datatypes.js";
import { lazyKind } from "./lazy-values.js";
import type { Vector } from "./vector.js";

export interface Utf8Values {
  readonly bytes: Uint8Array;
  /** length rows + 1; need not start at 0 (a slice shares its parent's bytes). */
  readonly offsets: Int32Array;
  /** Every byte is ASCII: a row's byte length is its character length. */
  readonly ascii: boolean;
}

const UTF8 = lazyKind<Utf8Values>("utf8", (u, validity, length) => decodeAll(u, validity, length));

export function utf8Vector(type: DataType, u: Utf8Values, validity: Uint8Array | null, length: number): Vector {
  return UTF8.make(type, u, validity, length);
}

/** The bytes of a UTF-8 STRING vector; undefined for every other vector. */
export function utf8Of(v: Vector): Utf8Values | undefined {
  return UTF8.payloadOf(v);
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

interface SliceDecoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

function decodeAll(u: Utf8Values, validity: Uint8Array | null, n: number): unknown[] {
  const buf = asBuffer(u.bytes) as Buffer & SliceDecoders;
  const off = u.offsets;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) out[i] = null;
    else out[i] = u.ascii ? buf.latin1Slice(off[i]!, off[i + 1]!) : buf.utf8Slice(off[i]!, off[i + 1]!);
  }
  return out;
}

/** Row i as a JS string (the caller knows it is not NULL). */
export function utf8String(u: Utf8Values, i: number): string {
  return asBuffer(u.bytes).toString(u.ascii ? "latin1" : "utf8", u.offsets[i]!, u.offsets[i + 1]!);
}

/** `s` has no lone surrogate (UTF-8 cannot carry one: such a string stays a JS string). */
export function isWellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}

/** JS strings (null = NULL) as UTF-8; null when one holds a lone surrogate. */
export function utf8FromStrings(vals: ArrayLike<unknown>, n: number = vals.length): Utf8Values | null {
  let cap = 0;
  for (let i = 0; i < n; i++) {
    const s = vals[i];
    if (typeof s === "string") cap += s.length * 3;
    else if (s != null) return null;
  }
  const bytes = Buffer.allocUnsafeSlow(cap);
  const offsets = new Int32Array(n + 1);
  let o = 0;
  let ascii = true;
  for (let i = 0; i < n; i++) {
    const s = vals[i];
    if (typeof s === "string") {
      const w = bytes.write(s, o, "utf8");
      if (w !== s.length) {
        if (!isWellFormed(s)) return null;
        ascii = false;
      }
      o += w;
    }
    offsets[i + 1] = o;
  }
  return { bytes: new Uint8Array(bytes.buffer, 0, o), offsets, ascii };
}

/** Copies `src[a, b)` to `dst` at `o` (a loop for short ranges: cheaper than a native call). */
function copyRange(src: Uint8Array, a: number, b: number, dst: Uint8Array, o: number): void {
  if (b - a <= 24) for (let p = a; p < b; p++) dst[o++] = src[p]!;
  else dst.set(src.subarray(a, b), o);
}

/** Gather rows by index; -1 gives an empty range (the caller's validity says NULL). */
export function utf8Take(u: Utf8Values, idx: ArrayLike<number>, n: number): Utf8Values {
  const off = u.offsets;
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const j = idx[i]!;
    if (j >= 0) total += off[j + 1]! - off[j]!;
    offsets[i + 1] = total;
  }
  const bytes = new Uint8Array(total);
  const src = u.bytes;
  // Runs of consecutive rows (a filter keeping most rows) copy as one range.
  let i = 0;
  while (i < n) {
    const j = idx[i]!;
    if (j < 0) {
      i++;
      continue;
    }
    let k = i + 1;
    while (k < n && idx[k] === idx[k - 1]! + 1) k++;
    copyRange(src, off[j]!, off[idx[k - 1]! + 1]!, bytes, offsets[i]!);
    i = k;
  }
  return { bytes, offsets, ascii: u.ascii };
}

/** Rows [start, end): shares the bytes. */
export function utf8Slice(u: Utf8Values, start: number, end: number): Utf8Values {
  return { bytes: u.bytes, offsets: u.offsets.subarray(start, Math.max(start, end) + 1), ascii: u.ascii };
}

/** The rows of each part after one another. */
export function utf8Concat(parts: readonly Utf8Values[], lengths: readonly number[]): Utf8Values {
  let n = 0;
  let total = 0;
  let ascii = true;
  parts.forEach((p, k) => {
    n += lengths[k]!;
    total += p.offsets[lengths[k]!]! - p.offsets[0]!;
    ascii &&= p.ascii;
  });
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(n + 1);
  let row = 0;
  let o = 0;
  parts.forEach((p, k) => {
    const len = lengths[k]!;
    const base = p.offsets[0]!;
    bytes.set(p.bytes.subarray(base, p.offsets[len]!), o);
    for (let i = 1; i <= len; i++) offsets[row + i] = o + p.offsets[i]! - base;
    row += len;
    o = offsets[row]!;
  });
  return { bytes, offsets, ascii };
}

/** Row i to part `part[i]` (order kept within a part); `counts[j]` rows in part j. */
export function utf8Scatter(u: Utf8Values, part: Int32Array, counts: Int32Array): Utf8Values[] {
  const k = counts.length;
  const off = u.offsets;
  const sizes = new Float64Array(k);
  for (let i = 0; i < part.length; i++) sizes[part[i]!] += off[i + 1]! - off[i]!;
  const bytes = Array.from(sizes, (s) => new Uint8Array(s));
  const offsets = Array.from(counts, (c) => new Int32Array(c + 1));
  const pos = new Int32Array(k);
  const at = new Int32Array(k);
  for (let i = 0; i < part.length; i++) {
    const j = part[i]!;
    const a = off[i]!;
    const b = off[i + 1]!;
    copyRange(u.bytes, a, b, bytes[j]!, at[j]!);
    at[j] += b - a;
    offsets[j]![++pos[j]!] = at[j]!;
  }
  return bytes.map((b, j) => ({ bytes: b, offsets: offsets[j]!, ascii: u.ascii }));
}
