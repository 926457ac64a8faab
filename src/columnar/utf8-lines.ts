/**
 * A batch's text with one line per row ("...\n" each, no line break inside a row: to_json's
 * output, whose strings escape them) as UTF-8 bytes + offsets, with one native encoding of the
 * whole text instead of a JS string per row. NULL rows (`validity` 0) become empty ranges.
 */
import { isWellFormed, type Utf8Values } from "./utf8.js";

/** null when the text holds a lone surrogate (UTF-8 cannot carry it: the caller keeps strings). */
export function utf8FromLines(text: string, n: number, validity: Uint8Array | null): Utf8Values | null {
  const bytes = Buffer.from(text, "utf8");
  const ascii = bytes.length === text.length;
  if (!ascii && !isWellFormed(text)) return null;
  const offsets = new Int32Array(n + 1);
  let p = 0;
  let nulls = false;
  for (let i = 0; i < n; i++) {
    const end = bytes.indexOf(10, p);
    if (end < 0) throw new Error(`utf8FromLines: ${i} lines for ${n} rows`);
    offsets[i + 1] = end;
    p = end + 1;
    if (validity !== null && validity[i] === 0) nulls = true;
  }
  // Row i is bytes[start_i, offsets[i + 1]) where start_i = offsets[i] + 1 (after the line break):
  // packed without the breaks (and without NULL rows' text) in one pass.
  let o = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = offsets[i + 1]!;
    const keep = !nulls || validity![i] !== 0;
    if (keep) {
      bytes.copyWithin(o, start, end);
      o += end - start;
    }
    offsets[i + 1] = o;
    start = end + 1;
  }
  return { bytes: bytes.subarray(0, o), offsets, ascii };
}
