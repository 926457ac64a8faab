/**
 * Typed-array plumbing for the columnar state table: a growable Int32 list, growth policy,
 * and gathers by entry id.
 */
import { isWide, narrow } from "../../columnar/int64.js";

/** The smallest table capacity. */
export const MIN_CAPACITY = 1024;

/** A growable Int32 list. */
export class IntList {
  data = new Int32Array(256);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new Int32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const d = new Int32Array(Math.max(n, this.data.length * 2));
    d.set(this.data.subarray(0, this.length));
    this.data = d;
  }
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
  /**
   * Empty it, and give back memory a big batch took: the array stays while it is at most four
   * times what this use filled (batches of a steady stream fill it alike, and regrowing it from
   * 256 every batch allocated its size twice over per batch), else it starts small again.
   */
  reset(): void {
    if (this.data.length > 4096 && this.data.length > 4 * this.length) this.data = new Int32Array(256);
    this.length = 0;
  }
}

export function nextCapacity(cap: number, need: number): number {
  let c = Math.max(cap, MIN_CAPACITY);
  // Grow by half while small, then by a quarter: the slack is what costs memory per entry.
  while (c < need) c = c < 65_536 ? c * 2 : Math.ceil(c * 1.25);
  return c;
}

export function grown<T extends Float64Array | Int32Array | Uint8Array | BigInt64Array>(a: T, cap: number, fill = 0): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a as never);
  if (fill !== 0) (b as Uint8Array).fill(fill, a.length);
  return b;
}

export function gatherF64(src: Float64Array, ids: Int32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = src[ids[i]!]!;
  return out;
}
/** A BIGINT/TIMESTAMP column on either lane (columnar/int64.ts), gathered; narrowed when every value is safe. */
export function gatherInt64(src: Float64Array | BigInt64Array, ids: Int32Array, n: number): Float64Array | BigInt64Array {
  if (!isWide(src)) return gatherF64(src, ids, n);
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) out[i] = src[ids[i]!]!;
  return narrow(out, n);
}
export function gatherI32(src: Int32Array, ids: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = src[ids[i]!]!;
  return out;
}
export function gatherU8(src: Uint8Array, ids: Int32Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = src[ids[i]!]!;
  return out;
}
