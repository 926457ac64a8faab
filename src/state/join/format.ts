/**
 * State file format 5 (format 4 read too): one side of a stream-stream join in one partition, columnar
 * (docs/state.md, "Columnar join state"). The header (codec.ts, format field 5), chunk framing
 * and end marker are format 2's, so `files.ts` plans, supersedes and retains these files as it
 * does row files. Chunk payloads (msgpack, the row store's packer: typed arrays as raw bytes,
 * other values as the row store writes them):
 *
 *   [0, nextSeq, signature]   first chunk of every file: the partition's next sequence number,
 *                             and the side's column types (state of another shape is refused)
 *   [1, n, seqs, keys, keyTimes, matched, [columns]]   rows appended (a snapshot: every row);
 *                             keys: one string, the keys joined by U+0001, or (when a key is
 *                             not well-formed UTF-16; always in format 4) one field per key
 *   [2, n, seqs]              older rows whose matched flag was set (deltas only)
 *   [3, n, seqs]              older rows removed (deltas only)
 *
 * A delta lists flags, then removes, then appends; rows appended and removed in one batch are
 * not written. Columns are columns.ts's `encode`. Up to 16 384 rows a chunk.
 */
import { CheckpointCorruptError } from "../../checkpoint/metadata-log.js";
import {
  type ByteSource,
  decodeHeader,
  decodeKeyField,
  encodeHeader,
  encodeKeyField,
  endMarker,
  type FileKind,
  frameChunk,
  HEADER_BYTES,
  isJoinFormat,
  isLegacy,
  isWellFormed,
  JOIN_FORMAT_VERSION,
  readFramedChunks,
  type StateFileHeader,
  valuePackr,
} from "../codec.js";
import { decodeColumn } from "./columns.js";

export const ROWS_PER_CHUNK = 16_384;
const TAG_META = 0;
const TAG_ROWS = 1;
const TAG_FLAGS = 2;
const TAG_REMOVES = 3;

/** Rows as a file carries them; `value(c, j)` reads column c of row j. */
export interface JoinRowsChunk {
  readonly kind: "rows";
  readonly n: number;
  readonly seqs: Float64Array;
  readonly keys: string[];
  readonly keyTimes: Float64Array;
  readonly matched: Uint8Array;
  readonly columns: ((j: number) => unknown)[];
}
export interface JoinRefsChunk {
  readonly kind: "flags" | "removes";
  readonly n: number;
  readonly seqs: Float64Array;
}
export type JoinChunk = JoinRowsChunk | JoinRefsChunk;

/** What a file writer needs from the table: rows by id. */
export interface JoinRowSource {
  seqOf(r: number): number;
  keyOf(r: number): string;
  keyTimeOf(r: number): number;
  matchedOf(r: number): boolean;
  encodeColumns(ids: readonly number[]): unknown[];
}

export interface JoinFileContent {
  readonly nextSeq: number;
  readonly flags?: readonly number[];
  readonly removes?: readonly number[];
  readonly rows: readonly number[];
}

function* refChunks(tag: number, ids: readonly number[], src: JoinRowSource): Generator<Buffer> {
  for (let o = 0; o < ids.length; o += ROWS_PER_CHUNK) {
    const n = Math.min(ROWS_PER_CHUNK, ids.length - o);
    const seqs = new Float64Array(n);
    for (let j = 0; j < n; j++) seqs[j] = src.seqOf(ids[o + j]!);
    yield frameChunk(valuePackr.pack([tag, n, seqs]));
  }
}

/**
 * Join keys are JSON (or a fixed marker), which never holds this character: a chunk's keys go
 * as one string joined by it (one UTF-8 write instead of one per key).
 */
const KEY_SEP = "\u0001";

/** A chunk's keys as one joined string, or (a key not well-formed UTF-16, or holding KEY_SEP) one field per key. */
function packKeys(keys: readonly string[]): string | (string | Uint16Array)[] {
  const joined = keys.join(KEY_SEP);
  // Exactly keys.length - 1 separators: no key holds one. (A lone surrogate stays lone when joined.)
  let seps = 0;
  for (let at = joined.indexOf(KEY_SEP); at >= 0 && seps < keys.length; at = joined.indexOf(KEY_SEP, at + 1)) seps++;
  return seps === keys.length - 1 && isWellFormed(joined) ? joined : keys.map(encodeKeyField);
}

/** The keys of a rows chunk of n rows as packKeys wrote them (either form), or null if malformed. */
function unpackKeys(raw: unknown, n: number): string[] | null {
  if (typeof raw === "string") {
    const keys = raw.split(KEY_SEP);
    return keys.length === n ? keys : null;
  }
  if (!Array.isArray(raw) || raw.length !== n) return null;
  const keys = new Array<string>(n);
  for (let j = 0; j < n; j++) {
    const d = decodeKeyField(raw[j]);
    if (d === undefined) return null;
    keys[j] = d;
  }
  return keys;
}

