/**
 * `__single_value(x)`: the one value of its group, NULL for none, and Spark's
 * SCALAR_SUBQUERY_TOO_MANY_ROWS for more than one row. An uncorrelated scalar subquery is
 * planned as a global aggregate of it (analyzer/subqueries.ts), so the query it stands in sees
 * exactly one row. The buffer is the value and its row count, so partial buffers merge.
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import { type DataType, LongType } from "../types/datatypes.js";
import { type Accumulator, type AggregateFunction, checkArity, register } from "./registry.js";

export const SINGLE_VALUE = "__single_value";

class SingleValueAcc implements Accumulator {
  private values: unknown[] = [];
  private counts: number[] = [];
  constructor(private readonly type: DataType) {}
  resize(n: number): void {
    while (this.values.length < n) {
      this.values.push(null);
      this.counts.push(0);
    }
  }
  private add(g: number, value: unknown, count: number): void {
    if (count === 0) return;
    this.counts[g]! += count;
    if (this.counts[g]! > 1) {
      throw new ArusError(
        "SCALAR_SUBQUERY_TOO_MANY_ROWS",
        "[SCALAR_SUBQUERY_TOO_MANY_ROWS] More than one row returned by a subquery used as an expression.",
      );
    }
    this.values[g] = value;
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    for (let i = 0; i < n; i++) this.add(g[i]!, getValue(input[0]!, i), 1);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) this.add(g[i]!, getValue(buffers[0]!, i), Number(getValue(buffers[1]!, i) ?? 0));
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n), vectorFromValues(LongType, this.counts.slice(0, n))];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.type, this.values.slice(0, n));
  }
}

const singleValue: AggregateFunction = {
  kind: "aggregate",
  name: SINGLE_VALUE,
  resolve(args, types) {
    checkArity(SINGLE_VALUE, args, 1);
    return { args, type: types[0]! };
  },
  bufferTypes: (types) => [types[0]!, LongType],
  create: (types) => new SingleValueAcc(types[0]!),
};

register(singleValue);
