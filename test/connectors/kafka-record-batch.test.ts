/**
 * decodeRecordBatches alone, on record batches written here byte by byte in Kafka's message
 * format v2 (no broker): columns, the [from, until) range, a partial trailing batch, control
 * batches, aborted transactions under read_committed, LogAppendTime, and compressed batches
 * (compression.ts's framings: snappy-java's blocks, LZ4 frames with and without block checksums).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import zlib from "node:zlib";
import { decompressRecords, lz4Frame, snappyFramed } from "../../src/connectors/kafka/compression.js";
import {
  type AbortedTransactions,
  abortedTransactions,
  ColumnsBuilder,
  decodeRecordBatches,
} from "../../src/connectors/kafka/record-batch.js";

const require = createRequire(import.meta.url);
const snappy = require("snappyjs") as { compress(b: Uint8Array): Uint8Array };
const lz4 = require("lz4js") as { compress(b: Uint8Array): Uint8Array };

function varint(v: number): number[] {
  let z = v >= 0 ? v * 2 : -v * 2 - 1;
  const out: number[] = [];
  while (z >= 0x80) {
    out.push((z % 128) | 0x80);
    z = Math.floor(z / 128);
  }
  out.push(z);
  return out;
}
const bytes = (b: string | null) => (b === null ? varint(-1) : [...varint(Buffer.byteLength(b)), ...Buffer.from(b)]);

interface Rec {
  key: string | null;
  value: string | null;
  tsDelta?: number;
  headers?: [string, string | null][];
}

/** One v2 record batch (the CRC is left 0: the decoder does not check it, the broker did). */
function batch(
  base: number,
  recs: Rec[],
  o: { attributes?: number; producerId?: number; baseTs?: number; maxTs?: number; compress?: (b: Buffer) => Buffer } = {},
): Buffer {
  const body: number[] = [];
  recs.forEach((r, i) => {
    const rec = [
      0,
      ...varint(r.tsDelta ?? i),
      ...varint(i),
      ...bytes(r.key),
      ...bytes(r.value),
      ...varint(r.headers?.length ?? 0),
      ...(r.headers ?? []).flatMap(([k, v]) => [...bytes(k), ...bytes(v)]),
    ];
    body.push(...varint(rec.length), ...rec);
  });
  const records = o.compress ? o.compress(Buffer.from(body)) : Buffer.from(body);
  const h = Buffer.alloc(61);
  h.writeBigInt64BE(BigInt(base), 0);
  h.writeInt32BE(61 - 12 + records.length, 8);
  h.writeInt8(2, 16);
  h.writeInt16BE(o.attributes ?? 0, 21);
  h.writeInt32BE(recs.length - 1, 23);
  h.writeBigInt64BE(BigInt(o.baseTs ?? 1000), 27);
  h.writeBigInt64BE(BigInt(o.maxTs ?? 5000), 35);
  h.writeBigInt64BE(BigInt(o.producerId ?? -1), 43);
  h.writeInt32BE(recs.length, 57);
  return Buffer.concat([h, records]);
}

async function decode(buf: Buffer, from = 0, until = 1e9, aborted: AbortedTransactions | null = null) {
  const out = new ColumnsBuilder(4);
  const next = await decodeRecordBatches(buf, 0, buf.length, from, until, out, aborted, decompressRecords);
  const str = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString());
  const rows = Array.from({ length: out.count }, (_, i) => ({
    offset: out.offsets[i],
    ts: out.timestamps[i],
    type: out.timestampTypes[i],
    key: str(out.keys.at(i)),
    value: str(out.values.at(i)),
    headers: out.headers[i]!.map((x) => `${x.key}=${str(x.value)}`),
  }));
  return { next, rows };
}

const recs = (n: number, tag = "v"): Rec[] => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `${tag}${i}` }));

