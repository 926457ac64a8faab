/**
 * Per-row work on UTF-8 STRING rows (columnar/utf8.ts) without making JS strings: hashes equal
 * to `hashString` of the decoded string (so a key hashes the same whichever layout its batch
 * has), comparison with a JS string, equality / prefix / suffix / substring search against
 * encoded literals, byte order (= code-point order), and the length in characters (code
 * points, as `length` counts).
 */

/** FNV-1a over the UTF-16 code units `bytes[a, b)` decodes to: equals `hashString` of that string. */
export function hashUtf8(bytes: Uint8Array, a: number, b: number): number {
  let h = 0x811c9dc5;
  let p = a;
  while (p < b) {
    const c = bytes[p]!;
    if (c < 0x80) {
      h = Math.imul(h ^ c, 0x01000193);
      p++;
      continue;
    }
    const cp = decodeAt(bytes, p, c);
    p += c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (cp < 0x10000) h = Math.imul(h ^ cp, 0x01000193);
    else {
      const x = cp - 0x10000;
      h = Math.imul(h ^ (0xd800 + (x >> 10)), 0x01000193);
      h = Math.imul(h ^ (0xdc00 + (x & 0x3ff)), 0x01000193);
    }
  }
  return h;
}

/** The code point of the multi-byte sequence at p (valid UTF-8; lead byte c). */
function decodeAt(bytes: Uint8Array, p: number, c: number): number {
  if (c < 0xe0) return ((c & 0x1f) << 6) | (bytes[p + 1]! & 0x3f);
  if (c < 0xf0) return ((c & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f);
  return ((c & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f);
}

/** `bytes[a, b)` decodes to exactly `s`. */
export function utf8EqualsString(bytes: Uint8Array, a: number, b: number, s: string): boolean {
  let p = a;
  const n = s.length;
  for (let k = 0; k < n; k++) {
    if (p >= b) return false;
    const c = bytes[p]!;
    if (c < 0x80) {
      if (s.charCodeAt(k) !== c) return false;
      p++;
      continue;
    }
    const cp = decodeAt(bytes, p, c);
    p += c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (cp < 0x10000) {
      if (s.charCodeAt(k) !== cp) return false;
    } else {
      const x = cp - 0x10000;
      if (s.charCodeAt(k) !== 0xd800 + (x >> 10) || s.charCodeAt(k + 1) !== 0xdc00 + (x & 0x3ff)) return false;
      k++;
    }
  }
  return p === b;
}

/** `bytes[a, b)` equals `lit` byte for byte. */
export function bytesEqual(bytes: Uint8Array, a: number, b: number, lit: Uint8Array): boolean {
  const n = lit.length;
  if (b - a !== n) return false;
  for (let k = 0; k < n; k++) if (bytes[a + k] !== lit[k]) return false;
  return true;
}

/** `bytes[a, b)` starts with `lit` (whole characters: `lit` is valid UTF-8, so a byte prefix is a string prefix). */
export function bytesStartWith(bytes: Uint8Array, a: number, b: number, lit: Uint8Array): boolean {
  const n = lit.length;
  if (b - a < n) return false;
  for (let k = 0; k < n; k++) if (bytes[a + k] !== lit[k]) return false;
  return true;
}

export function bytesEndWith(bytes: Uint8Array, a: number, b: number, lit: Uint8Array): boolean {
  const n = lit.length;
  if (b - a < n) return false;
  const s = b - n;
  for (let k = 0; k < n; k++) if (bytes[s + k] !== lit[k]) return false;
  return true;
}

/** Characters (code points) in `bytes[a, b)`: the bytes that do not continue a sequence. */
export function codePoints(bytes: Uint8Array, a: number, b: number): number {
  let n = 0;
  for (let p = a; p < b; p++) if ((bytes[p]! & 0xc0) !== 0x80) n++;
  return n;
}

/** Two ranges hold the same bytes. */
export function rangesEqual(x: Uint8Array, a: number, b: number, y: Uint8Array, c: number, d: number): boolean {
  if (b - a !== d - c) return false;
  for (let k = 0; k < b - a; k++) if (x[a + k] !== y[c + k]) return false;
  return true;
}

/** A DataView over the bytes of `b`, for `bytesCompare` to read four bytes at a time. */
export function wordView(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * Unsigned byte order of `x[a, b)` and `y[c, d)` (`xv`, `yv`: their `wordView`s): negative, 0
 * or positive. For valid UTF-8 this is code-point order, Spark's UTF8_BINARY
 * (common/string-order.ts gives the same sign for the decoded strings).
 */
export function bytesCompare(x: Uint8Array, xv: DataView, a: number, b: number, y: Uint8Array, yv: DataView, c: number, d: number): number {
  const n = Math.min(b - a, d - c);
  let k = 0;
  // Equal four-byte words skipped at once (a long common prefix costs a quarter of the steps).
  while (k + 4 <= n && xv.getUint32(a + k) === yv.getUint32(c + k)) k += 4;
  for (; k < n; k++) {
    const p = x[a + k]!;
    const q = y[c + k]!;
    if (p !== q) return p - q;
  }
  return b - a - (d - c);
}

/**
 * First position of `lit` in `bytes[from, to)`, or -1. A match always starts on a character
 * (a UTF-8 lead byte never equals a continuation byte), so it is a substring match.
 */
export function bytesIndexOf(bytes: Uint8Array, from: number, to: number, lit: Uint8Array): number {
  const m = lit.length;
  if (m === 0) return from;
  const first = lit[0]!;
  const last = to - m;
  outer: for (let p = from; p <= last; p++) {
    if (bytes[p] !== first) continue;
    for (let k = 1; k < m; k++) if (bytes[p + k] !== lit[k]) continue outer;
    return p;
  }
  return -1;
}

/**
 * Finds `lit` in the row ranges of `bytes`, asked row after row: a short row is scanned here, a
 * long one by Buffer's native search, whose match (the first at or after where it started) also
 * answers the following rows up to it, so one native call covers a run of rows with no match.
 * Returns the first position of `lit` in `[from, to)`, or -1.
 */
export function rowSearcher(bytes: Uint8Array, lit: Uint8Array): (from: number, to: number) => number {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const m = lit.length;
  let searchedFrom = -1; // where the native search last started (-1: never)
  let found = -1; // its answer: the first match at or after searchedFrom, -1 for none
  return (from, to) => {
    if (m === 0) return from;
    if (to - from <= 32) return bytesIndexOf(bytes, from, to, lit);
    if (searchedFrom < 0 || from < searchedFrom || (found !== -1 && found < from)) {
      searchedFrom = from;
      found = buf.indexOf(lit, from);
    }
    return found !== -1 && found + m <= to ? found : -1;
  };
}
