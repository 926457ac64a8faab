/**
 * The accumulators that keep each group's values themselves: a distinct set (count(DISTINCT),
 * approx_count_distinct, collect_set) and a list (collect_list). Their partial buffer is the
 * values as an ARRAY, so merging partials is adding those values again.
 */
import { setElement, valueKeyText } from "../columnar/value-key.js";
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArrayOf, type DataType } from "../types/datatypes.js";
import { allValid } from "./kernel-util.js";
import type { Accumulator } from "./registry.js";

/** Exact distinct values per group (count(DISTINCT), approx_count_distinct, collect_set). */
export class DistinctSetAcc implements Accumulator {
  sets: Map<string, unknown>[] = [];
  constructor(
    private readonly elementType: DataType,
    private readonly finish: (values: unknown[]) => unknown,
    private readonly resultType: DataType,
  ) {}
  resize(n: number): void {
    while (this.sets.length < n) this.sets.push(new Map());
  }
  protected add(gid: number, v: unknown): void {
    const key = typeof v === "string" ? `s${v}` : typeof v === "number" ? `n${v}` : typeof v === "bigint" ? `n${v}` : valueKeyText(v);
    if (!this.sets[gid]!.has(key)) this.sets[gid]!.set(key, setElement(v));
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    for (let i = 0; i < n; i++) if (allValid(input, i)) this.add(g[i]!, getValue(v, i));
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const b = buffers[0]!;
    for (let i = 0; i < n; i++) for (const x of (getValue(b, i) as unknown[] | null) ?? []) this.add(g[i]!, x);
  }
  buffers(n: number): Vector[] {
    return [
      vectorFromValues(
        ArrayOf(this.elementType),
        this.sets.slice(0, n).map((s) => [...s.values()]),
      ),
    ];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(
      this.resultType,
      this.sets.slice(0, n).map((s) => this.finish([...s.values()])),
    );
  }
}

export class CollectListAcc implements Accumulator {
  lists: unknown[][] = [];
  constructor(private readonly type: DataType) {}
  resize(n: number): void {
    while (this.lists.length < n) this.lists.push([]);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    for (let i = 0; i < n; i++) if (allValid(input, i)) this.lists[g[i]!]!.push(getValue(v, i));
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) this.lists[g[i]!]!.push(...((getValue(buffers[0]!, i) as unknown[] | null) ?? []));
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n)];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.type, this.lists.slice(0, n));
  }
}

/** The distinct non-NULL elements of each group's arrays (collect_union); its buffer is a set's. */
export class ElementSetAcc extends DistinctSetAcc {
  override update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    for (let i = 0; i < n; i++) for (const x of (getValue(v, i) as unknown[] | null) ?? []) if (x !== null) this.add(g[i]!, x);
  }
}
