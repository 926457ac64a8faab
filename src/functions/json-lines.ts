/**
 * The input of from_json as one JSON-lines buffer for the byte scanner: one line per row. A
 * value the line reader would split or skip (NULL, blank, the literal null, a top-level array,
 * a line break inside, anything that does not end with `}`) is replaced by {} and its row made
 * NULL (NULL, blank, null) or listed in `alone` to be re-read by itself. Three inputs: JS strings, BINARY values (Uint8Array per row), and bytes +
 * offsets (a UTF-8 STRING vector, or a contiguous BINARY one such as Kafka's `value`), which
 * are copied once into the buffer with no string per row.
 */
import { binaryAt, binaryOf, copyWords } from "../columnar/binary.js";
import { utf8Of, utf8String } from "../columnar/utf8.js";
import type { Vector } from "../columnar/vector.js";

export interface JsonLines {
  readonly bytes: Buffer;
  /** Rows to re-read alone (a line break inside, a top-level array, or not ending with `}`). */
  readonly alone: number[];
}

/** The lines of `input`'s n rows; NULL and blank rows are cleared in `validity`. */
export function jsonLinesOf(input: Vector, n: number, validity: Uint8Array): JsonLines {
  const ranges = utf8Of(input) ?? binaryOf(input);
  if (ranges !== undefined) return linesOfRanges(ranges.bytes, ranges.offsets, input.validity, n, validity);
  return input.type.kind === "binary" ? linesOfBytes(input, n, validity) : linesOfStrings(input, n, validity);
}

/** Row i as a JS string (the caller knows it is not NULL): error messages and the rare rows re-read alone. */
export function valueText(input: Vector, i: number): string {
  const u = utf8Of(input);
  if (u !== undefined) return utf8String(u, i);
  const b = binaryOf(input);
  if (b !== undefined) return binaryAt(b, i).toString("utf8");
  const v = input.values[i] as string | Uint8Array;
  return typeof v === "string" ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("utf8");
}

function linesOfStrings(input: Vector, n: number, validity: Uint8Array): JsonLines {
  const values = input.values as (string | null)[];
  const lines = new Array<string>(n);
  const alone: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = input.validity !== null && input.validity[i] === 0 ? null : values[i]!;
    if (v === null || v.trim() === "" || v.trim() === "null") {
      validity[i] = 0;
      lines[i] = "{}";
    } else if (v.includes("\n") || v.includes("\r") || v.trimStart().startsWith("[") || !v.trimEnd().endsWith("}")) {
      alone.push(i);
      lines[i] = "{}";
    } else lines[i] = v;
  }
  return { bytes: Buffer.from(lines.join("\n"), "utf8"), alone };
}

const EMPTY_OBJECT = Buffer.from("{}");

/** Whether `v[a, b)` goes on a line of its own: -1 blank (NULL row), 0 alone, 1 as it is. */
function lineKind(v: Uint8Array, a: number, b: number): -1 | 0 | 1 {
  // Leading white space as the string path's trim() skips it.
  let first = a;
  while (first < b && (v[first] === 32 || (v[first]! >= 9 && v[first]! <= 13))) first++;
  if (first === b || isNullLiteral(v, first, b)) return -1;
  if (v[first] === 91 || !endsWithBrace(v, first, b)) return 0;
  for (let p = first; p < b; p++) if (v[p] === 10 || v[p] === 13) return 0;
  return 1;
}

/**
 * Does the value's last non-blank byte close an object? When not, something may follow the
 * first object (`{"a":1} x`: Spark reads the object and ignores the rest), which the line
 * reader would call malformed: the row is re-read alone.
 */
function endsWithBrace(v: Uint8Array, first: number, b: number): boolean {
  let last = b - 1;
  while (last > first && (v[last] === 32 || (v[last]! >= 9 && v[last]! <= 13))) last--;
  return v[last] === 125;
}

