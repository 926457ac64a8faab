/**
 * Byte paths of string kernels for UTF-8 STRING vectors (columnar/utf8.ts): `=` / `!=` / `<` /
 * `<=` / `>` / `>=` against a literal or another UTF-8 column, startswith / endswith /
 * contains / instr with a literal, LIKE with a literal pattern of text and `%`, length, `<=>`
 * and IN with a list of string literals.
 * Each returns null when its case does not apply (a JS-string column, a pattern column, a
 * LIKE pattern with `_` or an escape, a literal with a lone surrogate), and the caller's
 * generic kernel runs over the decoded strings instead: the same result either way.
 */
import { isWellFormed, type Utf8Values, utf8Of } from "../columnar/utf8.js";
import {
  bytesCompare,
  bytesEndWith,
  bytesEqual,
  bytesStartWith,
  codePoints,
  rangesEqual,
  rowSearcher,
  wordView,
} from "../columnar/utf8-ops.js";
import { constantString, makeVector, type Vector } from "../columnar/vector.js";
import { BooleanType, IntegerType } from "../types/datatypes.js";
import { andValidity } from "./kernel-util.js";

/** A literal's UTF-8 bytes, or null when it holds a lone surrogate (only the string path can compare it). */
function literalBytes(v: Vector): Uint8Array | null {
  const s = constantString(v);
  return s !== undefined && isWellFormed(s) ? Buffer.from(s, "utf8") : null;
}

/** Per valid row, `test(row bytes)`; NULL where the column or the literal is NULL. */
function rowTest(
  u: Utf8Values,
  column: Vector,
  other: Vector,
  n: number,
  test: (bytes: Uint8Array, a: number, b: number) => boolean,
): Vector {
  const validity = andValidity(column.validity, other.validity, n);
  const out = new Uint8Array(n);
  const { bytes, offsets } = u;
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    out[i] = test(bytes, offsets[i]!, offsets[i + 1]!) ? 1 : 0;
  }
  return makeVector(BooleanType, out, validity, n);
}

/** Per row valid on both sides, `test(row range in a, row range in b)` over two UTF-8 columns. */
function pairTest(
  ua: Utf8Values,
  ub: Utf8Values,
  a: Vector,
  b: Vector,
  n: number,
  test: (xStart: number, xEnd: number, yStart: number, yEnd: number) => boolean,
): Vector {
  const validity = andValidity(a.validity, b.validity, n);
  const out = new Uint8Array(n);
  const xo = ua.offsets;
  const yo = ub.offsets;
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    out[i] = test(xo[i]!, xo[i + 1]!, yo[i]!, yo[i + 1]!) ? 1 : 0;
  }
  return makeVector(BooleanType, out, validity, n);
}

/** `a = b` (or `a != b` when `negate`) when either side is a UTF-8 column and the other a literal or UTF-8 column. */
export function utf8Equals(a: Vector, b: Vector, n: number, negate: boolean): Vector | null {
  const ua = utf8Of(a);
  const ub = utf8Of(b);
  if (ua !== undefined && ub !== undefined) {
    const x = ua.bytes;
    const y = ub.bytes;
    return pairTest(ua, ub, a, b, n, (xs, xe, ys, ye) => rangesEqual(x, xs, xe, y, ys, ye) !== negate);
  }
  const [u, column, other] = ua !== undefined ? [ua, a, b] : ub !== undefined ? [ub, b, a] : [undefined, a, b];
  if (u === undefined) return null;
  const lit = literalBytes(other);
  if (lit === null) return null;
  return rowTest(u, column, other, n, (bytes, s, e) => bytesEqual(bytes, s, e, lit) !== negate);
}

/** startswith / endswith with a literal. */
export function utf8Affix(a: Vector, b: Vector, n: number, end: boolean): Vector | null {
  const u = utf8Of(a);
  if (u === undefined) return null;
  const lit = literalBytes(b);
  if (lit === null) return null;
  return rowTest(u, a, b, n, end ? (x, s, e) => bytesEndWith(x, s, e, lit) : (x, s, e) => bytesStartWith(x, s, e, lit));
}

/** `<`, `<=`, `>`, `>=` (`test` of the three-way result) by unsigned bytes, which is code-point order. */
export function utf8Compare(a: Vector, b: Vector, n: number, test: (c: number) => boolean): Vector | null {
  const ua = utf8Of(a);
  const ub = utf8Of(b);
  if (ua !== undefined && ub !== undefined) {
    const x = ua.bytes;
    const y = ub.bytes;
    const xv = wordView(x);
    const yv = wordView(y);
    return pairTest(ua, ub, a, b, n, (xs, xe, ys, ye) => test(bytesCompare(x, xv, xs, xe, y, yv, ys, ye)));
  }
  const [u, column, other, flip] = ua !== undefined ? [ua, a, b, 1] : ub !== undefined ? [ub, b, a, -1] : [undefined, a, b, 1];
  const lit = u === undefined ? null : literalBytes(other);
  if (u === undefined || lit === null) return null;
  const xv = wordView(u.bytes);
  const lv = wordView(lit);
  // flip: the literal on the left (`'m' < s` is `s > 'm'`)
  return rowTest(u, column, other, n, (x, s, e) => test(flip * bytesCompare(x, xv, s, e, lit, lv, 0, lit.length)));
}

