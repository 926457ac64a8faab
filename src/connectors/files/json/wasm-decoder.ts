/**
 * One instance of the WebAssembly JSON-lines decoder (wasm/json-lines.c) set up for one schema:
 * its input buffer, which a caller fills (json-wasm.ts reads files straight into it), and its
 * column buffers, which hold one batch's rows over any number of scan calls. A finished batch
 * is copied out once per column: numbers, dates and timestamps as typed arrays, strings as one
 * block of UTF-8 bytes and its offsets (or as JS strings without `arus.columnar.utf8Strings`).
 */
import { BATCH_ROWS } from "../builders.js";
import { asBytes, type Bytes } from "../byte-values.js";
import { Utf8Builder } from "../utf8-builder.js";
import type { JsonRows } from "./json-read.js";
import { JSON_LINES_WASM } from "./wasm/json-lines-wasm.js";

/** Column type codes of json-lines.c. */
export const T_BOOLEAN = 1;
export const T_INT = 2;
export const T_BIGINT = 3;
export const T_DOUBLE = 4;
export const T_STRING = 5;
export const T_TIMESTAMP = 6;
export const T_DATE = 7;
/** Scan outcomes of json-lines.c. */
export const S_FULL = 1;
export const S_FALLBACK = 2;
export const S_NOMEM = 3;

/** The part of the WebAssembly JS API used here (declared, so no DOM/WebAssembly lib is needed to compile). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { readonly exports: unknown };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  readonly memory: { readonly buffer: ArrayBuffer };
  arus_alloc(n: number): number;
  arus_setup(n: number, desc: number, names: number, rows: number, flags: number): number;
  arus_values(i: number): number;
  arus_valid(i: number): number;
  arus_soff(i: number): number;
  arus_text(i: number): number;
  arus_ascii(): number;
  arus_result(): number;
  arus_nulls(): number;
  arus_reset(): void;
  arus_input(n: number): number;
  arus_scan(len: number, from: number, maxRows: number): number;
}

let compiled: object | null = null;

/** The module's memory could not hold what a decode needs: the byte scanner reads that input instead. */
export class WasmOutOfMemory extends Error {}

/**
 * A TIMESTAMP the decoder computed in doubles past ±2^53 µs (after 2255-06-05: ISO text or
 * epoch seconds) may be rounded: the byte scanner, exact there (columnar/int64.ts), reads that
 * input instead.
 */
export class WasmInexact extends Error {}

interface ColumnViews {
  values: Uint8Array | Int32Array | Float64Array;
  valid: Uint8Array;
  /** STRING: row r's text at [offsets[r], offsets[r + 1]) from the column's text address. */
  offsets?: Int32Array;
}

export class WasmDecoder {
  private readonly x: Exports;
  /** The module's memory (a new view after it grew). */
  mem: Bytes;
  private memBuffer: ArrayBuffer;
  private readonly views: ColumnViews[] = [];
  /** Of the last scan: rows in the batch, lines consumed, position reached, status. */
  result!: Int32Array;
  private nulls!: Int32Array;
  private ascii!: Int32Array;
  /** Address and size of the input buffer. */
  inputPtr = 0;
  inputCap = 0;
  busy = false;

  constructor(
    readonly codes: readonly number[],
    names: readonly string[],
    flags: number,
  ) {
    compiled ??= new wasmApi.Module(Buffer.from(JSON_LINES_WASM, "base64"));
    const instance = new wasmApi.Instance(compiled, {
      arus: { number: (ptr: number, len: number) => Number(this.mem.latin1Slice(ptr >>> 0, (ptr >>> 0) + len)) },
    });
    this.x = instance.exports as unknown as Exports;
    const encoded = names.map((n) => Buffer.from(n, "utf8"));
    const nameBytes = encoded.reduce((a, b) => a + b.length, 0);
    // Exports return addresses as i32: `>>> 0` reads those above 2 GiB right.
    const desc = this.x.arus_alloc(8 * codes.length) >>> 0;
    const namePtr = this.x.arus_alloc(nameBytes) >>> 0;
    if (desc === 0 || namePtr === 0) throw new WasmOutOfMemory();
    this.memBuffer = this.x.memory.buffer;
    this.mem = asBytes(new Uint8Array(this.memBuffer));
    const d = new Int32Array(this.memBuffer, desc, 2 * codes.length);
    let at = namePtr;
    codes.forEach((c, i) => {
      d[2 * i] = c;
      d[2 * i + 1] = encoded[i]!.length;
      this.mem.set(encoded[i]!, at);
      at += encoded[i]!.length;
    });
    if (!this.x.arus_setup(codes.length, desc, namePtr, BATCH_ROWS, flags)) throw new WasmOutOfMemory();
    this.refresh();
  }

