/**
 * Decompression of a compressed record batch's records section, for the four codecs Kafka
 * writes (attributes & 7): 1 gzip (node:zlib), 2 snappy in snappy-java's framing (snappyjs for
 * the blocks), 3 the LZ4 frame format (lz4js for the blocks), 4 zstd (fzstd). Pure JavaScript
 * libraries, so nothing is built on install (docs/dependencies.md).
 */
import { createRequire } from "node:module";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";

const require = createRequire(import.meta.url);
const snappy = require("snappyjs") as { uncompress(b: Uint8Array): Uint8Array };
const lz4 = require("lz4js") as {
  /** Decodes one LZ4 block of src[at, at + length) into dst from dstAt; returns the end in dst. */
  decompressBlock(src: Uint8Array, dst: Uint8Array, at: number, length: number, dstAt: number): number;
};
const gunzip = promisify(zlib.gunzip);

export const CODEC_NAMES = ["none", "gzip", "snappy", "lz4", "zstd"] as const;

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** Decompresses `bytes` (a batch's records) by the codec in the batch's `attributes`. */
export async function decompressRecords(attributes: number, bytes: Buffer): Promise<Buffer> {
  switch (attributes & 7) {
    case 0:
      return bytes;
    case 1:
      return gunzip(bytes);
    case 2:
      return snappyFramed(bytes);
    case 3:
      return lz4Frame(bytes);
    case 4:
      return asBuffer(zstdDecompress(bytes));
    default:
      throw new Error(`unknown Kafka compression codec ${attributes & 7} (attributes ${attributes})`);
  }
}

/** snappy-java's stream header: magic (8 bytes), version and minimum compatible version (i32 each). */
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);

/**
 * Kafka's Java producer writes snappy through snappy-java's SnappyOutputStream: the header,
 * then blocks of (i32 big-endian length, raw snappy). Data without the header is one raw block
 * (what some other clients write).
 */
export function snappyFramed(bytes: Buffer): Buffer {
  if (bytes.length < 16 || !bytes.subarray(0, 8).equals(XERIAL_MAGIC)) return asBuffer(snappy.uncompress(bytes));
  const parts: Buffer[] = [];
  let p = 16;
  while (p < bytes.length) {
    if (p + 4 > bytes.length) throw new Error(`truncated snappy block header at byte ${p} of ${bytes.length}`);
    const n = bytes.readInt32BE(p);
    p += 4;
    if (n < 0 || p + n > bytes.length) throw new Error(`snappy block of ${n} bytes at byte ${p} overruns the ${bytes.length}-byte batch`);
    parts.push(asBuffer(snappy.uncompress(bytes.subarray(p, p + n))));
    p += n;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

const LZ4_MAGIC = 0x184d2204;
/** Block maximum sizes by the BD byte's index (4 = 64 KB … 7 = 4 MB). */
const LZ4_BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

/**
 * The LZ4 frame format (Kafka's KafkaLZ4BlockOutputStream, magic v2 batches): magic, FLG, BD,
 * optional content size and dictionary id, header checksum, then blocks (u32 little-endian
 * size, high bit = stored uncompressed; data; optional block checksum) up to a zero size, then
 * an optional content checksum. The checksums are not verified (the batch's CRC covers the
 * bytes); each block's data is decoded by lz4js.
 */
export function lz4Frame(src: Buffer): Buffer {
  if (src.length < 7 || src.readUInt32LE(0) !== LZ4_MAGIC) throw new Error("not an LZ4 frame (bad magic number)");
  const flg = src[4]!;
  if (flg >> 6 !== 1) throw new Error(`unsupported LZ4 frame version ${flg >> 6}`);
  const blockChecksum = (flg & 0x10) !== 0;
  const maxBlock = LZ4_BLOCK_MAX[(src[5]! >> 4) & 7]!;
  if (!maxBlock) throw new Error(`invalid LZ4 block size index ${(src[5]! >> 4) & 7}`);
  let p = 6 + ((flg & 0x08) !== 0 ? 8 : 0) + ((flg & 0x01) !== 0 ? 4 : 0) + 1;
  // First pass: where the blocks are and an upper bound of the output.
  const blocks: { at: number; size: number; stored: boolean }[] = [];
  let bound = 0;
  for (;;) {
    if (p + 4 > src.length) throw new Error(`truncated LZ4 frame at byte ${p} of ${src.length}`);
    const word = src.readUInt32LE(p);
    p += 4;
    if (word === 0) break;
    const stored = (word & 0x80000000) !== 0;
    const size = word & 0x7fffffff;
    if (p + size > src.length) throw new Error(`LZ4 block of ${size} bytes at byte ${p} overruns the ${src.length}-byte frame`);
    blocks.push({ at: p, size, stored });
    bound += stored ? size : maxBlock;
    p += size + (blockChecksum ? 4 : 0);
  }
  const out = Buffer.allocUnsafe(bound);
  let n = 0;
  for (const b of blocks) {
    if (b.stored) n += src.copy(out, n, b.at, b.at + b.size);
    else n = lz4.decompressBlock(src, out, b.at, b.size, n);
  }
  return out.subarray(0, n);
}
