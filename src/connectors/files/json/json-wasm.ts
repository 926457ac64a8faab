/**
 * JSON lines through the WebAssembly decoder (wasm-decoder.ts, wasm/json-lines.c). The input
 * goes into the module's memory a window of whole lines at a time — a decode thread's range is
 * read from the file straight into it (line-range.ts `RangeReader`), bytes already in memory are
 * copied in — and one call decodes lines into the batch being built there until the batch is
 * full, the window ends or a line needs the JS path. Such a line goes to `JsonRows.parseLine`
 * (JSON.parse), exactly as the byte scanner's fallback does, so the rows equal the byte
 * scanner's (test/connectors/json-scan.property.test.ts runs both).
 */
import type { Batch } from "../../../columnar/batch.js";
import { utf8Strings } from "../../../columnar/utf8-conf.js";
import { physicalOf } from "../../../columnar/vector.js";
import type { DataType, StructType } from "../../../types/datatypes.js";
import { BATCH_ROWS } from "../builders.js";
import { RangeReader } from "../line-range.js";
import { type JsonReadSettings, JsonRows } from "./json-read.js";
import {
  S_FALLBACK,
  S_FULL,
  S_NOMEM,
  T_BIGINT,
  T_BOOLEAN,
  T_DATE,
  T_DOUBLE,
  T_INT,
  T_STRING,
  T_TIMESTAMP,
  WasmDecoder,
  WasmInexact,
  WasmOutOfMemory,
} from "./wasm-decoder.js";

const F_FAST_TIMESTAMPS = 1;
const F_FAST_DATES = 2;
const NEWLINE = 0x0a;
const CR = 0x0d;

/** Input bytes per window (a longer line gets a window of its own). Small enough to stay in cache between the read and the scan. */
let WINDOW = 1 << 20;

/** Sets the window size (tests use tiny windows to cross their boundaries); returns the old one. */
export function setWasmWindow(bytes: number): number {
  const old = WINDOW;
  WINDOW = Math.max(1, Math.floor(bytes));
  return old;
}

/** What the WASM decoder did on this thread: rows it decoded, lines it left to the JS path. */
export const wasmJsonCounters = { rows: 0, fallbackLines: 0 };

/** The input has a `\r` not followed by `\n`, a line end for Hadoop's reader: the caller takes the text path. */
export const LONE_CR = "loneCR";

class LoneCarriageReturn extends Error {}

/** Where input comes from: `read` puts its next bytes at `dst[at...]`, fewer than `n` only at its end. */
interface Source {
  read(dst: Uint8Array, at: number, n: number): number;
}

