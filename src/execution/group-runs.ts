/**
 * Runs of equal keys in a batch, for `GroupIndex.assign`: a row whose key equals the row before
 * it is in that row's group, with no hash and no probe. Streams arrive roughly in event-time
 * order, so a window key repeats for thousands of rows (Nexmark q7: one or two windows per
 * 230 000-row batch), and hashing every row to find the same group again was most of the
 * aggregation's cost on the main thread.
 *
 * "Same" must imply the GroupIndex's own equality (LeafStore.equals, group-key-store.ts);
 * answering "differs" is always safe (the row is then hashed and probed as before), so NaNs and
 * int64 values beyond ±2^53 − 1 simply count as different.
 */
import { isSafe } from "../columnar/int64.js";
import { ScratchUint8 } from "../columnar/scratch.js";
import { rangesEqual } from "../columnar/utf8-ops.js";
import type { Leaf } from "./group-leaves.js";

/** `sameAsPrevious`' marks: read by the one `GroupIndex.assign` that asked, never kept (columnar/scratch.ts). */
const sameScratch = new ScratchUint8();

/** Rows sampled to decide whether runs are worth looking for. */
const SAMPLE = 256;

/** Does row i of `leaf` hold the same key value as row i − 1 (sure "yes", else "no")? */
function sameLeaf(leaf: Leaf, i: number): boolean {
  const valid = leaf.validity;
  if (valid !== null) {
    const a = valid[i - 1] === 1;
    if (a !== (valid[i] === 1)) return false;
    if (!a) return true; // both NULL
  }
  if (leaf.utf8 !== undefined) {
    const { bytes, offsets } = leaf.utf8;
    return rangesEqual(bytes, offsets[i - 1]!, offsets[i]!, bytes, offsets[i]!, offsets[i + 1]!);
  }
  const x = leaf.values[i];
  if (x !== leaf.values[i - 1]) return false;
  return !leaf.int64 || isSafe(x as number);
}

function sameRow(leaves: readonly Leaf[], i: number): boolean {
  for (let l = 0; l < leaves.length; l++) if (!sameLeaf(leaves[l]!, i)) return false;
  return true;
}

/**
 * `same[i]` = 1 when row i's key equals row i − 1's; null when the first rows show too few
 * repeats for the check to pay (then every row is hashed, as without it).
 */
export function sameAsPrevious(leaves: readonly Leaf[], n: number): Uint8Array | null {
  if (n < 2 || leaves.length === 0) return null;
  const probe = Math.min(n, SAMPLE);
  let repeats = 0;
  for (let i = 1; i < probe; i++) if (sameRow(leaves, i)) repeats++;
  if (repeats * 2 < probe) return null;
  // a column at a time, each loop over one kind of array (a row at a time cost twice as much)
  const same = sameScratch.get(n).fill(1);
  same[0] = 0;
  for (const leaf of leaves) clearChanged(leaf, n, same);
  return same;
}

/** Unmark the rows whose value of `leaf` differs from the row before (by `sameLeaf`'s rule). */
function clearChanged(leaf: Leaf, n: number, same: Uint8Array): void {
  const valid = leaf.validity;
  const v = leaf.values;
  if (leaf.utf8 === undefined && (v instanceof Float64Array || v instanceof Uint8Array)) {
    const int64 = leaf.int64 === true;
    for (let i = 1; i < n; i++) {
      if (valid !== null) {
        const a = valid[i]!;
        if (a !== valid[i - 1]) {
          same[i] = 0;
          continue;
        }
        if (a === 0) continue; // both NULL
      }
      const x = v[i]!;
      if (x !== v[i - 1] || (int64 && !isSafe(x))) same[i] = 0;
    }
    return;
  }
  for (let i = 1; i < n; i++) if (same[i] === 1 && !sameLeaf(leaf, i)) same[i] = 0;
}
