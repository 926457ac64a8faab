/**
 * Kafka's record batches (message format v2, the only one Kafka 4 stores) decoded straight into
 * columns: one pass over the bytes, offsets and timestamps into typed arrays, keys and values
 * copied into one buffer each with offsets (columnar/binary.ts: no object per record; header
 * values stay Buffer views). Transactional batches of aborted transactions and control batches
 * are dropped as Kafka's Java consumer drops them.
 *
 * Batch header (61 bytes): baseOffset i64, batchLength i32, partitionLeaderEpoch i32, magic i8,
 * crc u32, attributes i16, lastOffsetDelta i32, baseTimestamp i64, maxTimestamp i64,
 * producerId i64, producerEpoch i16, baseSequence i32, recordCount i32, then the records:
 * length varint, attributes i8, timestampDelta varlong, offsetDelta varint, key (varint length,
 * -1 = null), value (same), header count varint, headers (key string, value bytes).
 */

import { BinaryBuilder } from "../../columnar/binary.js";

export interface RecordHeader {
  readonly key: string;
  readonly value: Uint8Array | null;
}

/** Records of one partition as columns (`count` rows; arrays may be longer). */
export interface FetchedColumns {
  readonly count: number;
  readonly offsets: Float64Array;
  /** Milliseconds since the epoch. */
  readonly timestamps: Float64Array;
  /** 0 = CreateTime, 1 = LogAppendTime. */
  readonly timestampTypes: Uint8Array;
  readonly keys: BinaryBuilder;
  readonly values: BinaryBuilder;
  readonly headers: readonly (readonly RecordHeader[])[];
}

/** Decompresses a batch's records section (attributes & 7 = codec): compression.ts. */
export type Decompress = (attributes: number, bytes: Buffer) => Promise<Buffer>;

const HEADER_BYTES = 61;
const NO_HEADERS: readonly RecordHeader[] = Object.freeze([]);
const utf8 = new TextDecoder();

/** A growing set of columns that fetches of one range append to. */
export class ColumnsBuilder implements FetchedColumns {
  count = 0;
  offsets: Float64Array;
  timestamps: Float64Array;
  timestampTypes: Uint8Array;
  readonly keys: BinaryBuilder;
  readonly values: BinaryBuilder;
  headers: (readonly RecordHeader[])[] = [];

  constructor(capacity: number) {
    const c = Math.max(16, Math.min(capacity, 1 << 20));
    this.offsets = new Float64Array(c);
    this.timestamps = new Float64Array(c);
    this.timestampTypes = new Uint8Array(c);
    // Byte buffers start small and double: a range's size says little about what arrives.
    this.keys = new BinaryBuilder(c, Math.min(c * 8, 1 << 18));
    this.values = new BinaryBuilder(c, Math.min(c * 64, 1 << 20));
  }
  /** Appends a record; its key and value are appended to `keys` / `values` by the caller. */
  push(offset: number, timestamp: number, type: number, h: readonly RecordHeader[]) {
    const i = this.count;
    if (i === this.offsets.length) this.grow();
    this.offsets[i] = offset;
    this.timestamps[i] = timestamp;
    this.timestampTypes[i] = type;
    this.headers.push(h);
    this.count = i + 1;
  }
  private grow() {
    const c = this.offsets.length * 2;
    const o = new Float64Array(c);
    o.set(this.offsets);
    const t = new Float64Array(c);
    t.set(this.timestamps);
    const y = new Uint8Array(c);
    y.set(this.timestampTypes);
    this.offsets = o;
    this.timestamps = t;
    this.timestampTypes = y;
  }
}

/** Reading position over one buffer, with Kafka's varints. */
class Cursor {
  pos: number;
  private view: DataView | null = null;
  constructor(
    readonly buf: Buffer,
    start: number,
  ) {
    this.pos = start;
  }
  /** Zig-zag varint (varlong too: exact up to 2^53). */
  varint(): number {
    const b = this.buf;
    let p = this.pos;
    let byte = b[p++]!;
    let v = byte & 0x7f;
    if (byte & 0x80) {
      let mul = 128;
      do {
        byte = b[p++]!;
        v += (byte & 0x7f) * mul;
        mul *= 128;
      } while (byte & 0x80);
    }
    this.pos = p;
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }
  bytes(): Uint8Array | null {
    const n = this.varint();
    if (n < 0) return null;
    const start = this.pos;
    this.pos = start + n;
    const b = this.buf;
    // A Buffer view (no copy), as the client library's values were: BINARY values compare and
    // serialize as Buffers elsewhere in arus.
    return Buffer.from(b.buffer, b.byteOffset + start, n);
  }
  /** The next bytes field (key or value) copied into `out`. */
  bytesInto(out: BinaryBuilder): void {
    const n = this.varint();
    const b = this.buf;
    this.view ??= new DataView(b.buffer, b.byteOffset, b.byteLength);
    out.pushFrom(this.view, this.pos, n);
    if (n > 0) this.pos += n;
  }
}

