/**
 * `agg(DISTINCT args)`: each group's rows reach the aggregate once per distinct tuple of argument
 * values, in the order first seen, as Spark's planner deduplicates (group, arguments) before a
 * DISTINCT aggregate. Wrapped around any aggregate (execution/aggregation.ts), so no aggregate
 * has to know DISTINCT itself: `var_pop(DISTINCT x)` or `count(DISTINCT x, y)` once ignored it.
 *
 * Batch aggregation only, in one pass: a streaming query refuses DISTINCT aggregates and a
 * window refuses DISTINCT functions, as Spark does, so partial buffers never merge.
 */
import { valueKeyText } from "../columnar/value-key.js";
import { getValue, take, type Vector } from "../columnar/vector.js";
import type { Accumulator } from "./registry.js";

/** One argument value as a key part: -0 is 0, NaN is NaN (not NULL), as Spark's DISTINCT compares. */
function valueKey(x: unknown): string {
  if (x === null || x === undefined) return "∅";
  if (typeof x === "number") return Number.isNaN(x) ? "NaN" : `n${x === 0 ? 0 : x}`;
  if (typeof x === "bigint") return `n${x}`;
  if (typeof x === "string") return `s${x}`;
  if (typeof x === "boolean") return `b${x}`;
  return `j${valueKeyText(x)}`;
}

export class DistinctInputAcc implements Accumulator {
  private readonly seen: Set<string>[] = [];
  constructor(
    private readonly inner: Accumulator,
    /** The aggregate's `distinctArg`: deduplicate that argument alone (NULL where any is NULL). */
    private readonly side: number | undefined,
  ) {}

  /** Row i's distinct key. */
  private keyOf(input: readonly Vector[], i: number): string {
    const at = (v: Vector) => getValue(v, i < v.length ? i : 0);
    if (this.side !== undefined) {
      const values = input.map(at);
      return values.includes(null) ? valueKey(null) : valueKey(values[this.side]);
    }
    let key = "";
    for (const v of input) key += `${valueKey(at(v))}\u0001`;
    return key;
  }
  resize(n: number): void {
    this.inner.resize(n);
    while (this.seen.length < n) this.seen.push(new Set());
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const first: number[] = [];
    for (let i = 0; i < n; i++) {
      const key = this.keyOf(input, i);
      const seen = this.seen[g[i]!]!;
      if (seen.has(key)) continue;
      seen.add(key);
      first.push(i);
    }
    if (first.length === n) {
      this.inner.update(g, n, input);
      return;
    }
    const rows = Int32Array.from(first);
    this.inner.update(
      Int32Array.from(first, (i) => g[i]!),
      rows.length,
      input.map((v) => (v.length >= n ? take(v, rows) : v)),
    );
  }
  merge(): void {
    throw new Error("internal error: a DISTINCT aggregate's partial buffers cannot merge (it runs in one pass over a batch)");
  }
  buffers(n: number): Vector[] {
    return this.inner.buffers(n);
  }
  evaluate(n: number): Vector {
    return this.inner.evaluate(n);
  }
}
