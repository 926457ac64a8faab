/**
 * Aggregates that fold each group's non-NULL values into one number: count_if (BIGINT, 0 for no
 * rows), bool_and / every, bool_or / any / some (BOOLEAN) and product (DOUBLE), the last three
 * NULL for a group with no non-NULL value. One Float64 slot and a seen flag per group; the
 * buffer is the running value itself (NULL while nothing was seen), so merging partial buffers
 * (streaming state, partial aggregation) is the same fold.
 */
import { makeVector, type Vector } from "../columnar/vector.js";
import { BooleanType, type DataType, DoubleType, isNumeric, LongType } from "../types/datatypes.js";
import { growF64, growU8, nums } from "./kernel-util.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, registerAlias, typeMismatch } from "./registry.js";

export class FoldAcc implements Accumulator {
  acc: Float64Array = new Float64Array(16);
  seen: Uint8Array = new Uint8Array(16);
  constructor(
    private readonly resultType: DataType,
    private readonly combine: (acc: number, x: number) => number,
    /** count_if: never NULL, 0 for a group that saw nothing. */
    private readonly zeroWhenEmpty = false,
  ) {}
  resize(n: number): void {
    this.acc = growF64(this.acc, n);
    this.seen = growU8(this.seen, n);
  }
  private fold(g: Int32Array, n: number, v: Vector): void {
    const x = nums(v);
    const { acc, seen } = this;
    for (let i = 0; i < n; i++) {
      if (v.validity !== null && v.validity[i] === 0) continue;
      const gid = g[i]!;
      acc[gid] = seen[gid] === 1 ? this.combine(acc[gid]!, x[i]!) : x[i]!;
      seen[gid] = 1;
    }
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    this.fold(g, n, input[0]!);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    this.fold(g, n, buffers[0]!);
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n)];
  }
  evaluate(n: number): Vector {
    const out = this.resultType.kind === "boolean" ? Uint8Array.from(this.acc.subarray(0, n)) : this.acc.slice(0, n);
    if (this.zeroWhenEmpty) {
      for (let i = 0; i < n; i++) if (this.seen[i] === 0) out[i] = 0;
      return makeVector(this.resultType, out, null, n);
    }
    return makeVector(this.resultType, out, this.seen.slice(0, n), n);
  }
}

function booleanFold(name: string, combine: (a: number, x: number) => number): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (t.kind !== "boolean" && t.kind !== "null") throw typeMismatch(call, 0, '"BOOLEAN"', args[0]!, t);
      return { args: [castTo(args[0]!, t, BooleanType)], type: BooleanType };
    },
    bufferTypes: () => [BooleanType],
    create: () => new FoldAcc(BooleanType, combine),
  };
}

/** count_if(cond): the rows where cond is true. The buffer is the count so far. */
const countIf: AggregateFunction = {
  kind: "aggregate",
  name: "count_if",
  resolve(args, types, call) {
    checkArity("count_if", args, 1);
    const t = types[0]!;
    if (t.kind !== "boolean" && t.kind !== "null") throw typeMismatch(call, 0, '"BOOLEAN"', args[0]!, t);
    return { args: [castTo(args[0]!, t, BooleanType)], type: LongType };
  },
  bufferTypes: () => [LongType],
  create: () => new CountTrueAcc(),
};

/** Raw rows count 1 when true; buffers (partial counts) are added. */
class CountTrueAcc extends FoldAcc {
  constructor() {
    super(LongType, (a, x) => a + x, true);
  }
}

const product: AggregateFunction = {
  kind: "aggregate",
  name: "product",
  resolve(args, types, call) {
    checkArity("product", args, 1);
    const t = types[0]!;
    if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, 0, '"NUMERIC"', args[0]!, t);
    return { args: [castTo(args[0]!, t, DoubleType)], type: DoubleType };
  },
  bufferTypes: () => [DoubleType],
  create: () => new FoldAcc(DoubleType, (a, x) => a * x),
};

register(
  countIf,
  booleanFold("bool_and", (a, x) => a & x),
  booleanFold("bool_or", (a, x) => a | x),
  product,
);
registerAlias("every", "bool_and");
registerAlias("any", "bool_or");
registerAlias("some", "bool_or");
