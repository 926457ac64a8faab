/**
 * JSON lines through the WebAssembly decoder (wasm/json-lines.c). The input is copied into the
 * module's memory a window of whole lines at a time; one call decodes lines into per-column
 * buffers there until a batch is full or a line needs the JS path. Numbers, booleans, dates
 * and timestamps are read as typed-array views of those buffers and appended to the column
 * builders in one copy; strings arrive as UTF-8 byte ranges and become JS strings here, or, with
 * `arus.columnar.utf8Strings`, are copied as bytes into UTF-8 STRING vectors (columnar/utf8.ts). A line the decoder does not fully understand
 * goes to `JsonRows.parseLine` (JSON.parse), exactly as the byte scanner's fallback does, so
 * the rows equal the byte scanner's (test/connectors/json-scan.property.test.ts runs both).
 */
import type { Batch } from "../../../columnar/batch.js";
import { utf8Strings } from "../../../columnar/utf8-conf.js";
import { physicalOf } from "../../../columnar/vector.js";
import type { DataType, StructType } from "../../../types/datatypes.js";
import { BATCH_ROWS, type ColumnBuilder } from "../builders.js";
import { asBytes, type Bytes } from "../byte-values.js";
import { Utf8Builder } from "../utf8-builder.js";
import { type JsonReadSettings, JsonRows } from "./json-read.js";
import { JSON_LINES_WASM } from "./wasm/json-lines-wasm.js";

/** Column type codes of json-lines.c. */
const T_BOOLEAN = 1;
const T_INT = 2;
const T_BIGINT = 3;
const T_DOUBLE = 4;
const T_STRING = 5;
const T_TIMESTAMP = 6;
const T_DATE = 7;
const F_FAST_TIMESTAMPS = 1;
const F_FAST_DATES = 2;
const S_FALLBACK = 2;

/** Input bytes copied into WASM memory per window (a longer line gets a window of its own). */
let WINDOW = 4 << 20;

/** Sets the window size (tests use tiny windows to cross their boundaries); returns the old one. */
export function setWasmWindow(bytes: number): number {
  const old = WINDOW;
  WINDOW = Math.max(1, Math.floor(bytes));
  return old;
}

/** What the WASM decoder did on this thread: rows it decoded, lines it left to the JS path. */
export const wasmJsonCounters = { rows: 0, fallbackLines: 0 };

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
  arus_sbeg(i: number): number;
  arus_send(i: number): number;
  arus_result(): number;
  arus_pack(i: number, k: number): number;
  arus_pack_offsets(i: number): number;
  arus_nulls(): number;
  arus_input(n: number): number;
  arus_scan(len: number, from: number, maxRows: number): number;
}

/** The C type code of a column, or 0 when the decoder does not handle its type. */
function typeCode(t: DataType): number {
  const p = physicalOf(t);
  switch (t.kind) {
    case "boolean":
      return p === "u8" ? T_BOOLEAN : 0;
    case "int":
      return p === "i32" ? T_INT : 0;
    case "date":
      return p === "i32" ? T_DATE : 0;
    case "bigint":
      return p === "f64" ? T_BIGINT : 0;
    case "double":
      return p === "f64" ? T_DOUBLE : 0;
    case "timestamp":
      return p === "f64" ? T_TIMESTAMP : 0;
    case "string":
      return T_STRING;
    default:
      return 0;
  }
}

let compiled: object | null = null;

/** The module's memory could not hold what a decode needs: the byte scanner reads that input instead. */
class WasmOutOfMemory extends Error {}

/**
 * A TIMESTAMP the decoder computed in doubles past ±2^53 µs (after 2255-06-05: ISO text or
 * epoch seconds) may be rounded: the byte scanner, exact there (columnar/int64.ts), reads that
 * input instead.
 */
class WasmInexact extends Error {}

/** One instance set up for one schema: its column buffers and views of them. */
class Decoder {
  private readonly x: Exports;
  private mem: Bytes;
  private memBuffer: ArrayBuffer;
  private readonly views: { values: Uint8Array | Int32Array | Float64Array; valid: Uint8Array; beg?: Uint32Array; end?: Uint32Array }[] =
    [];
  private result!: Int32Array;
  private nulls!: Int32Array;
  private inputPtr = 0;
  /** Bytes the input buffer holds (a memory grown for one huge line is not kept: see readJsonWasm). */
  inputCap = 0;
  busy = false;

