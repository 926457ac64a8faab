/**
 * Builds a UTF-8 STRING vector (columnar/utf8.ts): a decoder appends a batch's strings packed
 * in its own memory (json-wasm.ts), a token's bytes in the input (`ByteSlice`, csv-scan.ts) or
 * JS strings (the JSON.parse fallback for one line, quoted CSV tokens). A string UTF-8
 * cannot carry (a lone surrogate) turns the batch being built back into JS strings, so the rows
 * are always what the plain layout would hold.
 */
import { isUtf8 } from "node:buffer";
import { isWellFormed, utf8Vector } from "../../columnar/utf8.js";
import { makeVector, type Vector } from "../../columnar/vector.js";
import type { DataType } from "../../types/datatypes.js";
import type { ColumnBuilder } from "./builders.js";
import { Validity } from "./validity.js";

/**
 * A token's bytes inside its input, appended as a row without making a JS string (the CSV
 * scanner reuses one per column). The input is valid UTF-8 and the range holds whole characters.
 */
export class ByteSlice {
  start = 0;
  end = 0;
  /** No byte above 0x7f in the range. */
  ascii = true;
  constructor(readonly src: Buffer) {}
}

export class Utf8Builder implements ColumnBuilder {
  length = 0;
  private bytes: Buffer = Buffer.allocUnsafeSlow(4096);
  private offsets: Int32Array = new Int32Array(1025);
  private used = 0;
  private ascii = true;
  private readonly validity = new Validity();
  /** Set once a string UTF-8 cannot carry arrived: the rest of this batch as JS strings. */
  private plain: unknown[] | null = null;
  /** The builder's own buffers while it holds a batch's copied in whole (`appendPacked`), back after `finish`. */
  private spare: { bytes: Buffer; offsets: Int32Array } | null = null;

  constructor(readonly type: DataType) {}

  append(v: unknown): void {
    if (v === null || v === undefined) {
      this.appendNull();
      return;
    }
    if (v instanceof ByteSlice) {
      this.appendSlice(v);
      return;
    }
    const s = v as string;
    if (this.plain === null) this.reserve(1, s.length * 3); // an empty string needs its offset too
    if (this.plain === null && s.length > 0) {
      const w = this.bytes.write(s, this.used, "utf8");
      if (w !== s.length) {
        if (!isWellFormed(s)) this.toPlain();
        else this.ascii = false;
      }
      if (this.plain === null) this.used += w;
    }
    this.push(s, true);
  }

  private appendSlice(t: ByteSlice): void {
    if (this.plain !== null) {
      this.push(t.src.toString("utf8", t.start, t.end), true);
      return;
    }
    const k = t.end - t.start;
    this.reserve(1, k);
    const out = this.bytes;
    const src = t.src;
    let o = this.used;
    // A loop for short tokens: cheaper than a native copy call.
    if (k <= 24) for (let p = t.start; p < t.end; p++) out[o++] = src[p]!;
    else src.copy(out, o, t.start, t.end);
    this.used += k;
    if (!t.ascii) this.ascii = false;
    this.push(null, true); // the copied bytes are the row
  }

  appendNull(): void {
    if (this.plain === null) this.reserve(1, 0);
    this.push(null, false);
  }

  appendMany(values: ArrayLike<unknown>, valid: Uint8Array | null, k: number): void {
    for (let j = 0; j < k; j++) this.append(valid === null || valid[j] === 1 ? values[j] : null);
  }

