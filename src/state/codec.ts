/**
 * The binary format of state files (`<version>.delta`, `<version>.snapshot`), format version 2.
 * Both providers write and read exactly this format, so a checkpoint does not depend on the
 * provider that wrote it.
 *
 * ```
 * header (40 bytes, big-endian)
 *   0  8  magic "ARUSSTAT"
 *   8  2  format version (2)
 *  10  1  kind: 1 = delta, 2 = snapshot
 *  11  1  codec: 0 = none (the only one so far)
 *  12  8  state version this file produces (u64)
 *  20  8  prev: the newest version below this one that had a file when this one was written
 *         (u64; all ones = unknown). Loading checks this chain, so a missing or foreign file
 *         is an error instead of silently lost changes.
 *  28  8  file id (random u64): lets a cache (the lmdb provider) check it saw this very file
 *  36  4  CRC-32 of bytes 0..35
 * chunks, each
 *   u32 payload length (> 0), u32 CRC-32 of the payload, payload
 *   payload = msgpack array [key0, value0, key1, value1, ...]; value null = remove (deltas)
 * end marker
 *   u32 0, u64 total number of records; nothing may follow
 * ```
 * Keys are msgpack strings; a key that is not well-formed UTF-16 (lone surrogates, which UTF-8
 * cannot carry) is written as a Uint16Array of its code units. Values go through msgpackr with
 * records, so plain objects (STRUCT values) come back as objects and Maps (MAP values) as Maps.
 *
 * Format version 1 (one msgpack map `{magic: "arus-state", format: 1, puts, removes}`, written
 * by arus before this format) is still read.
 */
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { addExtension, Packr } from "msgpackr";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import type { StateRow } from "./store.js";

export const STATE_FORMAT_VERSION = 2;
/**
 * Format 3: the same header and chunk framing, with columnar chunks of aggregation state
 * (src/state/columnar/format.ts, written with arus.state.aggregation.columnar=true). Only the
 * columnar store reads those chunks; the row reader here refuses them by name.
 */
export const COLUMNAR_FORMAT_VERSION = 3;
/**
 * Format 4: the same header and framing, with columnar chunks of one side of a stream-stream
 * join (src/state/join/format.ts, written with arus.state.join.columnar=true). The row reader
 * refuses them by name. Still read; no longer written.
 */
export const JOIN_FORMAT_V4 = 4;
/**
 * Format 5: format 4 whose rows chunks may hold their keys as one string joined by U+0001. A
 * new number so that an arus that reads only format 4 refuses these files (by their version)
 * instead of reading that string as per-key fields.
 */
export const JOIN_FORMAT_VERSION = 5;
/** Whether a header's format is one of the columnar join state's (4 or 5). */
export const isJoinFormat = (format: number): boolean => format === JOIN_FORMAT_V4 || format === JOIN_FORMAT_VERSION;
/** The newest format this arus reads. */
export const MAX_STATE_FORMAT = JOIN_FORMAT_VERSION;
export const HEADER_BYTES = 40;
const MAGIC = Buffer.from("ARUSSTAT", "latin1");
const CHUNK_HEAD = 8;
const END_BYTES = 12;
/** Records per chunk: big enough to amortise msgpack call overhead, small enough to stream. */
export const RECORDS_PER_CHUNK = 4096;
/** `prev` of files whose predecessor is not known (format 1). */
export const UNKNOWN_PREV = -1;

export type FileKind = "delta" | "snapshot";
/** One change: a put (value = row) or a remove (value = null). */
export type StateRecord = [key: string, value: StateRow | null];

export interface StateFileHeader {
  format: number;
  kind: FileKind;
  version: number;
  prev: number;
  /** 16 hex digits; "" for format 1. */
  fileId: string;
}

/** Values: plain objects stay objects (records), Maps stay Maps, typed arrays keep their class. */
export const valuePackr = new Packr({ moreTypes: true, useRecords: true, mapsAsObjects: false, structuredClone: false });
/** Format 1 files were written with this configuration. */
const legacyPackr = new Packr({ moreTypes: true, structuredClone: true });

export function encodeValue(row: StateRow): Buffer {
  return valuePackr.pack(keepingNegativeZeros(row));
}

/**
 * -0.0 through a state file: msgpack writes every integral number, -0 too, as the integer 0, so
 * a DOUBLE state value of -0.0 (`min` of a column that holds it) came back as 0.0 after a
 * restart, where Spark keeps its bits. A -0 is written as this extension instead, and read
 * back as -0 by the unpacking itself. (A file holding one cannot be read by an arus from before it.)
 */
