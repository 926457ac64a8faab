/**
 * Byte paths of string kernels for UTF-8 STRING vectors (columnar/utf8.ts): `=` / `!=` against
 * a literal or another UTF-8 column, startswith / endswith / LIKE with a literal prefix or
 * suffix, and length. Each returns null when its case does not apply (a JS-string column, a
 * pattern column, a LIKE pattern with `_` or an inner `%`), and the caller's generic kernel
 * runs over the decoded strings instead: the same result either way.
 */
import { isWellFormed, type Utf8Values, utf8Of } from "../columnar/utf8.js";
import { bytesEndWith, bytesEqual, bytesStartWith, codePoints, rangesEqual } from "../columnar/utf8-ops.js";
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

/** `a = b` (or `a != b` when `negate`) when either side is a UTF-8 column and the other a literal or UTF-8 column. */
export function utf8Equals(a: Vector, b: Vector, n: number, negate: boolean): Vector | null {
  const ua = utf8Of(a);
  const ub = utf8Of(b);
  if (ua !== undefined && ub !== undefined) {
    const validity = andValidity(a.validity, b.validity, n);
    const out = new Uint8Array(n);
    const x = ua.bytes;
    const y = ub.bytes;
    const xo = ua.offsets;
    const yo = ub.offsets;
    for (let i = 0; i < n; i++) {
      if (validity !== null && validity[i] === 0) continue;
      out[i] = rangesEqual(x, xo[i]!, xo[i + 1]!, y, yo[i]!, yo[i + 1]!) !== negate ? 1 : 0;
    }
    return makeVector(BooleanType, out, validity, n);
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

/**
 * LIKE with a literal pattern that is a plain string, a prefix (`abc%`) or a suffix (`%abc`):
 * no `_`, no escape, no `%` inside.
 */
export function utf8Like(a: Vector, b: Vector, n: number): Vector | null {
  const u = utf8Of(a);
  const pattern = constantString(b);
  if (u === undefined || pattern === undefined || !isWellFormed(pattern)) return null;
  if (pattern.includes("_") || pattern.includes("\\")) return null;
  const prefix = /^([^%]*)%+$/.exec(pattern);
  const suffix = /^%+([^%]*)$/.exec(pattern);
  if (prefix) {
    const lit = Buffer.from(prefix[1]!, "utf8");
    return rowTest(u, a, b, n, (x, s, e) => bytesStartWith(x, s, e, lit));
  }
  if (suffix) {
    const lit = Buffer.from(suffix[1]!, "utf8");
    return rowTest(u, a, b, n, (x, s, e) => bytesEndWith(x, s, e, lit));
  }
  if (pattern.includes("%")) return null;
  const lit = Buffer.from(pattern, "utf8");
  return rowTest(u, a, b, n, (x, s, e) => bytesEqual(x, s, e, lit));
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
