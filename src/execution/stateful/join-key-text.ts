/**
 * A join key's text (`joinKey`, the state's key) and its hash (FNV-1a of that text, which picks
 * its state partition: partitionOf) straight from the key's columns, for keys made of numbers and flat structs of
 * numbers (ids, windows): `fastKey` writes the text from the typed arrays, `fastHash`
 * hashes the same text without writing it — what a decode thread needs to route a row
 * (parallel/join-routing.ts) and a join table to find the key (state/join/key-index.ts).
 * Either answers null for a row only the generic path can write: a NULL, NaN, infinity or wide
 * BIGINT in its key.
 */
import { isInt64Type, isSafe } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import type { DataType } from "../../types/datatypes.js";

/** The text of part of a key at row i, or null when only the generic path can write it. */
type PartText = (i: number) => string | null;

/** A number as JSON writes it, or null where the key needs the generic path (NaN, infinities, wide BIGINTs). */
function numberPart(v: Vector): ((i: number) => string | null) | null {
  const vals = v.values;
  if (!(vals instanceof Float64Array || vals instanceof Int32Array) || v.children || v.type.kind === "boolean") return null;
  const int64 = isInt64Type(v.type);
  const valid = v.validity;
  return (i) => {
    if (valid !== null && valid[i] === 0) return null;
    const x = vals[i]!;
    if (!Number.isFinite(x) || (int64 && !isSafe(x) && Number.isInteger(x))) return null;
    return `${x}`;
  };
}

/** Field names a plain object keeps in declaration order, each once (no index-like names). */
const orderedNames = (names: readonly string[]): boolean =>
  new Set(names).size === names.length && names.every((n) => n !== "__proto__" && !/^(0|[1-9]\d*)$/.test(n));

function columnPart(v: Vector): PartText | null {
  if (!v.children) return numberPart(v);
  const names = (v.type as Extract<DataType, { kind: "struct" }>).fields.map((f) => f.name);
  if (names.length === 0 || !orderedNames(names)) return null;
  const fields = v.children.map(numberPart);
  if (fields.some((f) => f === null)) return null;
  const heads = names.map((n, f) => `${f === 0 ? "{" : ","}${JSON.stringify(n)}:`);
  const valid = v.validity;
  const raw = v.children.map((c) => c.values as Float64Array | Int32Array);
  const rawValid = v.children.map((c) => c.validity);
  // Rows of one window follow each other: the last row's text is reused while its fields
  // repeat (they were written once, so they are finite; -0 and 0 write alike).
  const last = new Float64Array(raw.length);
  let lastText: string | null = null;
  return (i) => {
    if (valid !== null && valid[i] === 0) return null;
    if (lastText !== null) {
      let same = true;
      for (let f = 0; f < raw.length && same; f++) same = raw[f]![i] === last[f] && (rawValid[f] === null || rawValid[f]![i] === 1);
      if (same) return lastText;
    }
    let s = "";
    for (let f = 0; f < fields.length; f++) {
      const x = fields[f]!(i);
      if (x === null) return null;
      s += heads[f]! + x;
    }
    for (let f = 0; f < raw.length; f++) last[f] = raw[f]![i]!;
    lastText = `${s}}`;
    return lastText;
  };
}

/** The key text of row i straight from the columns, or null: take `joinKey` of the row's values. */
export function fastKey(cols: readonly Vector[]): ((i: number) => string | null) | null {
  const parts = cols.map(columnPart);
  if (parts.length === 0 || parts.some((p) => p === null)) return null;
  if (parts.length === 2) {
    const [a, b] = parts as [PartText, PartText];
    return (i) => {
      const x = a(i);
      const y = x === null ? null : b(i);
      return y === null ? null : `[${x},${y}]`;
    };
  }
  return (i) => {
    let s = "[";
    for (let p = 0; p < parts.length; p++) {
      const x = parts[p]!(i);
      if (x === null) return null;
      s += p === 0 ? x : `,${x}`;
    }
    return `${s}]`;
  };
}

/** The key's event time straight from column `v` (a time, or a window's end) when fastKey wrote the key. */
export function fastTime(v: Vector): (i: number) => number {
  if (!v.children) {
    const vals = v.values as Float64Array;
    return (i) => vals[i]!;
  }
  const f = (v.type as Extract<DataType, { kind: "struct" }>).fields.findIndex((x) => x.name === "end");
  if (f < 0) return () => Number.NaN; // a struct that is no window: no time (as endOf)
  const end = v.children[f]!.values as Float64Array;
  return (i) => end[i]!;
}

const FNV_OFFSET = 0x811c9dc5;
const step = (h: number, code: number): number => Math.imul(h ^ code, 0x01000193);

/** FNV-1a over `s`'s characters, from state `h`: `hashString` (common/hash.ts) continued, as partitionOf hashes a key's text. */
function hashText(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = step(h, s.charCodeAt(i));
  return h;
}

const digits = new Int32Array(20);

