/**
 * Each group's representative key, leaf by leaf in growable typed arrays (objects only for
 * non-numeric leaves), and the equality a row is checked by against it: NaN equals NaN, as in
 * Spark; BIGINT beyond ±2^53 − 1 by exact value; UTF-8 bytes against the stored string
 * without decoding them.
 */
import { isSafe } from "../columnar/int64.js";
import { utf8String } from "../columnar/utf8.js";
import { utf8EqualsString } from "../columnar/utf8-ops.js";
import { exactOf, type Leaf, type NumArray } from "./group-leaves.js";

/** Growable store of one leaf's values for the representative row of each group. */
export class LeafStore {
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
