/**
 * Assigns a dense group id to every distinct key tuple: the core of hash aggregation, hash
 * joins, distinct and deduplication. Keys are flattened into "leaf" columns (struct fields
 * become separate leaves, nested values a canonical string), hashed a column at a time, and
 * looked up in an open-addressing table of typed arrays — no JS object per row.
 */

import { hashBig, isInt64Type, isSafe, isWide, MAX_SAFE } from "../columnar/int64.js";
import { type Utf8Values, utf8Of, utf8String } from "../columnar/utf8.js";
import { hashUtf8, utf8EqualsString } from "../columnar/utf8-ops.js";
import { concatVectors, take, type Vector } from "../columnar/vector.js";
import { hashString, mix, NULL_HASH, SEED } from "../common/hash.js";
import type { DataType } from "../types/datatypes.js";
import { sameAsPrevious } from "./group-runs.js";

type NumArray = Float64Array | Int32Array | Uint8Array;
export interface Leaf {
  readonly numeric: boolean;
  /**
   * A BIGINT/TIMESTAMP leaf: values beyond ±2^53 − 1 hash and compare by their exact value
   * (`wide` holds them when the vector is on the wide lane; `values` then holds Number(x)).
   */
  readonly int64?: boolean;
  readonly wide?: BigInt64Array;
  readonly values: NumArray | unknown[];
  /** A UTF-8 STRING key (columnar/utf8.ts): hashed and compared on its bytes; `values` unused. */
  readonly utf8?: Utf8Values;
  /** 1 = valid; null = no nulls. */
  readonly validity: Uint8Array | null;
}

/** Nested BIGINT values beyond ±2^53 − 1 are bigints (JSON has no form for them). */
function bigintAsText(_k: string, x: unknown): unknown {
  return typeof x === "bigint" ? `${x}n` : x;
}

function canonical(v: unknown): string {
  if (typeof v === "bigint") return `i:${v}`;
  if (v instanceof Uint8Array) return `b:${Array.from(v).join(",")}`;
  if (v instanceof Map) return `m:${JSON.stringify([...v], bigintAsText)}`;
  return JSON.stringify(v, bigintAsText);
}

const NO_VALUES: unknown[] = [];

function leavesOf(v: Vector, n: number, out: Leaf[]): void {
  if (v.children) {
    // Always a validity leaf (all ones without a validity array): the same key must give the
    // same leaves whether or not its batch carried NULLs, or it would hash into another group.
    out.push({ numeric: true, values: v.validity ?? new Uint8Array(n).fill(1), validity: null });
    for (const c of v.children) leavesOf(c, n, out);
    return;
  }
  const k = v.type.kind;
  if (k === "array" || k === "map" || k === "binary") {
    const vals = new Array<string>(n);
    for (let i = 0; i < n; i++) vals[i] = v.validity && v.validity[i] === 0 ? "" : canonical(v.values[i]);
    out.push({ numeric: false, values: vals, validity: v.validity });
    return;
  }
  const u = utf8Of(v);
  if (u !== undefined) {
    out.push({ numeric: false, values: NO_VALUES, utf8: u, validity: v.validity });
    return;
  }
  if (isWide(v.values)) {
    const wide = v.values;
    const approx = new Float64Array(n);
    for (let i = 0; i < n; i++) approx[i] = Number(wide[i]!);
    out.push({ numeric: true, int64: true, values: approx, wide, validity: v.validity });
    return;
  }
  const int64 = isInt64Type(v.type);
  out.push({
    numeric: !Array.isArray(v.values),
    int64,
    values: v.values as NumArray | unknown[],
    validity: k === "null" ? new Uint8Array(n) : v.validity,
  });
}

/** The exact value of an int64 leaf's row i (only asked for unsafe values). */
function exactOf(leaf: Leaf, i: number): bigint {
  return leaf.wide ? leaf.wide[i]! : BigInt((leaf.values as Float64Array)[i]!);
}

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
          valid !== null && valid[i] === 0 ? NULL_HASH : typeof x === "string" ? hashString(x) : hashString(canonical(x)),
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
  return typeof x === "string" ? hashString(x) : hashString(canonical(x));
}