/** Writes the decimal digits of a non-negative int32 `v` into `digits` from `n` on, lowest first; the new count. */
function int32Digits(v: number, n: number): number {
  // int32 division by a constant is a multiply and a shift; on doubles `%` is a call to fmod
  do {
    const q = (v / 10) | 0;
    digits[n++] = v - q * 10;
    v = q;
  } while (v > 0);
  return n;
}

/** FNV-1a over the text `${x}` writes for a safe integer x, without writing it. */
function hashSafeInteger(h: number, x: number): number {
  if (x < 0) {
    h = step(h, 45); // "-"
    x = -x;
  }
  let n: number;
  if (x < 1e9) n = int32Digits(x | 0, 0);
  else {
    // two parts below 2^31: nine low digits (zeros kept), then the rest
    const hi = Math.floor(x / 1e9);
    let lo = (x - hi * 1e9) | 0;
    for (n = 0; n < 9; n++) {
      const q = (lo / 10) | 0;
      digits[n] = lo - q * 10;
      lo = q;
    }
    n = int32Digits(hi, n);
  }
  while (n > 0) h = step(h, 48 + digits[--n]!);
  return h;
}

/** Hashes part of a key at row i on from state h, or null where only the generic path can write it. */
type PartHash = (h: number, i: number) => number | null;

function numberHash(v: Vector): PartHash | null {
  const text = numberPart(v);
  if (text === null) return null;
  const vals = v.values as Float64Array | Int32Array;
  const valid = v.validity;
  const int64 = isInt64Type(v.type);
  return (h, i) => {
    if (valid !== null && valid[i] === 0) return null;
    const x = vals[i]!;
    if (Number.isSafeInteger(x)) return hashSafeInteger(h, x);
    if (!Number.isFinite(x) || (int64 && !isSafe(x) && Number.isInteger(x))) return null;
    return hashText(h, `${x}`);
  };
}

/**
 * FNV-1a over `s` from any state h in O(1) after the first rows: for characters below 256,
 * `h ^ c` changes only h's low byte, and the low byte of a product depends only on the low
 * bytes of its factors, so hashing n characters from h gives P^n × (h with its low byte
 * cleared) + T[h's low byte] (mod 2^32), T depending on s alone. A struct key part (a window)
 * repeats over a run of rows after parts that differ (an id): T fills as low bytes come.
 * (Wider characters go step by step.)
 */
export class TextHash {
  private codes = new Uint16Array(0);
  private narrow = true;
  private pn = 1;
  private readonly table = new Int32Array(256);
  private readonly known = new Uint8Array(256);

  /** Hash `s` from now on (the table of the previous text is dropped). */
  reset(s: string): void {
    const cs = new Uint16Array(s.length);
    let narrow = true;
    let pn = 1;
    for (let c = 0; c < s.length; c++) {
      cs[c] = s.charCodeAt(c);
      if (cs[c]! > 0xff) narrow = false;
      pn = Math.imul(pn, 0x01000193);
    }
    this.codes = cs;
    this.narrow = narrow;
    this.pn = pn;
    this.known.fill(0);
  }

  /** FNV-1a of the text from state h (as int32). */
  from(h: number): number {
    if (!this.narrow) return this.steps(h);
    const lo = h & 0xff;
    if (this.known[lo] === 0) {
      this.table[lo] = this.steps(lo);
      this.known[lo] = 1;
    }
    return (Math.imul(this.pn, h & ~0xff) + this.table[lo]!) | 0;
  }

  private steps(h: number): number {
    // (a local copy: the field would be read again on every step)
    const cs = this.codes;
    for (let c = 0; c < cs.length; c++) h = Math.imul(h ^ cs[c]!, 0x01000193);
    return h;
  }
}

function columnHash(v: Vector): PartHash | null {
  if (!v.children) return numberHash(v);
  // a struct's text is written once per run of equal rows (columnPart): hashed from it
  const text = columnPart(v);
  if (text === null) return null;
  let last: string | null = null;
  const hash = new TextHash();
  return (h, i) => {
    const s = text(i);
    if (s === null) return null;
    if (s !== last) {
      last = s;
      hash.reset(s);
    }
    return hash.from(h);
  };
}

/**
 * The hash of row i's key straight from the columns — keyTextHash(fastKey's text), the FNV-1a
 * that picks the key's state partition (partitionOf) and finds it in a join table — or null
 * where fastKey would answer null (take the generic path).
 */
export function fastHash(cols: readonly Vector[]): ((i: number) => number | null) | null {
  const parts = cols.map(columnHash);
  if (parts.length === 0 || parts.some((p) => p === null)) return null;
  const hashes = parts as PartHash[];
  return (i) => {
    let h = step(FNV_OFFSET, 91); // "["
    for (let p = 0; p < hashes.length; p++) {
      if (p > 0) h = step(h, 44); // ","
      const next = hashes[p]!(h, i);
      if (next === null) return null;
      h = next;
    }
    return step(h, 93); // "]"
  };
}
