/**
 * BINARY vectors as one buffer and offsets instead of one Uint8Array per row (the Kafka
 * source's `key` and `value` when `arus.columnar.utf8Strings` is on). Row i is
 * `bytes[offsets[i], offsets[i + 1])`; a NULL row is an empty range. The layout mirrors the
 * UTF-8 STRING vector (utf8.ts) without its promise that the bytes are UTF-8.
 *
 * As there, no consumer has to know the layout: `values` is an accessor that makes the per-row
 * Buffer views (no copies) once, on first read, and keeps them. The kernels that gain from the
 * bytes ask `binaryOf(v)`: CAST(binary AS STRING) (binary-utf8.ts) and from_json.
 */
import type { DataType } from "../types/datatypes.js";
import { lazyKind } from "./lazy-values.js";
import type { Vector } from "./vector.js";

export interface BinaryValues {
  readonly bytes: Uint8Array;
  /** length rows + 1. */
  readonly offsets: Int32Array;
}

const BINARY = lazyKind<BinaryValues>("binary", (b, validity, length) => binaryViews(b, validity, length));

export function binaryVector(type: DataType, b: BinaryValues, validity: Uint8Array | null, length: number): Vector {
  return BINARY.make(type, b, validity, length);
}

/** The bytes of a contiguous BINARY vector; undefined for every other vector. */
export function binaryOf(v: Vector): BinaryValues | undefined {
  return BINARY.payloadOf(v);
}

/** One Buffer view per row (null for NULL rows): BINARY values as the rest of arus has them. */
export function binaryViews(b: BinaryValues, validity: Uint8Array | null, n: number): (Uint8Array | null)[] {
  const out = new Array<Uint8Array | null>(n);
  for (let i = 0; i < n; i++) out[i] = validity !== null && validity[i] === 0 ? null : binaryAt(b, i);
  return out;
}

/** Row i as a Buffer view (the caller knows it is not NULL). */
export function binaryAt(b: BinaryValues, i: number): Buffer {
  const { bytes, offsets } = b;
  return Buffer.from(bytes.buffer, bytes.byteOffset + offsets[i]!, offsets[i + 1]! - offsets[i]!);
}

/**
 * Appends byte ranges (or NULLs) into one growing buffer: a copy of each row, which costs less
 * than an object per row (the Kafka record decoder).
 */
export class BinaryBuilder {
  count = 0;
  private bytes: Uint8Array;
  private view: DataView;
  private offsets: Int32Array;
  private validity: Uint8Array | null = null;

  constructor(rows: number, bytes = 1 << 16) {
    this.offsets = new Int32Array(Math.max(16, rows) + 1);
    this.bytes = new Uint8Array(bytes);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Appends `src[a, a + len)`; len < 0 appends NULL. */
  push(src: Uint8Array, a: number, len: number): void {
    this.pushFrom(new DataView(src.buffer, src.byteOffset, src.byteLength), a, len);
  }

  /** The same from a DataView over the source (the record decoder keeps one per buffer). */
  pushFrom(src: DataView, a: number, len: number): void {
    const i = this.count;
    if (i + 1 === this.offsets.length) {
      const o = new Int32Array(this.offsets.length * 2);
      o.set(this.offsets);
      this.offsets = o;
    }
    const at = this.offsets[i]!;
    if (len < 0) {
      this.validity ??= new Uint8Array(this.offsets.length).fill(1);
      if (this.validity.length <= i) {
        const v = new Uint8Array(this.offsets.length).fill(1);
        v.set(this.validity);
        this.validity = v;
      }
      this.validity[i] = 0;
      len = 0;
    } else if (at + len > this.bytes.length) {
      const b = new Uint8Array(Math.max(this.bytes.length * 2, at + len));
      b.set(this.bytes.subarray(0, at));
      this.bytes = b;
      this.view = new DataView(b.buffer);
    }
    copyWords(src, a, a + len, this.view, at);
    this.offsets[i + 1] = at + len;
    this.count = i + 1;
  }

  /** Rows so far: bytes, offsets and validity (null = no NULL) for `count` rows. */
  values(): { readonly bytes: Uint8Array; readonly offsets: Int32Array; readonly validity: Uint8Array | null } {
    const n = this.count;
    const validity = this.validity === null ? null : growTo(this.validity, n).subarray(0, n);
    return { bytes: this.bytes.subarray(0, this.offsets[n]), offsets: this.offsets.subarray(0, n + 1), validity };
  }

  /** Row i as a Buffer view, null for NULL. */
  at(i: number): Uint8Array | null {
    if (this.validity !== null && i < this.validity.length && this.validity[i] === 0) return null;
    return binaryAt(this.values(), i);
  }
}

/**
 * Copies `src[a, b)` to `dst` at `o` in 4-byte words through DataViews (unaligned access that
 * V8 inlines): about three times a byte loop for values of tens of bytes, and unlike
 * `set(subarray())` or `Buffer.copy` no object or native call per row. (Not 8-byte float words:
 * a NaN's bits need not survive a read and write as a double.)
 */
export function copyWords(src: DataView, a: number, b: number, dst: DataView, o: number): void {
  let p = a;
  if (b - a > 256) {
    new Uint8Array(dst.buffer, dst.byteOffset + o, b - a).set(new Uint8Array(src.buffer, src.byteOffset + a, b - a));
    return;
  }
  for (const e = b - 4; p <= e; p += 4, o += 4) dst.setInt32(o, src.getInt32(p, true), true);
  for (; p < b; p++) dst.setUint8(o++, src.getUint8(p));
}

function growTo(v: Uint8Array, n: number): Uint8Array {
  if (v.length >= n) return v;
  const w = new Uint8Array(n).fill(1);
  w.set(v);
  return w;
}