class BytesSource implements Source {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  read(dst: Uint8Array, at: number, n: number): number {
    const k = Math.min(n, this.bytes.length - this.pos);
    dst.set(this.bytes.subarray(this.pos, this.pos + k), at);
    this.pos += k;
    return k;
  }
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

/** Instances of this thread, by schema and flags (usually one: a query reads one schema). */
const decoders = new Map<string, WasmDecoder>();
const MAX_DECODERS = 4;

function decoderFor(key: string, codes: number[], names: string[], flags: number): WasmDecoder {
  let d = decoders.get(key);
  if (d === undefined || d.busy) {
    d = new WasmDecoder(codes, names, flags);
    if (decoders.size >= MAX_DECODERS) decoders.delete(decoders.keys().next().value!);
    decoders.set(key, d);
  }
  return d;
}

/** What a read needs: the rows, the decoder for the schema and the schema column of each C column. */
interface Setup {
  rows: JsonRows;
  d: WasmDecoder;
  key: string;
  columns: number[];
}

/** Null when the schema has a column the decoder does not decode or no instance can be made. */
function setup(file: string, schema: StructType, s: JsonReadSettings): Setup | null {
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
  try {
    return { rows, d: decoderFor(key, codes, names, flags), key, columns };
  } catch (e) {
    if (e instanceof WasmOutOfMemory || e instanceof RangeError) return null;
    throw e;
  }
}

/** Decodes all of `src`; null when the byte scanner must read it instead, LONE_CR for the text path. */
function run(u: Setup, src: Source, atFileStart: boolean): Batch[] | null | typeof LONE_CR {
  const { d, key } = u;
  d.busy = true;
  d.reset();
  try {
    decodeStream(d, src, u.rows, u.columns, atFileStart);
  } catch (e) {
    if (e instanceof LoneCarriageReturn) return LONE_CR;
    if (e instanceof WasmInexact) return null;
    if (!(e instanceof WasmOutOfMemory)) throw e;
    decoders.delete(key); // its memory stays as large as it grew
    return null;
  } finally {
    d.busy = false;
  }
  if (d.inputCap > 2 * WINDOW) decoders.delete(key); // WASM memory never shrinks: drop what one huge line grew
  return u.rows.finish();
}

/**
 * `readJsonBytes` through the WASM decoder; null when the schema has a column type it does not
 * decode or the module's memory cannot hold the input's longest line (the caller then runs the
 * byte scanner), LONE_CR when a line ends at a lone `\r`. The caller has already sent custom
 * line separators to the text path.
 */
export function readJsonWasm(
  file: string,
  input: Uint8Array,
  schema: StructType,
  s: JsonReadSettings,
  atFileStart: boolean,
): Batch[] | null | typeof LONE_CR {
  const u = setup(file, schema, s);
  return u === null ? null : run(u, new BytesSource(input), atFileStart);
}

/** `readJsonWasm` of the lines of `file` that start in `[start, end)` (line-range.ts), read into the module's memory. */
export function readJsonWasmRange(
  file: string,
  start: number,
  end: number,
  size: number,
  schema: StructType,
  s: JsonReadSettings,
): Batch[] | null | typeof LONE_CR {
  const u = setup(file, schema, s);
  if (u === null) return null;
  const reader = new RangeReader(file, start, end, size);
  try {
    return run(u, reader, reader.atFileStart);
  } finally {
    reader.close();
  }
}

function decodeStream(d: WasmDecoder, src: Source, rows: JsonRows, columns: readonly number[], atFileStart: boolean): void {
  d.reserveInput(Math.max(WINDOW, 3)); // room for a BOM in the first read
  let have = 0; // bytes in the input buffer
  let pos = 0; // where its next line starts
  let eof = false;
  let lineNo = 0;
  for (let first = true; ; first = false) {
    if (!eof) {
      const want = d.inputCap - have;
      const k = src.read(d.mem, d.inputPtr + have, want);
      have += k;
      eof = k < want;
    }
    const mem = d.mem;
    const base = d.inputPtr;
    if (first && atFileStart && have >= 3 && mem[base] === 0xef && mem[base + 1] === 0xbb && mem[base + 2] === 0xbf) pos = 3; // UTF-8 BOM
    // A window of whole lines: up to the last `\n` read, or everything at the end.
    let stop = have;
    if (!eof) {
      const nl = mem.subarray(base + pos, base + have).lastIndexOf(NEWLINE);
      if (nl < 0) {
        d.reserveInput(2 * d.inputCap, have); // a line longer than the buffer
        continue;
      }
      stop = pos + nl + 1;
    }
    lineNo = scanWindow(d, rows, columns, pos, stop, lineNo);
    if (eof) break;
    d.mem.copyWithin(base, base + stop, base + have); // the start of the next line
    have -= stop;
    pos = 0;
  }
  emit(d, rows, columns);
}

function emit(d: WasmDecoder, rows: JsonRows, columns: readonly number[]): void {
  wasmJsonCounters.rows += d.result[0]!;
  d.emit(rows, columns);
}

/** Lines of the input buffer's `[from, stop)` into `rows`; returns the line count so far. */
function scanWindow(d: WasmDecoder, rows: JsonRows, columns: readonly number[], from: number, stop: number, lineNo: number): number {
  let at = from;
  while (at < stop) {
    const status = d.scan(stop, at, BATCH_ROWS - rows.out.pending);
    const result = d.result;
    lineNo += result[1]!;
    at = result[2]!;
    if (status === S_NOMEM) throw new WasmOutOfMemory();
    if (status === S_FULL) emit(d, rows, columns);
    else if (status === S_FALLBACK) {
      emit(d, rows, columns); // the rows before the line first
      at = fallbackLine(d, rows, at, stop, ++lineNo);
    }
  }
  return lineNo;
}

/** The line at `at` through the JS path, as the byte scanner's fallback does; returns where the next line starts. */
function fallbackLine(d: WasmDecoder, rows: JsonRows, at: number, stop: number, lineNo: number): number {
  const mem = d.mem;
  const base = d.inputPtr;
  const from = base + at;
  const limit = base + stop;
  const nl = mem.subarray(from, limit).indexOf(NEWLINE);
  const end = nl < 0 ? limit : from + nl;
  // The decoder does not skip a lone `\r` as whitespace, so any one lands here.
  for (let i = mem.subarray(from, end).indexOf(CR); i >= 0; i = mem.subarray(from, end).indexOf(CR, i + 1))
    if (from + i + 1 >= limit || mem[from + i + 1] !== NEWLINE) throw new LoneCarriageReturn();
  const lineStop = end > from && mem[end - 1] === CR ? end - 1 : end;
  wasmJsonCounters.fallbackLines++;
  rows.scratch.fill(null);
  rows.parseLine(mem.toString("utf8", from, lineStop), lineNo);
  return end + 1 - base;
}