/** Growable store of one leaf's values for the representative row of each group. */
class LeafStore {
  num: Float64Array = new Float64Array(64);
  obj: unknown[] = [];
  /** Exact values of int64 groups whose value is not a safe integer. */
  big: Map<number, bigint> | null = null;
  nulls: Uint8Array = new Uint8Array(64);
  constructor(readonly numeric: boolean) {}
  push(g: number, leaf: Leaf, i: number): void {
    if (g >= this.nulls.length) {
      const nn = new Uint8Array(this.nulls.length * 2);
      nn.set(this.nulls);
      this.nulls = nn;
      if (this.numeric) {
        const nv = new Float64Array(this.num.length * 2);
        nv.set(this.num);
        this.num = nv;
      }
    }
    const isNull = leaf.validity !== null && leaf.validity[i] === 0;
    this.nulls[g] = isNull ? 1 : 0;
    if (this.numeric) {
      const x = isNull ? 0 : (leaf.values as NumArray)[i]!;
      this.num[g] = x;
      if (leaf.int64 && !isSafe(x)) (this.big ??= new Map()).set(g, exactOf(leaf, i));
    } else if (isNull) this.obj[g] = null;
    else this.obj[g] = leaf.utf8 !== undefined ? utf8String(leaf.utf8, i) : (leaf.values as unknown[])[i];
  }
  equals(g: number, leaf: Leaf, i: number): boolean {
    const isNull = leaf.validity !== null && leaf.validity[i] === 0;
    if (isNull || this.nulls[g] === 1) return isNull && this.nulls[g] === 1;
    if (this.numeric) {
      const a = this.num[g]!;
      const b = (leaf.values as NumArray)[i]!;
      if (leaf.int64 && a === b && !isSafe(a)) return (this.big?.get(g) ?? BigInt(a)) === exactOf(leaf, i);
      return a === b || (Number.isNaN(a) && Number.isNaN(b)); // NaN groups with NaN, as in Spark
    }
    if (leaf.utf8 !== undefined) {
      const stored = this.obj[g];
      const { bytes, offsets } = leaf.utf8;
      return typeof stored === "string" && utf8EqualsString(bytes, offsets[i]!, offsets[i + 1]!, stored);
    }
    return this.obj[g] === (leaf.values as unknown[])[i];
  }
}

export class GroupIndex {
  private slots: Int32Array = new Int32Array(1024).fill(-1);
  private slotHashes: Int32Array = new Int32Array(1024);
  private mask = 1023;
  private stores: LeafStore[] | null = null;
  private keyChunks: Vector[][] = [];
  numGroups = 0;

  constructor(readonly keyTypes: readonly DataType[]) {}

  /** Group id for each of the n rows of `keys`; new keys get the next ids. */
  assign(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    if (keys.length === 0) {
      // Global aggregation: one group.
      if (this.numGroups === 0 && n > 0) {
        this.numGroups = 1;
        this.keyChunks.push([]);
      }
      out.fill(0, 0, n);
      return out;
    }
    const leaves: Leaf[] = [];
    for (const k of keys) leavesOf(k, n, leaves);
    if (!this.stores) this.stores = leaves.map((l) => new LeafStore(l.numeric));
    const stores = this.stores;
    // a row repeating the key of the row before it joins that row's group unhashed
    const same = sameAsPrevious(leaves, n);
    const hashes = new Int32Array(n);
    if (same === null) hashRows(leaves, n, hashes);
    else hashRows(leaves, n, hashes, same);
    const newRows: number[] = [];
    for (let i = 0; i < n; i++) {
      if (same !== null && same[i] === 1) {
        out[i] = out[i - 1]!;
        continue;
      }
      const h = hashes[i]!;
      let s = h & this.mask;
      for (;;) {
        const g = this.slots[s]!;
        if (g === -1) {
          const id = this.numGroups++;
          this.slots[s] = id;
          this.slotHashes[s] = h;
          for (let l = 0; l < leaves.length; l++) stores[l]!.push(id, leaves[l]!, i);
          newRows.push(i);
          out[i] = id;
          if (this.numGroups * 2 > this.mask) this.grow();
          break;
        }
        if (this.slotHashes[s] === h && this.rowEquals(g, leaves, i)) {
          out[i] = g;
          break;
        }
        s = (s + 1) & this.mask;
      }
    }
    if (newRows.length > 0) this.keyChunks.push(keys.map((k) => take(k, newRows)));
    return out;
  }

  /** Group id of each row without inserting; -1 when the key is unknown. */
  probe(keys: readonly Vector[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    if (keys.length === 0) return out.fill(this.numGroups > 0 ? 0 : -1, 0, n);
    const leaves: Leaf[] = [];
    for (const k of keys) leavesOf(k, n, leaves);
    const hashes = new Int32Array(n);
    hashRows(leaves, n, hashes);
    for (let i = 0; i < n; i++) {
      const h = hashes[i]!;
      let s = h & this.mask;
      out[i] = -1;
      for (;;) {
        const g = this.slots[s]!;
        if (g === -1) break;
        if (this.slotHashes[s] === h && this.rowEquals(g, leaves, i)) {
          out[i] = g;
          break;
        }
        s = (s + 1) & this.mask;
      }
    }
    return out;
  }

  private rowEquals(g: number, leaves: readonly Leaf[], i: number): boolean {
    const stores = this.stores!;
    for (let l = 0; l < leaves.length; l++) if (!stores[l]!.equals(g, leaves[l]!, i)) return false;
    return true;
  }

  private grow(): void {
    const cap = (this.mask + 1) * 2;
    const slots = new Int32Array(cap).fill(-1);
    const hashes = new Int32Array(cap);
    const mask = cap - 1;
    for (let s = 0; s <= this.mask; s++) {
      const g = this.slots[s]!;
      if (g === -1) continue;
      const h = this.slotHashes[s]!;
      let t = h & mask;
      while (slots[t] !== -1) t = (t + 1) & mask;
      slots[t] = g;
      hashes[t] = h;
    }
    this.slots = slots;
    this.slotHashes = hashes;
    this.mask = mask;
  }

  /** The distinct keys, in group-id order. */
  keyVectors(): Vector[] {
    return this.keyTypes.map((t, k) =>
      concatVectors(
        t,
        this.keyChunks.map((c) => c[k]!),
      ),
    );
  }
}