function int64(buf: Buffer, at: number): number {
  return buf.readInt32BE(at) * 4294967296 + buf.readUInt32BE(at + 4);
}

/** Read-committed filtering state across the batches of one fetch (Kafka's consumer rules). */
export interface AbortedTransactions {
  /** The fetch response's list, ordered by firstOffset; consumed as batches pass it. */
  readonly pending: { producerId: number; firstOffset: number }[];
  readonly aborting: Set<number>;
}

/**
 * The filtering state for a Fetch answer's aborted transactions. The broker does not list them
 * in offset order (seen: a transaction starting at 35 581 listed before one starting at 35 565),
 * so they are sorted here, as Kafka's consumer keeps them in a priority queue by first offset;
 * walking an unsorted list stops at the first later entry and lets an aborted batch through.
 * A copy: the answer's own list is left as it is.
 */
export function abortedTransactions(list: readonly { producerId: number; firstOffset: number }[]): AbortedTransactions {
  return { pending: [...list].sort((a, b) => a.firstOffset - b.firstOffset), aborting: new Set<number>() };
}

/**
 * Decodes the record batches in `buf[start, end)` (a partition's record set of a Fetch
 * response), appending records with offsets in [from, until) to `out`. Returns the offset after
 * the last complete batch (the next offset to fetch), or -1 when no batch was complete.
 */
export async function decodeRecordBatches(
  buf: Buffer,
  start: number,
  end: number,
  from: number,
  until: number,
  out: ColumnsBuilder,
  aborted: AbortedTransactions | null,
  decompress: Decompress,
): Promise<number> {
  let p = start;
  let next = -1;
  while (p + HEADER_BYTES <= end) {
    const base = int64(buf, p);
    const length = buf.readInt32BE(p + 8);
    const batchEnd = p + 12 + length;
    if (batchEnd > end) break; // the tail may be a partial batch (maxBytes cuts it)
    const magic = buf.readInt8(p + 16);
    if (magic !== 2) throw new Error(`unsupported Kafka message format v${magic} at offset ${base} (Kafka 0.11+ writes v2)`);
    const attributes = buf.readInt16BE(p + 21);
    const last = base + buf.readInt32BE(p + 23);
    const baseTimestamp = int64(buf, p + 27);
    const maxTimestamp = int64(buf, p + 35);
    const producerId = int64(buf, p + 43);
    const count = buf.readInt32BE(p + 57);
    const transactional = (attributes & 0x10) !== 0;
    const control = (attributes & 0x20) !== 0;
    const logAppend = (attributes & 0x08) !== 0;
    next = last + 1;
    const recordsAt = p + HEADER_BYTES;
    p = batchEnd;
    if (aborted) {
      while (aborted.pending.length && aborted.pending[0]!.firstOffset <= last) aborted.aborting.add(aborted.pending.shift()!.producerId);
    }
    if (control) {
      // A control batch holds one marker; an abort marker (key: version i16, type i16 = 0) ends
      // the producer's aborted transaction.
      if (aborted && count > 0 && isAbortMarker(buf, recordsAt)) aborted.aborting.delete(producerId);
      continue;
    }
    if (aborted && transactional && aborted.aborting.has(producerId)) continue;
    if (last < from || base >= until) continue;
    let cur: Cursor;
    if ((attributes & 0x07) === 0) cur = new Cursor(buf, recordsAt);
    else cur = new Cursor(await decompress(attributes, buf.subarray(recordsAt, batchEnd)), 0);
    for (let i = 0; i < count; i++) {
      const len = cur.varint();
      const recordEnd = cur.pos + len;
      cur.pos++; // record attributes (unused)
      const tsDelta = cur.varint();
      const offset = base + cur.varint();
      if (offset < from || offset >= until) {
        cur.pos = recordEnd;
        continue;
      }
      cur.bytesInto(out.keys);
      cur.bytesInto(out.values);
      const nh = cur.varint();
      let headers = NO_HEADERS;
      if (nh > 0) {
        const hs: RecordHeader[] = [];
        for (let h = 0; h < nh; h++) {
          const k = cur.bytes();
          hs.push({ key: k === null ? "" : utf8.decode(k), value: cur.bytes() });
        }
        headers = hs;
      }
      cur.pos = recordEnd;
      out.push(offset, logAppend ? maxTimestamp : baseTimestamp + tsDelta, logAppend ? 1 : 0, headers);
    }
  }
  return next;
}

function isAbortMarker(buf: Buffer, recordsAt: number): boolean {
  const cur = new Cursor(buf, recordsAt);
  cur.varint(); // length
  cur.pos++; // attributes
  cur.varint(); // timestamp delta
  cur.varint(); // offset delta
  const key = cur.bytes();
  return key !== null && key.length >= 4 && key[2] === 0 && key[3] === 0;
}
