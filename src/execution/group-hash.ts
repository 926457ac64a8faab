/**
 * The hash of a key's leaves (group-leaves.ts): a column at a time for a whole batch, or row by
 * row for the few rows that start a run of one key; both give the same hash. A key hashes alike
 * whatever layout its batch had (a UTF-8 string as the string it decodes to, a safe BIGINT as
 * its double on either lane).
 */
import { hashBig, MAX_SAFE } from "../columnar/int64.js";
import { hashUtf8 } from "../columnar/utf8-ops.js";
import { valueKeyText } from "../columnar/value-key.js";
import { hashString, mix, NULL_HASH, SEED } from "../common/hash.js";
import { exactOf, type Leaf, type NumArray } from "./group-leaves.js";

/** A number's hash (NaN hashes as 0: `rowEquals` groups NaN with NaN, so the hash need not tell NaNs apart). */
function hashNumber(x: number): number {
  const lo = x | 0;
  const hi = (x / 4294967296) | 0;
  const frac = ((x - Math.floor(x)) * 1e9) | 0;
  return lo ^ Math.imul(hi, 0x9e3779b1) ^ Math.imul(frac, 0x85ebca6b);
}

/** Hash every row of the key leaves into `out` (a column at a time), but those `skip` marks. */
export function hashRows(leaves: readonly Leaf[], n: number, out: Int32Array, skip?: Uint8Array): void {
  if (skip !== undefined) {
    hashSome(leaves, n, out, skip);
    return;
  }
  out.fill(SEED, 0, n);
  for (const leaf of leaves) {
    const valid = leaf.validity;
    if (leaf.int64) {
      // Safe values hash as the doubles they are on either lane; the rest by their 64 bits.
      const v = leaf.values as Float64Array;
      for (let i = 0; i < n; i++) {
        const x = v[i]!;
        out[i] = mix(
          out[i]!,
          valid !== null && valid[i] === 0 ? NULL_HASH : x <= MAX_SAFE && x >= -MAX_SAFE ? hashNumber(x) : hashBig(exactOf(leaf, i)),
        );
      }
    } else if (leaf.utf8 !== undefined) {
      // the hash of the string the bytes decode to: a key hashes alike in either layout
      const { bytes, offsets } = leaf.utf8;
      for (let i = 0; i < n; i++)
        out[i] = mix(out[i]!, valid !== null && valid[i] === 0 ? NULL_HASH : hashUtf8(bytes, offsets[i]!, offsets[i + 1]!));
    } else if (leaf.numeric) {
      const v = leaf.values as NumArray;
      for (let i = 0; i < n; i++) out[i] = mix(out[i]!, valid !== null && valid[i] === 0 ? NULL_HASH : hashNumber(v[i]!));
    } else {
      const v = leaf.values as unknown[];
      for (let i = 0; i < n; i++) {
        const x = v[i];
        out[i] = mix(
          out[i]!,
          valid !== null && valid[i] === 0 ? NULL_HASH : typeof x === "string" ? hashString(x) : hashString(valueKeyText(x)),
        );
      }
    }
  }
}

/** `hashRows` of the rows `skip` does not mark (few of them: the starts of runs of one key), row by row. */
function hashSome(leaves: readonly Leaf[], n: number, out: Int32Array, skip: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    if (skip[i] === 1) continue;
    let h = SEED;
    for (let l = 0; l < leaves.length; l++) h = mix(h, leafHash(leaves[l]!, i));
    out[i] = h;
  }
}

/** The hash `hashRows` mixes in for row i of one leaf. */
function leafHash(leaf: Leaf, i: number): number {
  const valid = leaf.validity;
  if (valid !== null && valid[i] === 0) return NULL_HASH;
  if (leaf.int64) {
    const x = (leaf.values as Float64Array)[i]!;
    return x <= MAX_SAFE && x >= -MAX_SAFE ? hashNumber(x) : hashBig(exactOf(leaf, i));
  }
  if (leaf.utf8 !== undefined) return hashUtf8(leaf.utf8.bytes, leaf.utf8.offsets[i]!, leaf.utf8.offsets[i + 1]!);
  if (leaf.numeric) return hashNumber((leaf.values as NumArray)[i]!);
  const x = (leaf.values as unknown[])[i];
  return typeof x === "string" ? hashString(x) : hashString(valueKeyText(x));
}