  constructor(
    readonly key: string,
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
        c === T_STRING
          ? {
              values,
              valid,
              beg: new Uint32Array(buf, this.x.arus_sbeg(i) >>> 0, BATCH_ROWS),
              end: new Uint32Array(buf, this.x.arus_send(i) >>> 0, BATCH_ROWS),
            }
          : { values, valid },
      );
    });
    this.result = new Int32Array(buf, this.x.arus_result() >>> 0, 4);
    this.nulls = new Int32Array(buf, this.x.arus_nulls() >>> 0, Math.max(1, this.codes.length));
  }

  /** Packs the UTF-8 STRING columns' rows (arus_pack): the address per C column (0: not one), or null when none is. */
  private pack(builders: readonly ColumnBuilder[], columns: readonly number[], k: number): number[] | null {
    let packed: number[] | null = null;
    for (let i = 0; i < columns.length; i++) {
      if (this.codes[i] !== T_STRING || !(builders[columns[i]!] instanceof Utf8Builder)) continue;
      packed ??= new Array<number>(columns.length).fill(0);
      const ptr = this.x.arus_pack(i, k) >>> 0;
      if (ptr === 0) throw new WasmOutOfMemory();
      packed[i] = ptr;
    }
    if (packed !== null) this.refresh();
    return packed;
  }

  /** Copies `bytes` into the module's input buffer. */
  load(bytes: Uint8Array): void {
    if (bytes.length > this.inputCap) {
      const ptr = this.x.arus_input(bytes.length) >>> 0;
      if (ptr === 0) throw new WasmOutOfMemory();
      this.inputPtr = ptr;
      this.inputCap = bytes.length;
      this.refresh();
    }
    this.mem.set(bytes, this.inputPtr);
  }

  /** Decodes from `from` in the loaded input; returns [rows, lines, position, status]. */
  scan(len: number, from: number, maxRows: number): Int32Array {
    this.x.arus_scan(len, from, maxRows);
    return this.result;
  }

  /** Appends the `k` rows of the last scan to `rows`' builders (`columns[i]` is C column i's). */
  emit(rows: JsonRows, columns: readonly number[], corruptIdx: number, k: number): void {
    const builders = rows.out.columns;
    // UTF-8 STRING columns: packed in WASM first (packing may grow the memory, so before any view is read)
    const packed = this.pack(builders, columns, k);
    const mem = this.mem;
    for (let i = 0; i < columns.length; i++) {
      const v = this.views[i]!;
      const valid = this.nulls[i]! > 0 ? v.valid : null;
      if (v.beg === undefined) {
        if (this.codes[i] === T_TIMESTAMP) {
          const t = v.values as Float64Array;
          for (let r = 0; r < k; r++) if (!(t[r]! <= Number.MAX_SAFE_INTEGER && t[r]! >= -Number.MAX_SAFE_INTEGER)) throw new WasmInexact();
        }
        builders[columns[i]!]!.appendMany(v.values, valid, k);
        continue;
      }
      const beg = v.beg;
      const end = v.end!;
      const ascii = v.values as Uint8Array;
      const builder = builders[columns[i]!]!;
      if (packed !== null && packed[i]! !== 0) {
        const offsets = new Int32Array(this.memBuffer, this.x.arus_pack_offsets(i) >>> 0, k + 1);
        (builder as Utf8Builder).appendPacked(mem, packed[i]!, offsets, ascii, valid, k);
        continue;
      }
      const out = new Array<unknown>(k);
      for (let r = 0; r < k; r++) {
        if (valid !== null && valid[r] === 0) out[r] = null;
        else out[r] = ascii[r] === 1 ? mem.latin1Slice(beg[r]!, end[r]!) : mem.utf8Slice(beg[r]!, end[r]!);
      }
      builder.appendMany(out, valid, k);
    }
    if (corruptIdx >= 0) {
      const none = new Uint8Array(k);
      builders[corruptIdx]!.appendMany(new Array<unknown>(k).fill(null), none, k);
    }
    rows.out.appended(k);
  }
}

