/**
 * A decode thread's share of a text file, read by that thread itself. The calling thread only
 * cuts the file's size into nominal byte ranges (`nominalRanges`); each thread reads the lines
 * that *start* in its range (Hadoop's LineRecordReader rule: a line belongs to the range holding
 * its first byte), so every line is read exactly once and the calling thread never touches the
 * bytes. Before this, the calling thread read the whole file into shared memory (~20 ms per
 * 44 MB file on a thread that then waited) and each decode thread copied its half out again.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const NEWLINE = 0x0a;
/** Read past the range's end this much at a time to finish its last line. */
const TAIL_CHUNK = 64 << 10;

/** `[start, end)` byte ranges of a `size`-byte file for `parts` threads (not line-aligned). */
export function nominalRanges(size: number, parts: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < parts; k++) {
    const start = Math.floor((size * k) / parts);
    const end = k === parts - 1 ? size : Math.floor((size * (k + 1)) / parts);
    if (end > start) out.push([start, end]);
  }
  return out;
}

/**
 * This thread's buffer for ranges, reused: what is decoded from it is copied into column
 * builders. A fresh buffer costs a page fault per 4 KiB on first touch (~20-100 ms for a 40 MB
 * range on a loaded VM, more than reading it): it is grown with a margin, so ranges of about one
 * size (the files of one source) never grow it again.
 */
let scratch: Buffer = Buffer.alloc(0);

function bufferOf(n: number): Buffer {
  if (scratch.length < n) scratch = Buffer.allocUnsafe(Math.floor(Math.max(n, scratch.length) * 1.25));
  return scratch;
}

/** Reads `n` bytes at `pos` into `buf` at `at`; fewer only at the end of the file. */
function readFully(fd: number, buf: Uint8Array, at: number, n: number, pos: number): number {
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, at + got, n - got, pos + got);
    if (k === 0) break;
    got += k;
  }
  return got;
}

/**
 * The whole lines of `file` that start in `[start, end)`, read no further than `size` (the size
 * the file had when it was listed: Spark's file sources take files as immutable, bytes appended
 * later are not read). The bytes are a view of a buffer this thread reuses: decode them before
 * the next call. `atFileStart`: the lines begin at byte 0 (a BOM may be there).
 */
export function readLinesOfRange(file: string, start: number, end: number, size: number): { bytes: Buffer; atFileStart: boolean } {
  if (end <= start) return { bytes: Buffer.alloc(0), atFileStart: start === 0 };
  const fd = openSync(file, "r");
  try {
    const limit = Math.min(size, fstatSync(fd).size);
    end = Math.min(end, limit);
    // from one byte before the range: a `\n` there means a line starts right at `start`
    const from = start === 0 ? 0 : start - 1;
    let buf = bufferOf(end - from + TAIL_CHUNK);
    let have = readFully(fd, buf, 0, end - from, from);
    let begin = 0;
    if (start > 0) {
      const nl = buf.subarray(0, have).indexOf(NEWLINE);
      if (nl < 0) return { bytes: buf.subarray(0, 0), atFileStart: false }; // no line starts here
      begin = nl + 1;
    }
    // finish the last line: up to the first `\n` at or after the range's last byte
    let stop = -1;
    if (have > 0 && buf[have - 1] === NEWLINE) stop = have;
    else if (from + have >= limit) stop = have;
    else {
      let searchFrom = have; // the range's last byte is not a `\n`
      while (stop < 0) {
        if (buf.length < have + TAIL_CHUNK) {
          const bigger = Buffer.allocUnsafe(Math.floor((have + TAIL_CHUNK) * 1.5));
          buf.copy(bigger, 0, 0, have);
          scratch = buf = bigger;
        }
        const k = readFully(fd, buf, have, Math.min(TAIL_CHUNK, limit - from - have), from + have);
        have += k;
        const nl = buf.subarray(0, have).indexOf(NEWLINE, searchFrom);
        if (nl >= 0) stop = nl + 1;
        else if (k === 0 || from + have >= limit) stop = have;
        searchFrom = have;
      }
    }
    if (begin > stop) begin = stop;
    return { bytes: buf.subarray(begin, stop), atFileStart: start === 0 };
  } finally {
    closeSync(fd);
  }
}

/**
 * The same lines as `readLinesOfRange`, streamed into a caller's buffer piece by piece (the WASM
 * decoder reads them straight into its own memory: no read into a JS buffer and copy after).
 * `read` gives the next bytes of the range's lines, fewer than asked only at their end.
 */
export class RangeReader {
  private readonly fd: number;
  /** File position of the next byte to give. */
  private pos: number;
  /** Ends of the range and of the readable file. */
  private readonly end: number;
  private readonly limit: number;
  private done: boolean;
  readonly atFileStart: boolean;

  constructor(file: string, start: number, end: number, size: number) {
    this.atFileStart = start === 0;
    this.fd = openSync(file, "r");
    try {
      this.limit = Math.min(size, fstatSync(this.fd).size);
      this.end = Math.min(end, this.limit);
      this.pos = start === 0 ? 0 : this.firstLineStart(start);
      this.done = this.pos >= this.end; // no line starts in the range
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
  }

  /** Position after the first `\n` at or after `start - 1` (a line starts there), or `end` if none is before it. */
  private firstLineStart(start: number): number {
    const probe = Buffer.allocUnsafe(16 << 10);
    for (let at = start - 1; at < this.end; ) {
      const k = readFully(this.fd, probe, 0, Math.min(probe.length, this.end - at), at);
      if (k === 0) break;
      const nl = probe.subarray(0, k).indexOf(NEWLINE);
      if (nl >= 0) return at + nl + 1;
      at += k;
    }
    return this.end;
  }

  /**
   * Up to `n` next bytes into `dst` at `at`; their count, less than `n` only when the range's
   * lines end there (its last line ends at the first `\n` at or after the range's last byte).
   */
  read(dst: Uint8Array, at: number, n: number): number {
    if (this.done || n <= 0) return 0;
    const pos = this.pos;
    let k = readFully(this.fd, dst, at, Math.min(n, this.limit - pos), pos);
    if (pos + k > this.end - 1) {
      const from = Math.max(pos, this.end - 1) - pos;
      const nl = asBuffer(dst)
        .subarray(at, at + k)
        .indexOf(NEWLINE, from);
      if (nl >= 0) {
        k = nl + 1;
        this.done = true;
      }
    }
    if (k < n) this.done = true; // the file's (or the listed size's) end
    this.pos = pos + k;
    return k;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