  /** Views of the module's memory, again after it grew. */
  private refresh(): void {
    const buf = this.x.memory.buffer;
    if (buf === this.memBuffer && this.views.length === this.codes.length && this.result) return;
    this.memBuffer = buf;
    this.mem = asBytes(new Uint8Array(buf));
    this.views.length = 0;
    this.codes.forEach((c, i) => {
      const v = this.x.arus_values(i) >>> 0;
      const values =
        c === T_INT || c === T_DATE
          ? new Int32Array(buf, v, BATCH_ROWS)
          : c === T_BOOLEAN || c === T_STRING
            ? new Uint8Array(buf, v, BATCH_ROWS)
            : new Float64Array(buf, v, BATCH_ROWS);
      const valid = new Uint8Array(buf, this.x.arus_valid(i) >>> 0, BATCH_ROWS);
      this.views.push(
        c === T_STRING ? { values, valid, offsets: new Int32Array(buf, this.x.arus_soff(i) >>> 0, BATCH_ROWS + 1) } : { values, valid },
      );
    });
    this.result = new Int32Array(buf, this.x.arus_result() >>> 0, 4);
    const n = Math.max(1, this.codes.length);
    this.nulls = new Int32Array(buf, this.x.arus_nulls() >>> 0, n);
    this.ascii = new Int32Array(buf, this.x.arus_ascii() >>> 0, n);
  }

  /** An input buffer of at least `n` bytes; `keep` bytes at its start survive a move. */
  reserveInput(n: number, keep = 0): void {
    if (n <= this.inputCap) return;
    const kept = keep > 0 ? Buffer.from(this.mem.subarray(this.inputPtr, this.inputPtr + keep)) : null;
    const ptr = this.x.arus_input(n) >>> 0;
    if (ptr === 0) throw new WasmOutOfMemory();
    this.inputPtr = ptr;
    this.inputCap = n;
    this.refresh();
    if (kept !== null) this.mem.set(kept, ptr);
  }

  /** Drops rows a failed read left in the batch (its error came before they were copied out). */
  reset(): void {
    this.x.arus_reset();
    this.result[0] = 0;
  }

  /** Decodes lines of the input from `from` to `len` into the batch; the status (`result` has the rest). */
  scan(len: number, from: number, maxRows: number): number {
    const status = this.x.arus_scan(len, from, maxRows);
    this.refresh(); // a STRING column's text may have grown the memory
    return status;
  }

  /** Moves the batch's rows to `rows`' builders (`columns[i]` is C column i's) and starts the next. */
  emit(rows: JsonRows, columns: readonly number[]): void {
    const k = this.result[0]!;
    if (k === 0) return;
    const builders = rows.out.columns;
    const mem = this.mem;
    for (let i = 0; i < columns.length; i++) {
      const v = this.views[i]!;
      const valid = this.nulls[i]! > 0 ? v.valid : null;
      const builder = builders[columns[i]!]!;
      if (v.offsets === undefined) {
        if (this.codes[i] === T_TIMESTAMP) checkSafeMicros(v.values as Float64Array, k);
        builder.appendMany(v.values, valid, k);
        continue;
      }
      const text = this.x.arus_text(i) >>> 0;
      const offsets = v.offsets;
      if (builder instanceof Utf8Builder) {
        builder.appendPacked(mem, text, offsets, this.ascii[i] === 1, valid, k);
        continue;
      }
      builder.appendMany(jsStrings(mem, text, offsets, v.values as Uint8Array, valid, k), valid, k);
    }
    if (rows.corruptIdx >= 0) builders[rows.corruptIdx]!.appendMany(new Array<unknown>(k).fill(null), new Uint8Array(k), k);
    rows.out.appended(k);
    this.reset();
  }
}

// emit's per-row loops, each in a function of its own (docs/architecture.md, "Hot path rules"):
// inline, they made emit a hot function recompiled for every new mix of column types.

/** A TIMESTAMP column's k values must be exact doubles (else the JS path decodes the rows). */
function checkSafeMicros(t: Float64Array, k: number): void {
  for (let r = 0; r < k; r++) if (!(t[r]! <= Number.MAX_SAFE_INTEGER && t[r]! >= -Number.MAX_SAFE_INTEGER)) throw new WasmInexact();
}

/** A STRING column's k values as JS strings (NULL as null), from its text at `text` in `mem`. */
function jsStrings(mem: Bytes, text: number, offsets: Int32Array, ascii: Uint8Array, valid: Uint8Array | null, k: number): unknown[] {
  const out = new Array<unknown>(k);
  for (let r = 0; r < k; r++) {
    if (valid !== null && valid[r] === 0) out[r] = null;
    else {
      const a = text + offsets[r]!;
      const b = text + offsets[r + 1]!;
      out[r] = ascii[r] === 1 ? mem.latin1Slice(a, b) : mem.utf8Slice(a, b);
    }
  }
  return out;
}
