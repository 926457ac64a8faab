/**
 * __collect_frequent_items(x, size): Spark's CollectFrequentItems, the aggregate behind
 * df.freqItems (api/stat-functions.ts). Karp, Schenker and Papadimitriou's counter: at most
 * `size` items are counted; an item that finds the counter full takes away the smallest count
 * from every item (dropping those it empties, itself included when that count is 1), so every
 * item above 1 / size of the rows survives, with possible false positives. Steps are Spark's,
 * so rows arriving in Spark's order give Spark's items. NULL counts as an item. Items compare
 * as Scala's `==` on the boxed values Spark keys its map with: -0.0 equals 0.0, and NaN equals
 * nothing, so each NaN is an item of its own. Partial buffers (items and counts) merge by
 * adding each item with its count, as Spark merges.
 */
import { valueKeyText } from "../columnar/value-key.js";
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { ArrayOf, type DataType, LongType } from "../types/datatypes.js";
import { type Accumulator, type AggregateFunction, checkArity, register } from "./registry.js";

interface Entry {
  readonly value: unknown;
  count: number;
}
type Counter = Map<unknown, Entry>;

/** The map key of an item; NaN gets a fresh object, equal to no other key. */
function keyOf(v: unknown): unknown {
  if (typeof v === "number") return Number.isNaN(v) ? {} : v === 0 ? 0 : v;
  if (typeof v === "string") return `s${v}`;
  return v === null ? null : valueKeyText(v);
}

/** Spark's CollectFrequentItems.add. */
function add(counter: Counter, size: number, value: unknown, count: number): void {
  const key = keyOf(value);
  const entry = counter.get(key);
  if (entry) {
    entry.count += count;
    return;
  }
  if (counter.size < size) {
    counter.set(key, { value, count });
    return;
  }
  let min = 0;
  if (counter.size > 0) {
    min = Number.POSITIVE_INFINITY;
    for (const e of counter.values()) min = Math.min(min, e.count);
  }
  if (count >= min) {
    counter.set(key, { value, count });
    for (const [k, e] of counter) {
      if (e.count > min) e.count -= min;
      else counter.delete(k);
    }
  } else {
    for (const e of counter.values()) e.count -= count;
  }
}

class FrequentItemsAcc implements Accumulator {
  private counters: Counter[] = [];
  constructor(
    private readonly itemType: DataType,
    private readonly size: number,
  ) {}
  resize(n: number): void {
    while (this.counters.length < n) this.counters.push(new Map());
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    for (let i = 0; i < n; i++) add(this.counters[g[i]!]!, this.size, getValue(v, i), 1);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const items = (getValue(buffers[0]!, i) as unknown[] | null) ?? [];
      const counts = (getValue(buffers[1]!, i) as unknown[] | null) ?? [];
      const counter = this.counters[g[i]!]!;
      for (let j = 0; j < items.length; j++) add(counter, this.size, items[j], Number(counts[j]));
    }
  }
  buffers(n: number): Vector[] {
    const groups = this.counters.slice(0, n).map((c) => [...c.values()]);
    return [
      vectorFromValues(
        ArrayOf(this.itemType),
        groups.map((es) => es.map((e) => e.value)),
      ),
      vectorFromValues(
        ArrayOf(LongType),
        groups.map((es) => es.map((e) => e.count)),
      ),
    ];
  }
  evaluate(n: number): Vector {
    return this.buffers(n)[0]!;
  }
}

const collectFrequentItems: AggregateFunction = {
  kind: "aggregate",
  name: "__collect_frequent_items",
  resolve(args, types) {
    checkArity("__collect_frequent_items", args, 2);
    const size = args[1]!;
    if (size.kind !== "literal" || typeof size.value !== "number" || !(size.value >= 1)) {
      throw new AnalysisException("INTERNAL_ERROR", "[INTERNAL_ERROR] __collect_frequent_items needs a positive literal size.");
    }
    return { args, type: ArrayOf(types[0]!) };
  },
  bufferTypes: (types) => [ArrayOf(types[0]!), ArrayOf(LongType)],
  create: (types, _resultType, _distinct, literals) => new FrequentItemsAcc(types[0]!, Number(literals[1])),
};

register(collectFrequentItems);