/** contains with a literal. */
export function utf8Contains(a: Vector, b: Vector, n: number): Vector | null {
  const u = utf8Of(a);
  const lit = u === undefined ? null : literalBytes(b);
  if (u === undefined || lit === null) return null;
  const find = rowSearcher(u.bytes, lit);
  return rowTest(u, a, b, n, (_x, s, e) => find(s, e) >= 0);
}

/** instr with a literal: the 1-based character (code point) position of the first match, 0 for none. */
export function utf8Instr(a: Vector, b: Vector, n: number): Vector | null {
  const u = utf8Of(a);
  const lit = u === undefined ? null : literalBytes(b);
  if (u === undefined || lit === null) return null;
  const validity = andValidity(a.validity, b.validity, n);
  const out = new Int32Array(n);
  const { bytes, offsets, ascii } = u;
  const find = rowSearcher(bytes, lit);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const s = offsets[i]!;
    const at = find(s, offsets[i + 1]!);
    out[i] = at < 0 ? 0 : (ascii ? at - s : codePoints(bytes, s, at)) + 1;
  }
  return makeVector(IntegerType, out, validity, n);
}

/**
 * LIKE with a literal pattern of plain text and `%` (no `_`, no escape): the text before the
 * first `%` is a prefix, after the last a suffix, and each piece between is found after the
 * previous one (leftmost matches suffice when `%` is the only wildcard).
 */
export function utf8Like(a: Vector, b: Vector, n: number, escapeChar: string): Vector | null {
  const u = utf8Of(a);
  const pattern = constantString(b);
  if (u === undefined || pattern === undefined || !isWellFormed(pattern)) return null;
  if (pattern.includes("_") || pattern.includes(escapeChar)) return null;
  const pieces = pattern.split("%").map((p) => Buffer.from(p, "utf8"));
  if (pieces.length === 1) return rowTest(u, a, b, n, (x, s, e) => bytesEqual(x, s, e, pieces[0]!));
  const prefix = pieces[0]!;
  const suffix = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
  const finders = middle.map((p) => rowSearcher(u.bytes, p));
  const fixed = prefix.length + suffix.length;
  return rowTest(u, a, b, n, (x, s, e) => {
    if (e - s < fixed || !bytesStartWith(x, s, e, prefix) || !bytesEndWith(x, s, e, suffix)) return false;
    let p = s + prefix.length;
    const end = e - suffix.length;
    for (let k = 0; k < middle.length; k++) {
      const at = finders[k]!(p, end);
      if (at < 0) return false;
      p = at + middle[k]!.length;
    }
    return true;
  });
}

/** length (characters = code points) of a UTF-8 column. */
export function utf8Length(a: Vector, n: number): Vector | null {
  const u = utf8Of(a);
  if (u === undefined) return null;
  const out = new Int32Array(n);
  const { bytes, offsets } = u;
  if (u.ascii) for (let i = 0; i < n; i++) out[i] = offsets[i + 1]! - offsets[i]!;
  else for (let i = 0; i < n; i++) out[i] = codePoints(bytes, offsets[i]!, offsets[i + 1]!);
  return makeVector(IntegerType, out, a.validity === null ? null : a.validity.slice(0, n), n);
}

/** `a <=> b` (NULL-safe equality: two NULLs are equal, a NULL and a value are not) on the bytes. */
export function utf8NullSafeEquals(a: Vector, b: Vector, n: number): Vector | null {
  const eq = utf8Equals(a, b, n, false);
  if (eq === null) return null;
  if (eq.validity === null) return eq;
  const out = eq.values as Uint8Array;
  for (let i = 0; i < n; i++) {
    if (eq.validity[i] !== 0) continue;
    const an = a.validity !== null && a.validity[i] === 0;
    const bn = b.validity !== null && b.validity[i] === 0;
    out[i] = an && bn ? 1 : 0;
  }
  return makeVector(BooleanType, out, null, n);
}

/**
 * `x IN ('a', 'b', ...)` for a UTF-8 column and a list of non-NULL string literals: each row's
 * bytes against the literals of its byte length. Null when the list holds anything else (a
 * column, a NULL, a lone surrogate): the generic kernel decides those.
 */
export function utf8In(x: Vector, list: readonly Vector[], n: number): Vector | null {
  const u = utf8Of(x);
  if (u === undefined || list.length === 0) return null;
  const byLength = new Map<number, Uint8Array[]>();
  for (const l of list) {
    const lit = literalBytes(l);
    if (lit === null) return null;
    const same = byLength.get(lit.length);
    if (same) same.push(lit);
    else byLength.set(lit.length, [lit]);
  }
  return rowTest(u, x, x, n, (bytes, s, e) => {
    const candidates = byLength.get(e - s);
    if (candidates === undefined) return false;
    for (const lit of candidates) if (bytesEqual(bytes, s, e, lit)) return true;
    return false;
  });
}
