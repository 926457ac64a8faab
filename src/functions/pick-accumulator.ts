/**
 * The accumulator of min / max / first / last: each group keeps the one value that wins by the
 * function's rule. min/max rank strings by code point and struct rows inside their field vectors,
 * so neither decodes nor builds a value per input row (the hot paths of q7, bench/RESULTS.md).
 */
import { utf8Of, utf8String } from "../columnar/utf8.js";
import { getValue, makeVector, take, type Vector, vectorFromValues } from "../columnar/vector.js";
import { compareStrings, compareUtf16, hasHighUnit } from "../common/string-order.js";
import { BooleanType, type DataType } from "../types/datatypes.js";
import { growU8 } from "./kernel-util.js";
import { compareValues } from "./predicates.js";
import type { Accumulator } from "./registry.js";

export class PickAcc implements Accumulator {
  values: unknown[] = [];
  set: Uint8Array = new Uint8Array(16);
  /** min/max of strings: the group's value holds a UTF-16 unit >= 0xD800 (common/string-order.ts). */
  private high: Uint8Array = new Uint8Array(16);
  constructor(
    private readonly type: DataType,
    /** Should candidate x replace the current value? */
    private readonly better: (x: unknown, cur: unknown) => boolean,
    private readonly skipNulls: boolean,
    /** min (-1) / max (1): `better` is "compares lower / higher", so struct rows can be ranked in place. */
    private readonly order: -1 | 0 | 1 = 0,
  ) {}
  resize(n: number): void {
    this.set = growU8(this.set, n);
    if (this.order !== 0 && this.type.kind === "string") this.high = growU8(this.high, n);
    while (this.values.length < n) this.values.push(null);
  }
  private offer(gid: number, x: unknown): void {
    if (x === null && this.skipNulls) return;
    if (this.set[gid] === 0 || this.better(x, this.values[gid])) {
      this.values[gid] = x;
      this.set[gid] = 1;
    }
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    if (this.order !== 0 && v.children) {
      this.updateStructs(g, n, v);
      return;
    }
    if (this.order !== 0 && this.type.kind === "string") {
      this.offerStrings(g, n, v, null);
      return;
    }
    const numeric = !Array.isArray(v.values) && !v.children;
    for (let i = 0; i < n; i++) {
      const x = numeric ? (v.validity !== null && v.validity[i] === 0 ? null : v.values[i]) : getValue(v, i);
      this.offer(g[i]!, x);
    }
  }
  /**
   * min/max of a struct column: each group's best row of the batch is found by comparing the
   * rows in the vectors, and only that row becomes an object (a struct value per input row was
   * most of max(struct(...))'s cost). Ties keep the earliest row, as offering rows in order does.
   */
  private updateStructs(g: Int32Array, n: number, v: Vector): void {
    const best = bestRowPerGroup(g, n, v, this.order);
    // The winners gathered first: reading them in `v` itself would decode every row of its
    // UTF-8 string fields (columnar/utf8.ts) for a handful of winners (q7: 2 of 230 000).
    const winners = take(v, Int32Array.from(best.values()));
    let k = 0;
    for (const gid of best.keys()) this.offer(gid, getValue(winners, k++));
  }
  /**
   * min/max of strings by code point (Spark's UTF8_BINARY). JS's native order is exact against
   * a group value with no UTF-16 unit >= 0xD800, which is asked once per new value, not per row.
   */
  private offerStrings(g: Int32Array, n: number, v: Vector, present: Uint8Array | null): void {
    const vals = v.values as string[];
    const { set, high, values } = this;
    for (let i = 0; i < n; i++) {
      if ((present !== null && present[i] !== 1) || (v.validity !== null && v.validity[i] === 0)) continue;
      const gid = g[i]!;
      const x = vals[i]!;
      if (set[gid] === 1) {
        const cur = values[gid] as string;
        if ((high[gid] === 1 ? compareStrings(x, cur) : compareUtf16(x, cur)) * this.order <= 0) continue;
      }
      values[gid] = x;
      set[gid] = 1;
      high[gid] = hasHighUnit(x) ? 1 : 0;
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const [v, s] = buffers as [Vector, Vector];
    const sv = s.values as Uint8Array;
    if (this.order !== 0 && this.type.kind === "string") {
      this.offerStrings(g, n, v, sv);
      return;
    }
    for (let i = 0; i < n; i++) if (sv[i] === 1) this.offer(g[i]!, getValue(v, i));
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n), makeVector(BooleanType, this.set.slice(0, n), null, n)];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.type, this.values.slice(0, n));
  }
}

/**
 * Each group's best non-NULL row of a struct column (ties: the earliest). The loop is a function of
 * its own: optimized on stack (OSR), it deopted on leaving into code that had not run yet, call after call.
 */
function bestRowPerGroup(g: Int32Array, n: number, v: Vector, order: number): Map<number, number> {
  const best = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (v.validity !== null && v.validity[i] === 0) continue; // min/max skip NULLs
    const gid = g[i]!;
    const b = best.get(gid);
    if (b === undefined || compareRowsAt(v, i, b) * order > 0) best.set(gid, i);
  }
  return best;
}

/** compareValues(getValue(v, i), getValue(v, j)) for non-null struct rows, without building them. */
function compareRowsAt(v: Vector, i: number, j: number): number {
  for (const c of v.children!) {
    const vi = c.validity === null || c.validity[i] === 1;
    const vj = c.validity === null || c.validity[j] === 1;
    if (!vi || !vj) {
      if (vi !== vj) return vi ? 1 : -1; // NULL first
      continue;
    }
    const r = c.children ? compareRowsAt(c, i, j) : compareLeaves(c, i, j);
    if (r !== 0) return r;
  }
  return 0;
}

/** compareValues of two non-null rows of a leaf vector; a UTF-8 string leaf decodes just those two. */
function compareLeaves(c: Vector, i: number, j: number): number {
  const u = utf8Of(c);
  if (u !== undefined) return compareValues(utf8String(u, i), utf8String(u, j));
  return compareValues(c.values[i], c.values[j]);
}
