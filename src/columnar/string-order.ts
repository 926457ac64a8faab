/**
 * The comparator for the strings of STRING vectors (common/string-order.ts): JS's native order
 * where it is code-point order for every pair the kernel will compare (no row holds a character
 * beyond U+FFFF; or, comparing row i of one vector with row i of another, one of them holds no
 * UTF-16 unit >= 0xD800), the exact code-point comparator otherwise. A literal is asked once; a
 * UTF-8 vector answers from its bytes without decoding a row.
 */
import { compareStrings, compareUtf16, hasHighUnit, hasSurrogate } from "../common/string-order.js";
import { utf8Of } from "./utf8.js";
import { constantString, type Vector } from "./vector.js";

/** Some string among rows [0, n) of `v` passes `test`; `minLead`: the smallest UTF-8 lead byte of a character that does. */
function anyRow(v: Vector, n: number, test: (s: string) => boolean, minLead: number): boolean {
  const c = constantString(v);
  if (c !== undefined) return test(c);
  const u = utf8Of(v);
  if (u !== undefined) {
    if (u.ascii) return false;
    const bytes = u.bytes;
    const end = u.offsets[n]!;
    for (let p = u.offsets[0]!; p < end; p++) if (bytes[p]! >= minLead) return true;
    return false;
  }
  const vals = v.values;
  if (!Array.isArray(vals)) return false;
  for (let i = 0; i < n; i++) {
    const s = vals[i];
    if (typeof s === "string" && test(s)) return true;
  }
  return false;
}

/** Some row of `v` (rows [0, n)) is a string holding a surrogate unit (4-byte UTF-8). */
export function anySurrogate(v: Vector, n: number = v.length): boolean {
  return anyRow(v, n, hasSurrogate, 0xf0);
}

/** An exact code-point comparator for any two strings of these vectors' first n rows. */
export function stringOrderOf(vectors: readonly Vector[], n: number): (a: string, b: string) => number {
  return vectors.some((v) => anySurrogate(v, n)) ? compareStrings : compareUtf16;
}

/**
 * An exact code-point comparator for row i of `a` against row i of `b`. A literal without a
 * unit >= 0xD800 (U+E000 and above: UTF-8 lead 0xEE or more) makes it JS's native order at
 * the cost of one test.
 */
export function rowPairOrder(a: Vector, b: Vector, n: number): (x: string, y: string) => number {
  if (!anyRow(b, n, hasHighUnit, 0xee) || !anyRow(a, n, hasHighUnit, 0xee)) return compareUtf16;
  return stringOrderOf([a, b], n);
}