describe("decodeRecordBatches", () => {
  it("decodes keys, values, nulls, timestamps and headers into columns", async () => {
    const buf = batch(
      10,
      [
        { key: "a", value: "1", headers: [["h", "x"]] },
        {
          key: null,
          value: null,
          tsDelta: 7,
          headers: [
            ["n", null],
            ["é", "ü"],
          ],
        },
        { key: "", value: "" },
      ],
      { baseTs: 1_700_000_000_000 },
    );
    const { next, rows } = await decode(buf);
    assert.equal(next, 13);
    assert.deepEqual(rows, [
      { offset: 10, ts: 1_700_000_000_000, type: 0, key: "a", value: "1", headers: ["h=x"] },
      { offset: 11, ts: 1_700_000_000_007, type: 0, key: null, value: null, headers: ["n=null", "é=ü"] },
      { offset: 12, ts: 1_700_000_000_002, type: 0, key: "", value: "", headers: [] },
    ]);
  });

  it("keeps only offsets in [from, until) and returns the offset after the last complete batch", async () => {
    const buf = Buffer.concat([batch(0, recs(5)), batch(5, recs(5, "w"))]);
    const { next, rows } = await decode(buf, 3, 7);
    assert.equal(next, 10);
    assert.deepEqual(
      rows.map((r) => [r.offset, r.value]),
      [
        [3, "v3"],
        [4, "v4"],
        [5, "w0"],
        [6, "w1"],
      ],
    );
  });

  it("stops before a partial trailing batch (-1 when none is complete)", async () => {
    const whole = Buffer.concat([batch(0, recs(2)), batch(2, recs(2))]);
    const cut = whole.subarray(0, whole.length - 3);
    const { next, rows } = await decode(cut);
    assert.equal(next, 2);
    assert.equal(rows.length, 2);
    assert.equal((await decode(batch(0, recs(2)).subarray(0, 70))).next, -1);
  });

  it("LogAppendTime batches give the batch's max timestamp and timestampType 1", async () => {
    const { rows } = await decode(batch(0, recs(2), { attributes: 0x08, maxTs: 99_000 }));
    assert.deepEqual(
      rows.map((r) => [r.ts, r.type]),
      [
        [99_000, 1],
        [99_000, 1],
      ],
    );
  });

  it("drops control batches, and an aborted transaction's records under read_committed only", async () => {
    const TXN = 0x10;
    const CONTROL = 0x20;
    const abortMarker: Rec = { key: "\u0000\u0000\u0000\u0000", value: "\u0000\u0000\u0000\u0000\u0000\u0000" };
    const commitMarker: Rec = { key: "\u0000\u0000\u0000\u0001", value: "\u0000\u0000\u0000\u0000\u0000\u0000" };
    const buf = Buffer.concat([
      batch(0, recs(2, "a"), { attributes: TXN, producerId: 7 }), // aborted below
      batch(2, recs(2, "c"), { attributes: TXN, producerId: 8 }), // committed below
      batch(4, [abortMarker], { attributes: TXN | CONTROL, producerId: 7 }),
      batch(5, [commitMarker], { attributes: TXN | CONTROL, producerId: 8 }),
      batch(6, recs(1, "p")), // not transactional
      batch(7, recs(1, "b"), { attributes: TXN, producerId: 7 }), // a later transaction of 7, not aborted
    ]);
    const committed = await decode(buf, 0, 1e9, { pending: [{ producerId: 7, firstOffset: 0 }], aborting: new Set() });
    assert.equal(committed.next, 8);
    assert.deepEqual(
      committed.rows.map((r) => [r.offset, r.value]),
      [
        [2, "c0"],
        [3, "c1"],
        [6, "p0"],
        [7, "b0"],
      ],
    );
    const uncommitted = await decode(buf);
    assert.deepEqual(
      uncommitted.rows.map((r) => r.offset),
      [0, 1, 2, 3, 6, 7],
    );
  });

  it("drops every aborted transaction when the broker lists them out of offset order", async () => {
    // The shape a soak met: the Fetch answer listed producer 54's aborted transaction (first
    // offset 5) before producer 52's (first offset 2); walking that list in answer order let
    // 52's aborted records through to a read_committed reader.
    const TXN = 0x10;
    const CONTROL = 0x20;
    const abortMarker: Rec = { key: "\u0000\u0000\u0000\u0000", value: "\u0000\u0000\u0000\u0000\u0000\u0000" };
    const commitMarker: Rec = { key: "\u0000\u0000\u0000\u0001", value: "\u0000\u0000\u0000\u0000\u0000\u0000" };
    const buf = Buffer.concat([
      batch(0, recs(1, "c"), { attributes: TXN, producerId: 50 }),
      batch(1, [commitMarker], { attributes: TXN | CONTROL, producerId: 50 }),
      batch(2, recs(3, "x"), { attributes: TXN, producerId: 52 }), // aborted
      batch(5, recs(2, "y"), { attributes: TXN, producerId: 54 }), // aborted
      batch(7, recs(1, "d"), { attributes: TXN, producerId: 50 }),
      batch(8, [commitMarker], { attributes: TXN | CONTROL, producerId: 50 }),
      batch(9, [abortMarker], { attributes: TXN | CONTROL, producerId: 52 }),
      batch(10, [abortMarker], { attributes: TXN | CONTROL, producerId: 54 }),
    ]);
    const answer = [
      { producerId: 54, firstOffset: 5 },
      { producerId: 52, firstOffset: 2 },
    ];
    const committed = await decode(buf, 0, 1e9, abortedTransactions(answer));
    assert.deepEqual(
      committed.rows.map((r) => [r.offset, r.value]),
      [
        [0, "c0"],
        [7, "d0"],
      ],
    );
    assert.deepEqual(answer[0], { producerId: 54, firstOffset: 5 }, "the answer's own list is left as it was");
  });

  it("refuses message formats before v2", async () => {
    const buf = batch(0, recs(1));
    buf.writeInt8(1, 16);
    await assert.rejects(decode(buf), /unsupported Kafka message format v1 at offset 0/);
  });

  it("decodes gzip, snappy (snappy-java's framing), lz4 and zstd batches by the codec bits", async () => {
    const many = recs(300, "value-".repeat(20));
    const plain = (await decode(batch(100, many))).rows;
    const xerial = (b: Buffer) => {
      const head = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
      const blocks = [b.subarray(0, 1000), b.subarray(1000)].flatMap((part) => {
        const c = Buffer.from(snappy.compress(part));
        const len = Buffer.alloc(4);
        len.writeInt32BE(c.length);
        return [len, c];
      });
      return Buffer.concat([head, ...blocks]);
    };
    // zstd of the records is made by the zstd command line when there is one (fzstd only decodes).
    const codecs: [number, (b: Buffer) => Buffer][] = [
      [1, (b) => zlib.gzipSync(b)],
      [2, xerial],
      [2, (b) => Buffer.from(snappy.compress(b))], // raw snappy, no framing
      [3, (b) => Buffer.from(lz4.compress(b))],
    ];
    try {
      execFileSync("zstd", ["--version"], { stdio: "ignore" });
      codecs.push([4, (b) => execFileSync("zstd", ["-c", "-q"], { input: b })]);
    } catch {
      // no zstd command: kafka-compression.test.ts covers zstd with Kafka's own producer
    }
    for (const [codec, compress] of codecs) {
      const got = await decode(batch(100, many, { attributes: codec, compress }), 150, 250);
      assert.deepEqual(got.rows, plain.slice(50, 150), `codec ${codec}`);
      assert.equal(got.next, 400);
    }
    await assert.rejects(decompressRecords(5, Buffer.alloc(4)), /unknown Kafka compression codec 5/);
  });

  it("snappy-java framing and LZ4 frames with block checksums and stored blocks", () => {
    const text = Buffer.from("0123456789".repeat(500));
    assert.equal(snappyFramed(Buffer.from(snappy.compress(text))).toString(), text.toString());
    // An LZ4 frame by hand: FLG = version 1 | block checksum, BD = 64 KB, HC, two stored blocks, each with a checksum.
    const stored = (b: Buffer) => {
      const size = Buffer.alloc(4);
      size.writeUInt32LE((b.length | 0x80000000) >>> 0);
      return [size, b, Buffer.from([1, 2, 3, 4])];
    };
    const frame = Buffer.concat([
      Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x50, 0x40, 0x00]),
      ...stored(text.subarray(0, 3000)),
      ...stored(text.subarray(3000)),
      Buffer.alloc(4),
    ]);
    assert.equal(lz4Frame(frame).toString(), text.toString());
    assert.throws(() => lz4Frame(frame.subarray(0, 100)), /overruns the 100-byte frame/);
    assert.throws(() => lz4Frame(Buffer.from("not lz4 at all")), /not an LZ4 frame/);
  });
});
