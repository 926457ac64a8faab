/**
 * State file format 3: columnar aggregation state. Same header (codec.ts, format field 3) and
 * chunk framing as format 2 (u32 length, u32 CRC-32, payload; end marker u32 0 + u64 record
 * count), so `files.ts` plans, supersedes and retains these files exactly like row files.
 *
 * Payloads are msgpack arrays `[tag, n, keys, buffers]`:
 *   tag 0 (schema, the first chunk of every file): `[0, 0, signature, null]`; loading checks the
 *     signature against the query's, so state of another shape is refused by file name;
 *   tag 1 (puts): n entries, every key column and every buffer column;
 *   tag 2 (removes, deltas only): n keys, buffers null.
 * A column is encoded by type: numeric `[values, validity | null]` (typed arrays, raw
 * little-endian through msgpackr's typed-array extension), STRING `[strings, ids]` (the chunk's
 * distinct strings, Uint16Array for a string that is not well-formed UTF-16, and an Int32Array
 * of indexes, -1 = NULL; a BIGINT/TIMESTAMP column holding a value beyond ±2^53 − 1 is a
 * BigInt64Array, columnar/int64.ts: files without one read as before), STRUCT `[validity | null, [field columns]]`, NULL type `null`.
 * Up to 16 384 entries per chunk (msgpackr keeps a buffer the size of the largest chunk packed).
 */
import { Packr } from "msgpackr";
import { CheckpointCorruptError } from "../../checkpoint/metadata-log.js";
import { isInt64Type } from "../../columnar/int64.js";
import { makeVector, physicalOf, type Vector } from "../../columnar/vector.js";
import type { DataType } from "../../types/datatypes.js";
import {
  type ByteSource,
  COLUMNAR_FORMAT_VERSION,
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
  readFramedChunks,
  type StateFileHeader,
} from "../codec.js";
import type { ColumnarSchema } from "./schema.js";

export const ENTRIES_PER_CHUNK = 16_384;
const TAG_SCHEMA = 0;
const TAG_PUTS = 1;
const TAG_REMOVES = 2;

const packr = new Packr({ moreTypes: true, useRecords: false, mapsAsObjects: false, structuredClone: false });

export interface ColumnarChunk {
  readonly kind: "puts" | "removes";
  readonly n: number;
  readonly keys: Vector[];
  /** Empty for removes. */
  readonly buffers: Vector[];
}

/** One chunk's worth of entries to write: vectors of n rows. */
export interface ChunkSource {
  readonly kind: "puts" | "removes";
  readonly n: number;
  keys(): Vector[];
  buffers(): Vector[];
}

// ------------------------------------------------------------------------------ encoding

function encodeVector(v: Vector): unknown {
  const n = v.length;
  if (v.type.kind === "null") return null;
  if (v.children) return [v.validity, v.children.map(encodeVector)];
  if (v.type.kind === "string") {
    const ids = new Int32Array(n);
    const index = new Map<string, number>();
    const strings: (string | Uint16Array)[] = [];
    const vals = v.values as (string | null)[];
    for (let i = 0; i < n; i++) {
      if (v.validity !== null && v.validity[i] === 0) {
        ids[i] = -1;
        continue;
      }
      const s = vals[i]!;
      let id = index.get(s);
      if (id === undefined) {
        id = strings.length;
        index.set(s, id);
        strings.push(encodeKeyField(s));
      }
      ids[i] = id;
    }
    return [strings, ids];
  }
  const values = v.values as Float64Array | Int32Array | Uint8Array;
  return [values.length === n ? values : values.subarray(0, n), v.validity === null ? null : v.validity.subarray(0, n)];
}

/** The bytes of a columnar state file, a chunk at a time. */
export function* encodeColumnarFile(
  schema: ColumnarSchema,
  kind: FileKind,
  version: number,
  prev: number,
  fileId: string,
  chunks: Iterable<ChunkSource>,
): Generator<Buffer> {
  yield encodeHeader(kind, version, prev, fileId, COLUMNAR_FORMAT_VERSION);
  yield frameChunk(packr.pack([TAG_SCHEMA, 0, schema.signature, null]));
  let total = 0;
  for (const c of chunks) {
    if (c.n === 0) continue;
    const keys = c.keys().map(encodeVector);
    const buffers = c.kind === "puts" ? c.buffers().map(encodeVector) : null;
    yield frameChunk(packr.pack([c.kind === "puts" ? TAG_PUTS : TAG_REMOVES, c.n, keys, buffers]));
    total += c.n;
  }
  yield endMarker(total);
}

// ------------------------------------------------------------------------------ decoding

class Malformed extends Error {}

function isTyped(x: unknown, ctor: typeof Float64Array | typeof Int32Array | typeof Uint8Array, n: number): boolean {
  return x instanceof ctor && x.length === n;
}

/** The typed array a column of `t` decodes to (its layout from columnar/vector.ts `physicalOf`). */
function typedCtor(t: DataType): typeof Float64Array | typeof Int32Array | typeof Uint8Array {
  const p = physicalOf(t);
  return p === "u8" ? Uint8Array : p === "i32" ? Int32Array : Float64Array;
}

function validityOf(x: unknown, n: number): Uint8Array | null {
  if (x === null || x === undefined) return null;
  if (!isTyped(x, Uint8Array, n)) throw new Malformed("a validity column has the wrong length");
  return x as Uint8Array;
}

