/**
 * vector_sum and vector_avg (Spark 4.2): the element-wise sum and mean of a group's ARRAY<FLOAT>
 * vectors. As Spark: a NULL vector, or one holding a NULL element, is skipped; a group with no
 * vector left is NULL; vectors of another length than the group's first fail
 * (VECTOR_DIMENSION_MISMATCH). vector_sum adds in FLOAT (so it overflows to Infinity as Spark's
 * does), vector_avg in double, rounding the mean to FLOAT. The buffers are the running sums (and
 * vector_avg's count), so merging partial buffers (streaming state, partial aggregation) is the
 * same fold.
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArrayOf, DoubleType, LongType } from "../types/datatypes.js";
import { type Accumulator, type AggregateFunction, checkArity, register, typeMismatch } from "./registry.js";
import { dimensionMismatch, elements, FLOAT_VECTOR, isFloatVector } from "./vectors.js";

/** Element-wise sums per group; `float` rounds every addition to FLOAT. */
class VectorSums {
  sums: (number[] | null)[] = [];
  constructor(
    private readonly name: string,
    private readonly float: boolean,
  ) {}
  resize(n: number): void {
    while (this.sums.length < n) this.sums.push(null);
  }
  /** Adds vector `a` to group g's sums; false when `a` is null (skipped). */
  add(g: number, a: number[] | null): boolean {
    if (a === null) return false;
    const cur = this.sums[g];
    if (cur === null || cur === undefined) {
      this.sums[g] = a.slice();
      return true;
    }
    if (cur.length !== a.length) throw dimensionMismatch(this.name, cur.length, a.length);
    for (let k = 0; k < a.length; k++) cur[k] = this.float ? Math.fround(cur[k]! + a[k]!) : cur[k]! + a[k]!;
    return true;
  }
}

class VectorSumAcc implements Accumulator {
  private readonly s = new VectorSums("vector_sum", true);
  resize(n: number): void {
    this.s.resize(n);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    for (let i = 0; i < n; i++) this.s.add(g[i]!, elements(getValue(input[0]!, i)));
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    this.update(g, n, buffers);
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n)];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(FLOAT_VECTOR, this.s.sums.slice(0, n));
  }
}

class VectorAvgAcc implements Accumulator {
  private readonly s = new VectorSums("vector_avg", false);
  private counts: number[] = [];
  resize(n: number): void {
    this.s.resize(n);
    while (this.counts.length < n) this.counts.push(0);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    for (let i = 0; i < n; i++) if (this.s.add(g[i]!, elements(getValue(input[0]!, i)))) this.counts[g[i]!]!++;
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const c = getValue(buffers[1]!, i) as number | null;
      if (c && this.s.add(g[i]!, getValue(buffers[0]!, i) as number[] | null)) this.counts[g[i]!]! += c;
    }
  }
  buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(DoubleType), this.s.sums.slice(0, n)), vectorFromValues(LongType, this.counts.slice(0, n))];
  }
  evaluate(n: number): Vector {
    const out = this.s.sums.slice(0, n).map((sums, g) => (sums === null ? null : sums.map((x) => Math.fround(x / this.counts[g]!))));
    return vectorFromValues(FLOAT_VECTOR, out);
  }
}

function vectorAggregate(
  name: string,
  bufferTypes: () => ReturnType<AggregateFunction["bufferTypes"]>,
  create: () => Accumulator,
): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      if (!isFloatVector(types[0]!)) throw typeMismatch(call, 0, '"ARRAY<FLOAT>"', args[0]!, types[0]!);
      return { args, type: FLOAT_VECTOR };
    },
    bufferTypes,
    create,
  };
}

register(
  vectorAggregate(
    "vector_sum",
    () => [FLOAT_VECTOR],
    () => new VectorSumAcc(),
  ),
  vectorAggregate(
    "vector_avg",
    () => [ArrayOf(DoubleType), LongType],
    () => new VectorAvgAcc(),
  ),
);