class NegativeZero {}
const NEGATIVE_ZERO = new NegativeZero();
addExtension({ Class: NegativeZero, type: 45, pack: () => Buffer.from([0]), unpack: () => -0 });

/** `v` with every -0 inside it (row fields, array elements, struct fields, map values) as NEGATIVE_ZERO; `v` itself when it holds none. */
export function keepingNegativeZeros<T>(v: T): T {
  if (typeof v === "number") return (Object.is(v, -0) ? NEGATIVE_ZERO : v) as T;
  if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const y = typeof x === "number" ? (Object.is(x, -0) ? NEGATIVE_ZERO : x) : typeof x === "object" ? keepingNegativeZeros(x) : x;
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return (out ?? v) as T;
  }
  if (v instanceof Map) {
    let changed = false;
    const out = new Map();
    for (const [k, x] of v) {
      const y = keepingNegativeZeros(x);
      if (y !== x) changed = true;
      out.set(k, y);
    }
    return (changed ? out : v) as T;
  }
  if (v instanceof Date) return v;
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    const y = keepingNegativeZeros(x);
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
  }
  return (out ?? v) as T;
}
export function decodeValue(buf: Uint8Array): StateRow {
  return valuePackr.unpack(buf) as StateRow;
}

const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function";
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** False for strings with lone surrogates (UTF-8 would turn them into U+FFFD). */
export function isWellFormed(s: string): boolean {
  return hasIsWellFormed ? (s as unknown as { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(s);
}

export function encodeKeyField(k: string): string | Uint16Array {
  if (isWellFormed(k)) return k;
  const u = new Uint16Array(k.length);
  for (let i = 0; i < k.length; i++) u[i] = k.charCodeAt(i);
  return u;
}
export function decodeKeyField(k: unknown): string | undefined {
  if (typeof k === "string") return k;
  if (k instanceof Uint16Array) {
    let s = "";
    for (let i = 0; i < k.length; i += 8192) s += String.fromCharCode(...k.subarray(i, i + 8192));
    return s;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------
// CRC-32 (zlib.crc32 exists from Node 20.15; a table fallback for older 20.x)

const zlibCrc = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
let table: Int32Array | null = null;
function crcTable(): Int32Array {
  if (table) return table;
  table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}
export function crc32(data: Uint8Array): number {
  if (zlibCrc) return zlibCrc(data) >>> 0;
  const t = crcTable();
  let c = -1;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

// ------------------------------------------------------------------------------------------
// Writing

function writeU64(buf: Buffer, off: number, v: number): void {
  if (v < 0) {
    buf.writeUInt32BE(0xffffffff, off);
    buf.writeUInt32BE(0xffffffff, off + 4);
    return;
  }
  buf.writeUInt32BE(Math.floor(v / 0x100000000), off);
  buf.writeUInt32BE(v >>> 0, off + 4);
}
function readU64(buf: Uint8Array, off: number): number {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const hi = b.readUInt32BE(off);
  const lo = b.readUInt32BE(off + 4);
  if (hi === 0xffffffff && lo === 0xffffffff) return UNKNOWN_PREV;
  return hi * 0x100000000 + lo;
}

export function newFileId(): string {
  return randomBytes(8).toString("hex");
}

export function encodeHeader(kind: FileKind, version: number, prev: number, fileId: string, format = STATE_FORMAT_VERSION): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(h, 0);
  h.writeUInt16BE(format, 8);
  h.writeUInt8(kind === "delta" ? 1 : 2, 10);
  h.writeUInt8(0, 11);
  writeU64(h, 12, version);
  writeU64(h, 20, prev);
  Buffer.from(fileId, "hex").copy(h, 28);
  h.writeUInt32BE(crc32(h.subarray(0, 36)), 36);
  return h;
}

/** One chunk on disk: payload length, CRC-32 of the payload, the payload. */
export function frameChunk(payload: Uint8Array): Buffer {
  const head = Buffer.alloc(CHUNK_HEAD);
  head.writeUInt32BE(payload.length, 0);
  head.writeUInt32BE(crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

/** The end marker: a zero length, then the number of records the file holds. */
export function endMarker(total: number): Buffer {
  const end = Buffer.alloc(END_BYTES);
  writeU64(end, 4, total);
  return end;
}

function encodeChunk(flat: unknown[]): Buffer {
  return frameChunk(valuePackr.pack(flat));
}

/**
 * The bytes of a state file, produced lazily (one chunk at a time) so a caller can stream a
 * snapshot of any size to disk.
 */
export function* encodeStateFile(
  kind: FileKind,
  version: number,
  prev: number,
  fileId: string,
  records: Iterable<StateRecord>,
): Generator<Buffer> {
  yield encodeHeader(kind, version, prev, fileId);
  let flat: unknown[] = [];
  let total = 0;
  for (const [k, v] of records) {
    flat.push(encodeKeyField(k), v === null ? v : keepingNegativeZeros(v));
    total++;
    if (flat.length >= 2 * RECORDS_PER_CHUNK) {
      yield encodeChunk(flat);
      flat = [];
    }
  }
  if (flat.length) yield encodeChunk(flat);
  yield endMarker(total);
}

// ------------------------------------------------------------------------------------------
// Reading

/** Random access to a file's bytes: a whole buffer, or an open file handle. */
export interface ByteSource {
  readonly size: number;
  read(pos: number, len: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function bufferSource(buf: Uint8Array): ByteSource {
  return { size: buf.length, read: async (pos, len) => buf.subarray(pos, pos + len), close: async () => {} };
}

/** Format-2 files start with the magic; anything else non-empty may be a format-1 file (one msgpack value). */
export function isLegacy(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  const n = Math.min(head.length, MAGIC.length);
  return !Buffer.from(head.buffer, head.byteOffset, n).equals(MAGIC.subarray(0, n));
}

/** Parse and check a format-2 header; `file` names the file in errors. */
export function decodeHeader(h: Uint8Array, file: string, fileSize: number): StateFileHeader {
  if (fileSize === 0) throw new CheckpointCorruptError(file, "the file is empty");
  if (h.length < HEADER_BYTES || fileSize < HEADER_BYTES) {
    if (h.length >= 8 && Buffer.from(h.buffer, h.byteOffset, 8).equals(MAGIC))
      throw new CheckpointCorruptError(file, "it is truncated (the header is incomplete)");
    throw new CheckpointCorruptError(file, "it is not an arus state file (too short for a header)");
  }
  const b = Buffer.from(h.buffer, h.byteOffset, HEADER_BYTES);
  if (!b.subarray(0, 8).equals(MAGIC)) throw new CheckpointCorruptError(file, "it is not an arus state file (bad magic bytes)");
  const format = b.readUInt16BE(8);
  if (format > MAX_STATE_FORMAT) {
    throw new CheckpointCorruptError(
      file,
      `it was written by a newer state format (v${format}; this arus reads up to v${MAX_STATE_FORMAT})`,
    );
  }
  if (crc32(b.subarray(0, 36)) !== b.readUInt32BE(36))
    throw new CheckpointCorruptError(file, "its header fails the checksum (the file is corrupt)");
  if (format !== STATE_FORMAT_VERSION && format !== COLUMNAR_FORMAT_VERSION && !isJoinFormat(format))
    throw new CheckpointCorruptError(file, `unknown state format v${format}`);
  const kindByte = b.readUInt8(10);
  if (kindByte !== 1 && kindByte !== 2) throw new CheckpointCorruptError(file, `unknown file kind ${kindByte}`);
  const codec = b.readUInt8(11);
  if (codec !== 0) throw new CheckpointCorruptError(file, `unknown compression codec ${codec}`);
  return {
    format,
    kind: kindByte === 1 ? "delta" : "snapshot",
    version: readU64(b, 12),
    prev: readU64(b, 20),
    fileId: b.subarray(28, 36).toString("hex"),
  };
}

/** Read only the header of a state file (format 1: a header with unknown prev). */
export async function readHeader(src: ByteSource, file: string): Promise<StateFileHeader> {
  const h = await src.read(0, Math.min(HEADER_BYTES, src.size));
  if (isLegacy(h)) {
    const legacy = await readLegacy(src, file);
    return legacy.header;
  }
  return decodeHeader(h, file, src.size);
}

interface LegacyFile {
  magic: string;
  format: number;
  puts: [string, StateRow][];
  removes: string[];
}

async function readLegacy(src: ByteSource, file: string): Promise<{ header: StateFileHeader; records: StateRecord[] }> {
  const buf = await src.read(0, src.size);
  let f: LegacyFile | undefined;
  try {
    f = legacyPackr.unpack(buf) as LegacyFile;
  } catch {
    f = undefined;
  }
  if (!f || typeof f !== "object" || f.magic !== "arus-state" || !Array.isArray(f.puts) || !Array.isArray(f.removes)) {
    throw new CheckpointCorruptError(file, "it is not an arus state file (no magic bytes, and not a format-1 file either)");
  }
  if (f.format !== 1) throw new CheckpointCorruptError(file, `unexpected legacy state format v${f.format}`);
  const records: StateRecord[] = f.puts.map(([k, v]) => [k, v] as StateRecord);
  for (const k of f.removes) records.push([k, null]);
  const kind: FileKind = /\.snapshot$/.test(file) ? "snapshot" : "delta";
  const version = Number(/(\d+)\.(delta|snapshot)$/.exec(file)?.[1] ?? -1);
  return { header: { format: 1, kind, version, prev: UNKNOWN_PREV, fileId: "" }, records };
}

/**
 * Read a state file: the header, then its records a chunk at a time. Any damage (truncation,
 * checksum mismatch, undecodable chunk, trailing bytes, record count mismatch) is a
 * CheckpointCorruptError naming the file.
 */
export async function* readStateFile(
  src: ByteSource,
  file: string,
  onHeader?: (h: StateFileHeader) => void,
): AsyncGenerator<StateRecord[]> {
  const first = await src.read(0, Math.min(HEADER_BYTES, src.size));
  if (isLegacy(first)) {
    const legacy = await readLegacy(src, file);
    onHeader?.(legacy.header);
    yield legacy.records;
    return;
  }
  const header = decodeHeader(first, file, src.size);
  if (header.format === COLUMNAR_FORMAT_VERSION) {
    throw new CheckpointCorruptError(
      file,
      "it holds columnar aggregation state (format v3, written with arus.state.aggregation.columnar=true), which the row state store cannot read",
    );
  }
  if (isJoinFormat(header.format)) {
    throw new CheckpointCorruptError(
      file,
      `it holds columnar join state (format v${header.format}, written with arus.state.join.columnar=true), which the row state store cannot read`,
    );
  }
  onHeader?.(header);
  let total = 0;
  for await (const chunk of readFramedChunks(
    src,
    file,
    HEADER_BYTES,
    (p) => valuePackr.unpack(p),
    () => total,
  )) {
    const { pos, value: flat } = chunk;
    if (!Array.isArray(flat) || flat.length % 2 !== 0)
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} is not a list of records`);
    const records: StateRecord[] = new Array(flat.length / 2);
    for (let i = 0, j = 0; i < flat.length; i += 2, j++) {
      const k = decodeKeyField(flat[i]);
      const v = flat[i + 1];
      if (k === undefined || (v !== null && !Array.isArray(v)))
        throw new CheckpointCorruptError(file, `the chunk at byte ${pos} holds a malformed record`);
      if (v === null && header.kind === "snapshot") throw new CheckpointCorruptError(file, "a snapshot holds a remove record");
      records[j] = [k, v as StateRow | null];
    }
    total += records.length;
    yield records;
  }
}

/** A decoded chunk at byte `pos`. */
export interface FramedChunk {
  readonly pos: number;
  readonly value: unknown;
}

/**
 * Walk a state file's chunks from `start`: lengths, truncation, checksums, the trailing end
 * marker and its record count (against `recordsRead()`, the records the caller took from the
 * chunks) are checked here, so every state format reports damage the same way, naming the file.
 */
export async function* readFramedChunks(
  src: ByteSource,
  file: string,
  start: number,
  unpack: (payload: Uint8Array) => unknown,
  recordsRead: () => number,
): AsyncGenerator<FramedChunk> {
  let pos = start;
  for (;;) {
    if (pos + 4 > src.size) throw new CheckpointCorruptError(file, `it is truncated (ends at byte ${src.size} without the end marker)`);
    const head = Buffer.from(await src.read(pos, Math.min(CHUNK_HEAD, src.size - pos)));
    const len = head.readUInt32BE(0);
    if (len === 0) {
      if (pos + END_BYTES > src.size) throw new CheckpointCorruptError(file, "it is truncated (the end marker is incomplete)");
      const declared = readU64(await src.read(pos, END_BYTES), 4);
      if (declared !== recordsRead())
        throw new CheckpointCorruptError(file, `it should hold ${declared} records but holds ${recordsRead()} (the file is corrupt)`);
      if (pos + END_BYTES !== src.size)
        throw new CheckpointCorruptError(file, `it has ${src.size - pos - END_BYTES} unexpected bytes after the end marker`);
      return;
    }
    if (head.length < CHUNK_HEAD || pos + CHUNK_HEAD + len > src.size) {
      throw new CheckpointCorruptError(file, `it is truncated (a chunk at byte ${pos} runs past the end of the file)`);
    }
    const payload = await src.read(pos + CHUNK_HEAD, len);
    if (crc32(payload) !== head.readUInt32BE(4))
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} fails its checksum (the file is corrupt)`);
    let value: unknown;
    try {
      value = unpack(payload);
    } catch (e) {
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} cannot be decoded (${(e as Error).message})`);
    }
    yield { pos, value };
    pos += CHUNK_HEAD + len;
  }
}