function decodeVector(x: unknown, t: DataType, n: number): Vector {
  if (t.kind === "null") return makeVector(t, new Array(n).fill(null), new Uint8Array(n), n);
  if (!Array.isArray(x) || x.length !== 2) throw new Malformed("a column is not a pair");
  if (t.kind === "struct") {
    const [validity, kids] = x as [unknown, unknown];
    if (!Array.isArray(kids) || kids.length !== t.fields.length) throw new Malformed("a struct column has the wrong fields");
    return makeVector(
      t,
      [],
      validityOf(validity, n),
      n,
      t.fields.map((f, i) => decodeVector(kids[i], f.type, n)),
    );
  }
  if (t.kind === "string") {
    const [strings, ids] = x as [unknown, unknown];
    if (!Array.isArray(strings) || !isTyped(ids, Int32Array, n)) throw new Malformed("a string column is malformed");
    const dict = strings.map((s) => {
      const d = decodeKeyField(s);
      if (d === undefined) throw new Malformed("a string column holds a non-string");
      return d;
    });
    const idx = ids as Int32Array;
    const values: (string | null)[] = new Array(n);
    let validity: Uint8Array | null = null;
    for (let i = 0; i < n; i++) {
      const k = idx[i]!;
      if (k === -1) {
        validity ??= new Uint8Array(n).fill(1);
        validity[i] = 0;
        values[i] = null;
      } else if (k < 0 || k >= dict.length) throw new Malformed("a string column refers past its strings");
      else values[i] = dict[k]!;
    }
    return makeVector(t, values, validity, n);
  }
  const [values, validity] = x as [unknown, unknown];
  // A BIGINT/TIMESTAMP column with a value beyond ±2^53 − 1 is written wide (columnar/int64.ts).
  if (isInt64Type(t) && values instanceof BigInt64Array && values.length === n) return makeVector(t, values, validityOf(validity, n), n);
  const ctor = typedCtor(t);
  if (!isTyped(values, ctor, n)) throw new Malformed(`a ${t.kind} column is not a ${ctor.name} of ${n} values`);
  return makeVector(t, values as Float64Array, validityOf(validity, n), n);
}

/**
 * Read a columnar state file: the header, the schema chunk (checked against `schema`), then
 * its entries a chunk at a time. Any damage is a CheckpointCorruptError naming the file, and so
 * is a file of another format or another state shape.
 */
export async function* readColumnarFile(
  src: ByteSource,
  file: string,
  schema: ColumnarSchema,
  onHeader?: (h: StateFileHeader) => void,
): AsyncGenerator<ColumnarChunk> {
  const first = await src.read(0, Math.min(HEADER_BYTES, src.size));
  if (isLegacy(first) && src.size > 0) {
    throw new CheckpointCorruptError(
      file,
      "it is not an arus columnar state file (no magic bytes; the columnar aggregation store reads format v3 only)",
    );
  }
  const header = decodeHeader(first, file, src.size);
  if (header.format !== COLUMNAR_FORMAT_VERSION) {
    throw new CheckpointCorruptError(
      file,
      `it holds ${isJoinFormat(header.format) ? "columnar join" : "row"} state (format v${header.format}), which the columnar aggregation store (arus.state.aggregation.columnar=true) cannot read`,
    );
  }
  onHeader?.(header);
  let total = 0;
  let sawSchema = false;
  for await (const framed of readFramedChunks(
    src,
    file,
    HEADER_BYTES,
    (p) => packr.unpack(p),
    () => total,
  )) {
    const { pos, value: x } = framed;
    if (!Array.isArray(x) || x.length !== 4 || typeof x[0] !== "number" || typeof x[1] !== "number")
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} is not a columnar chunk`);
    const [tag, n, keys, buffers] = x as [number, number, unknown, unknown];
    if (!sawSchema) {
      if (tag !== TAG_SCHEMA) throw new CheckpointCorruptError(file, "it does not start with a schema chunk (the file is corrupt)");
      if (keys !== schema.signature) {
        throw new CheckpointCorruptError(
          file,
          `it holds aggregation state of another shape (${String(keys)}) than this query's (${schema.signature})`,
        );
      }
      sawSchema = true;
      continue;
    }
    if ((tag !== TAG_PUTS && tag !== TAG_REMOVES) || !Number.isSafeInteger(n) || n <= 0)
      throw new CheckpointCorruptError(file, `the chunk at byte ${pos} has an unknown tag ${tag} or count ${n}`);
    if (tag === TAG_REMOVES && header.kind === "snapshot") throw new CheckpointCorruptError(file, "a snapshot holds a remove record");
    let chunk: ColumnarChunk;
    try {
      if (!Array.isArray(keys) || keys.length !== schema.keys.length) throw new Malformed("it has the wrong number of key columns");
      const keyVecs = schema.keys.map((k, i) => decodeVector(keys[i], k.type, n));
      let bufVecs: Vector[] = [];
      if (tag === TAG_PUTS) {
        if (!Array.isArray(buffers) || buffers.length !== schema.buffers.length)
          throw new Malformed("it has the wrong number of buffer columns");
        bufVecs = schema.buffers.map((b, i) => decodeVector(buffers[i], b.type, n));
      }
      chunk = { kind: tag === TAG_PUTS ? "puts" : "removes", n, keys: keyVecs, buffers: bufVecs };
    } catch (e) {
      if (e instanceof Malformed)
        throw new CheckpointCorruptError(file, `the chunk at byte ${pos} holds a malformed record (${e.message})`);
      throw e;
    }
    total += n;
    yield chunk;
  }
  if (!sawSchema) throw new CheckpointCorruptError(file, "it has no schema chunk (the file is corrupt)");
}