/** Instances of this thread, by schema and flags (usually one: a query reads one schema). */
const decoders = new Map<string, Decoder>();
const MAX_DECODERS = 4;

function decoderFor(key: string, codes: number[], names: string[], flags: number): Decoder {
  let d = decoders.get(key);
  if (d === undefined || d.busy) {
    d = new Decoder(key, codes, names, flags);
    if (decoders.size >= MAX_DECODERS) decoders.delete(decoders.keys().next().value!);
    decoders.set(key, d);
  }
  return d;
}

/**
 * `readJsonBytes` through the WASM decoder; null when the schema has a column type it does not
 * decode or the module's memory cannot hold the input's longest line (the caller then runs the
 * byte scanner). The caller has already sent custom line separators and lone `\r` line ends to
 * the text path.
 */
export function readJsonWasm(
  file: string,
  input: Uint8Array,
  schema: StructType,
  s: JsonReadSettings,
  atFileStart: boolean,
): Batch[] | null {
  const rows = new JsonRows(file, schema, s, utf8Strings());
  const codes: number[] = [];
  const names: string[] = [];
  const columns: number[] = [];
  for (let i = 0; i < schema.fields.length; i++) {
    if (i === rows.corruptIdx) continue;
    const f = schema.fields[i]!;
    const code = typeCode(f.type);
    // U+FFFD in a name could match a key with invalid UTF-8 after decoding: the byte scanner decides.
    if (code === 0 || f.name.includes("\uFFFD")) return null;
    if (names.includes(f.name)) return null; // the same name twice: the byte scanner's rules decide
    codes.push(code);
    names.push(f.name);
    columns.push(i);
  }
  const flags = (s.dateTime.customTimestampFormat ? 0 : F_FAST_TIMESTAMPS) | (s.dateTime.customDateFormat ? 0 : F_FAST_DATES);
  const key = JSON.stringify([flags, codes, names]);
  let d: Decoder;
  try {
    d = decoderFor(key, codes, names, flags);
  } catch (e) {
    if (e instanceof WasmOutOfMemory || e instanceof RangeError) return null;
    throw e;
  }
  d.busy = true;
  try {
    decodeAll(d, asBytes(input), rows, columns, atFileStart);
  } catch (e) {
    if (e instanceof WasmInexact) return null;
    if (!(e instanceof WasmOutOfMemory)) throw e;
    decoders.delete(key); // its memory stays as large as it grew
    return null;
  } finally {
    d.busy = false;
  }
  if (d.inputCap > 2 * WINDOW) decoders.delete(key); // WASM memory never shrinks: drop what one huge line grew
  return rows.finish();
}

function decodeAll(d: Decoder, buf: Bytes, rows: JsonRows, columns: readonly number[], atFileStart: boolean): void {
  const n = buf.length;
  let pos = atFileStart && n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0; // UTF-8 BOM
  let lineNo = 0;
  while (pos < n) {
    // A window of whole lines: up to the last `\n` before pos + WINDOW, or one longer line.
    let stop = n;
    if (pos + WINDOW < n) {
      const nl = buf.lastIndexOf(0x0a, pos + WINDOW - 1);
      const after = nl >= pos ? nl : buf.indexOf(0x0a, pos + WINDOW);
      stop = after < 0 ? n : after + 1;
    }
    const len = stop - pos;
    d.load(buf.subarray(pos, stop));
    let at = 0;
    while (at < len) {
      const [k, lines, next, status] = d.scan(len, at, BATCH_ROWS - rows.out.pending);
      if (k! > 0) {
        d.emit(rows, columns, rows.corruptIdx, k!);
        wasmJsonCounters.rows += k!;
      }
      lineNo += lines!;
      at = next!;
      if (status === S_FALLBACK) {
        // The line at `at` takes the JS path, as the byte scanner's fallback does.
        const from = pos + at;
        let end = buf.indexOf(0x0a, from);
        if (end < 0 || end > stop) end = stop;
        const lineStop = end > from && buf[end - 1] === 0x0d ? end - 1 : end;
        lineNo++;
        wasmJsonCounters.fallbackLines++;
        rows.scratch.fill(null);
        rows.parseLine(buf.toString("utf8", from, lineStop), lineNo);
        at = end + 1 - pos;
      }
    }
    pos = stop;
  }
}
