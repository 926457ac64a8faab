/**
 * CAST(binary AS STRING) from a contiguous BINARY vector (binary.ts) to a UTF-8 STRING vector
 * (utf8.ts) without a JS string per row. Rows that are valid UTF-8 keep their bytes, shared with
 * the BINARY vector when all are; a row that is not is decoded as Spark and the per-row cast do
 * (each invalid sequence becomes U+FFFD) and written back as UTF-8.
 */
import { isAscii, isUtf8 } from "node:buffer";
import type { BinaryValues } from "./binary.js";
import type { Utf8Values } from "./utf8.js";

/** The per-row decoding: WHATWG replacement, a leading BOM kept (Spark keeps it). */
export const binaryText = new TextDecoder("utf-8", { ignoreBOM: true });

export function utf8FromBinary(b: BinaryValues, n: number): Utf8Values {
  const { bytes, offsets } = b;
  const whole = bytes.subarray(offsets[0], offsets[n]);
  if (isUtf8(whole) && rowsStartCharacters(b, n)) return { bytes, offsets, ascii: isAscii(whole) };
  return repaired(b, n);
}

/**
 * Every row starts on a character (not a continuation byte): then, the whole range being valid
 * UTF-8, every row is (a cut between characters leaves valid pieces).
 */
function rowsStartCharacters(b: BinaryValues, n: number): boolean {
  const { bytes, offsets } = b;
  const end = offsets[n]!;
  for (let i = 0; i < n; i++) {
    const a = offsets[i]!;
    if (a < end && (bytes[a]! & 0xc0) === 0x80) return false;
  }
  return true;
}

/** Copies the rows, each invalid one decoded with replacement characters and encoded again. */
function repaired(b: BinaryValues, n: number): Utf8Values {
  const { bytes, offsets } = b;
  const rows = new Array<Uint8Array>(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const row = bytes.subarray(offsets[i], offsets[i + 1]);
    rows[i] = isUtf8(row) ? row : Buffer.from(binaryText.decode(row), "utf8");
    total += rows[i]!.length;
  }
  const out = new Uint8Array(total);
  const outOffsets = new Int32Array(n + 1);
  let o = 0;
  for (let i = 0; i < n; i++) {
    out.set(rows[i]!, o);
    o += rows[i]!.length;
    outOffsets[i + 1] = o;
  }
  return { bytes: out, offsets: outOffsets, ascii: isAscii(out) };
}