/** `lineKind` of a range known to hold no line break. */
function startKind(v: Uint8Array, a: number, b: number): -1 | 0 | 1 {
  let first = a;
  while (first < b && (v[first] === 32 || (v[first]! >= 9 && v[first]! <= 13))) first++;
  if (first === b || isNullLiteral(v, first, b)) return -1;
  return v[first] === 91 || !endsWithBrace(v, first, b) ? 0 : 1;
}

/** `v[a, b)` is the JSON literal null (white space after it): Spark's from_json gives NULL, the line reader no row. */
export function isNullLiteral(v: Uint8Array, a: number, b: number): boolean {
  if (b - a < 4 || v[a] !== 110 || v[a + 1] !== 117 || v[a + 2] !== 108 || v[a + 3] !== 108) return false;
  for (let p = a + 4; p < b; p++) if (!(v[p] === 32 || (v[p]! >= 9 && v[p]! <= 13))) return false;
  return true;
}

/** BINARY values, a Uint8Array per row: copied once into one buffer. */
function linesOfBytes(input: Vector, n: number, validity: Uint8Array): JsonLines {
  const values = input.values as (Uint8Array | null)[];
  const alone: number[] = [];
  const parts = new Array<Uint8Array>(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = input.validity !== null && input.validity[i] === 0 ? null : values[i]!;
    let part: Uint8Array = EMPTY_OBJECT;
    if (v === null) validity[i] = 0;
    else {
      const kind = lineKind(v, 0, v.length);
      if (kind < 0) validity[i] = 0;
      else if (kind === 0) alone.push(i);
      else part = v;
    }
    parts[i] = part;
    total += part.length + 1;
  }
  const bytes = Buffer.allocUnsafe(Math.max(0, total - 1));
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) bytes[at++] = 10;
    bytes.set(parts[i]!, at);
    at += parts[i]!.length;
  }
  return { bytes, alone };
}

/** Rows as ranges of one buffer: each copied once, no object per row. */
function linesOfRanges(src: Uint8Array, off: Int32Array, inValidity: Uint8Array | null, n: number, validity: Uint8Array): JsonLines {
  const buf = Buffer.isBuffer(src) ? src : Buffer.from(src.buffer, src.byteOffset, src.byteLength);
  const breaks = rowsWithLineBreaks(buf, off, n);
  const alone: number[] = [];
  // Per row: 1 = its own bytes, 0 = {} in its place.
  const own = new Uint8Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const a = off[i]!;
    const b = off[i + 1]!;
    let kind: -1 | 0 | 1 = -1;
    if (inValidity === null || inValidity[i] !== 0) kind = breaks !== null && breaks[i] === 1 ? lineKind(buf, a, b) : startKind(buf, a, b);
    if (kind < 0) validity[i] = 0;
    else if (kind === 0) alone.push(i);
    own[i] = kind > 0 ? 1 : 0;
    total += (kind > 0 ? b - a : 2) + 1;
  }
  const bytes = Buffer.allocUnsafe(Math.max(0, total - 1));
  const from = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const to = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) bytes[at++] = 10;
    if (own[i] === 0) {
      bytes[at++] = 123;
      bytes[at++] = 125;
      continue;
    }
    const a = off[i]!;
    const b = off[i + 1]!;
    copyWords(from, a, b, to, at);
    at += b - a;
  }
  return { bytes, alone };
}

/**
 * The rows holding a \n or \r (1), found natively over all the bytes at once; null when none
 * does (the common case: then no row is scanned for them).
 */
function rowsWithLineBreaks(buf: Buffer, off: Int32Array, n: number): Uint8Array | null {
  let marks: Uint8Array | null = null;
  const end = off[n]!;
  for (const c of [10, 13]) {
    let row = 0;
    for (let p = buf.indexOf(c, off[0]!); p >= 0 && p < end; p = buf.indexOf(c, p + 1)) {
      while (off[row + 1]! <= p) row++;
      (marks ??= new Uint8Array(n))[row] = 1;
    }
  }
  return marks;
}