/** The bytes of a format-4 file, a chunk at a time. */
export function* encodeJoinFile(
  kind: FileKind,
  version: number,
  prev: number,
  fileId: string,
  signature: string,
  content: JoinFileContent,
  src: JoinRowSource,
): Generator<Buffer> {
  yield encodeHeader(kind, version, prev, fileId, JOIN_FORMAT_VERSION);
  yield frameChunk(valuePackr.pack([TAG_META, content.nextSeq, signature]));
  const flags = content.flags ?? [];
  const removes = content.removes ?? [];
  yield* refChunks(TAG_FLAGS, flags, src);
  yield* refChunks(TAG_REMOVES, removes, src);
  const rows = content.rows;
  for (let o = 0; o < rows.length; o += ROWS_PER_CHUNK) {
    const part = rows.slice(o, o + ROWS_PER_CHUNK);
    const n = part.length;
    const seqs = new Float64Array(n);
    const keys = new Array<string>(n);
    const times = new Float64Array(n);
    const matched = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      const r = part[j]!;
      seqs[j] = src.seqOf(r);
      keys[j] = src.keyOf(r);
      times[j] = src.keyTimeOf(r);
      matched[j] = src.matchedOf(r) ? 1 : 0;
    }
    yield frameChunk(valuePackr.pack([TAG_ROWS, n, seqs, packKeys(keys), times, matched, src.encodeColumns(part)]));
  }
  yield endMarker(flags.length + removes.length + rows.length);
}

class Malformed extends Error {}

const isF64 = (x: unknown, n: number): x is Float64Array => x instanceof Float64Array && x.length === n;

/**
 * Read a format-4 file: the header, the meta chunk (its signature checked against the side's),
 * then its chunks. Damage, another format or another shape is a CheckpointCorruptError naming
 * the file. `structNames[c]`: the field names of column c when its type is a struct.
 */
export async function* readJoinFile(
  src: ByteSource,
  file: string,
  signature: string,
  structNames: readonly (readonly string[] | null)[],
  onHeader: (h: StateFileHeader) => void,
  onMeta: (nextSeq: number) => void,
): AsyncGenerator<JoinChunk> {
  const first = await src.read(0, Math.min(HEADER_BYTES, src.size));
  if (isLegacy(first) && src.size > 0)
    throw new CheckpointCorruptError(
      file,
      "it is not an arus columnar join state file (no magic bytes; the columnar join state reads formats v4 and v5 only)",
    );
  const header = decodeHeader(first, file, src.size);
  if (!isJoinFormat(header.format)) {
    throw new CheckpointCorruptError(
      file,
      `it holds ${header.format === 2 ? "row" : "columnar aggregation"} state (format v${header.format}), which the columnar join state (arus.state.join.columnar=true) cannot read`,
    );
  }
  onHeader(header);
  let total = 0;
  let sawMeta = false;
  for await (const { pos, value: x } of readFramedChunks(
    src,
    file,
    HEADER_BYTES,
    (p) => valuePackr.unpack(p),
    () => total,
  )) {
    if (!Array.isArray(x) || typeof x[0] !== "number")
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} is not a join state chunk`);
    const tag = x[0];
    if (!sawMeta) {
      if (tag !== TAG_META || !Number.isSafeInteger(x[1]) || x[1] < 0)
        throw new CheckpointCorruptError(file, "it does not start with a meta chunk (the file is corrupt)");
      if (x[2] !== signature)
        throw new CheckpointCorruptError(file, `it holds join state of another shape (${String(x[2])}) than this query's (${signature})`);
      onMeta(x[1] as number);
      sawMeta = true;
      continue;
    }
    const n = x[1] as number;
    if (!Number.isSafeInteger(n) || n <= 0 || tag < TAG_ROWS || tag > TAG_REMOVES)
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} has an unknown tag ${tag} or count ${n}`);
    if (tag !== TAG_ROWS && header.kind === "snapshot") throw new CheckpointCorruptError(file, "a snapshot holds a flag or remove record");
    try {
      if (!isF64(x[2], n)) throw new Malformed("its sequence numbers are malformed");
      if (tag === TAG_ROWS) {
        const [, , seqs, rawKeys, times, matched, cols] = x as [number, number, Float64Array, unknown, unknown, unknown, unknown];
        const keys = unpackKeys(rawKeys, n);
        if (keys === null) throw new Malformed("its keys are malformed");
        if (!isF64(times, n) || !(matched instanceof Uint8Array) || matched.length !== n)
          throw new Malformed("its key times or flags are malformed");
        if (!Array.isArray(cols) || cols.length !== structNames.length) throw new Malformed("it has the wrong number of columns");
        const columns = cols.map((c, i) => {
          const read = decodeColumn(c, n, structNames[i]!);
          if (!read) throw new Malformed(`column ${i} is malformed`);
          return read;
        });
        yield { kind: "rows", n, seqs, keys, keyTimes: times, matched, columns };
      } else yield { kind: tag === TAG_FLAGS ? "flags" : "removes", n, seqs: x[2] as Float64Array };
    } catch (e) {
      if (e instanceof Malformed)
        throw new CheckpointCorruptError(file, `the chunk at byte ${pos} holds a malformed record (${e.message})`);
      throw e;
    }
    total += n;
  }
  if (!sawMeta) throw new CheckpointCorruptError(file, "it has no meta chunk (the file is corrupt)");
}
