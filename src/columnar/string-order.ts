/**
 * The comparator for the strings of STRING vectors (common/string-order.ts): JS's native order
 * when no row holds a character beyond U+FFFF (it is code-point order then, and the fastest),
 * the exact code-point comparator otherwise. A UTF-8 vector answers from its bytes (a 4-byte
 * sequence is such a character) without decoding a row.
 */
import { compareStrings, compareUtf16, hasSurrogate } from "../common/string-order.js";
import { utf8Of } from "./utf8.js";
import { constantString, type Vector } from "./vector.js";

/** Some row of `v` (rows [0, n)) is a string holding a surrogate unit. */
export function anySurrogate(v: Vector, n: number = v.length): boolean {
  const c = constantString(v);
  if (c !== undefined) return hasSurrogate(c);
  const u = utf8Of(v);
  if (u !== undefined) {
    if (u.ascii) return false;
    const bytes = u.bytes;
    const end = u.offsets[n]!;
    for (let p = u.offsets[0]!; p < end; p++) if (bytes[p]! >= 0xf0) return true;
    return false;
  }
  const vals = v.values;
  if (!Array.isArray(vals)) return false;
  for (let i = 0; i < n; i++) {
    const s = vals[i];
    if (typeof s === "string" && hasSurrogate(s)) return true;
  }
  return false;
}

/** An exact code-point comparator for any two strings of these vectors' first n rows. */
export function stringOrderOf(vectors: readonly Vector[], n: number): (a: string, b: string) => number {
  return vectors.some((v) => anySurrogate(v, n)) ? compareStrings : compareUtf16;
}