  /**
   * Appends `k` rows packed one after another at `mem[at, ...)`: row r is `[at + offsets[r],
   * at + offsets[r + 1])`, offsets[0] = 0 (a WASM decoder's batch, json-wasm.ts); `allAscii`:
   * no byte above 0x7f. Into an empty builder the bytes and offsets are copied once, to exact
   * size, and handed on by `finish` as they are. Rows of invalid UTF-8 (the input file's own
   * bytes) are replaced by what decoding them gives (U+FFFD for each bad sequence), as a JS
   * string would be.
   */
  appendPacked(mem: Buffer, at: number, offsets: Int32Array, allAscii: boolean, valid: Uint8Array | null, k: number): void {
    const total = offsets[k]!;
    if (this.plain === null && this.length === 0 && this.spare === null) {
      this.spare = { bytes: this.bytes, offsets: this.offsets };
      this.bytes = Buffer.allocUnsafeSlow(total); // a buffer of its own, every byte written here
      mem.copy(this.bytes, 0, at, at + total);
      this.offsets = offsets.slice(0, k + 1);
    } else if (this.plain === null) {
      this.reserve(k, total);
      mem.copy(this.bytes, this.used, at, at + total);
      const own = this.offsets;
      const base = this.length + 1;
      const from = this.used;
      for (let r = 0; r < k; r++) own[base + r] = from + offsets[r + 1]!;
    }
    if (this.plain !== null || (!allAscii && !this.wellFormed(this.used, this.used + total, k))) {
      for (let r = 0; r < k; r++)
        this.append(valid !== null && valid[r] === 0 ? null : mem.toString("utf8", at + offsets[r]!, at + offsets[r + 1]!));
      return;
    }
    if (!allAscii) this.ascii = false;
    this.used += total;
    this.validity.markMany(this.length, valid, k, this.length + k);
    this.length += k;
  }

  /**
   * The k ranges just copied to [from, to) are each valid UTF-8: their concatenation is, and
   * none starts inside a character (a continuation byte), so no range split a character.
   */
  private wellFormed(from: number, to: number, k: number): boolean {
    if (!isUtf8(this.bytes.subarray(from, to))) return false;
    const offsets = this.offsets;
    for (let r = 0; r < k; r++) {
      const a = offsets[this.length + r]!;
      if (a < offsets[this.length + r + 1]! && (this.bytes[a]! & 0xc0) === 0x80) return false;
    }
    return true;
  }

  private push(s: string | null, valid: boolean): void {
    const i = this.length;
    if (this.plain !== null) this.plain.push(s);
    else this.offsets[i + 1] = this.used;
    this.validity.mark(i, valid, i + 1);
    this.length = i + 1;
  }

  /** Room for `rows` more rows and `bytes` more bytes. */
  private reserve(rows: number, bytes: number): void {
    if (this.length + rows + 1 > this.offsets.length) {
      const g = new Int32Array(Math.max(this.offsets.length * 2, this.length + rows + 1));
      g.set(this.offsets);
      this.offsets = g;
    }
    if (this.used + bytes > this.bytes.length) {
      const g = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + bytes));
      this.bytes.copy(g, 0, 0, this.used);
      this.bytes = g;
    }
  }

  private toPlain(): void {
    const n = this.length;
    const plain = new Array<unknown>(n);
    const offsets = this.offsets;
    for (let i = 0; i < n; i++) plain[i] = this.bytes.toString("utf8", offsets[i]!, offsets[i + 1]!);
    this.plain = plain;
  }

  finish(): Vector {
    const n = this.length;
    const validity = this.validity.take(n);
    let vec: Vector;
    if (this.plain !== null) {
      if (validity !== null) for (let i = 0; i < n; i++) if (validity[i] === 0) this.plain[i] = null;
      vec = makeVector(this.type, this.plain, validity, n);
    } else if (this.spare !== null && this.bytes.length === this.used && this.offsets.length === n + 1) {
      // the buffers of one appendPacked: exact-size and this batch's own already
      const bytes = new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.used);
      vec = utf8Vector(this.type, { bytes, offsets: this.offsets, ascii: this.ascii }, validity, n);
    } else {
      // Own, exact-size buffers: they move to another thread whole (transfer.ts).
      const bytes = new Uint8Array(this.used);
      bytes.set(this.bytes.subarray(0, this.used));
      vec = utf8Vector(this.type, { bytes, offsets: this.offsets.slice(0, n + 1), ascii: this.ascii }, validity, n);
    }
    if (this.spare !== null) {
      this.bytes = this.spare.bytes;
      this.offsets = this.spare.offsets;
      this.spare = null;
    }
    this.length = 0;
    this.used = 0;
    this.ascii = true;
    this.plain = null;
    return vec;
  }
}
