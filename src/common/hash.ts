/**
 * The one murmur3 mix of the engine: its mixing step over 32-bit codes and its finaliser, with
 * the seed and NULL hash every key hash starts from. Hash grouping (execution/group-hash.ts)
 * mixes per-column value hashes with it; the columnar state table (state/columnar/) does too,
 * over dictionary ids (small consecutive ints: the finaliser spreads them over a power-of-two
 * table). Value hashes (strings, numbers) are stable across processes: in the state table they
 * pick the partition an entry's file records go to. Beside it, the FNV-1a of a key's text
 * (`keyTextHash`), which partitions text-keyed state (the row stores, the join tables).
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

export const SEED = 0x2545f491;
/** Hash of a NULL key value. */
export const NULL_HASH = 0x7fffffff;

export function mix(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** A number's hash; -0 hashes as 0 and every NaN alike (they group together). */
export function hashNumber(x: number): number {
  if (Number.isNaN(x)) return 0x7ff80000;
  const lo = x | 0;
  const hi = (x / 4294967296) | 0;
  const frac = ((x - Math.floor(x)) * 1e9) | 0;
  return lo ^ Math.imul(hi, 0x9e3779b1) ^ Math.imul(frac, 0x85ebca6b);
}

/** FNV-1a over the UTF-16 code units. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * `hashString` of a state key's text as an int32 (as an Int32Array holds it): what picks a
 * text-keyed state row's partition (partitionOf) and how the join tables find a key
 * (state/join/key-index.ts). Stable across processes: checkpoints are partitioned by it.
 */
export function keyTextHash(s: string): number {
  return hashString(s) | 0;
}
