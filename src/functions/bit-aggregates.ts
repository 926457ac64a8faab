/**
 * bit_and, bit_or and bit_xor: the bitwise fold of a group's non-NULL integers, in their own
 * integral type (NULL for a group that saw none). The buffer is the running value itself, so
 * merging partial buffers (streaming state, partial aggregation) is the same fold.
 */
import { canonical } from "../columnar/int64.js";
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { type DataType, isIntegral } from "../types/datatypes.js";
import { type Accumulator, type AggregateFunction, checkArity, register, typeMismatch } from "./registry.js";

type Op = (a: bigint, b: bigint) => bigint;

class BitFoldAcc implements Accumulator {
  private acc: (bigint | null)[] = [];
  constructor(
    private readonly type: DataType,
    private readonly op: Op,
  ) {}
  resize(n: number): void {
    while (this.acc.length < n) this.acc.push(null);
  }
  private fold(g: Int32Array, n: number, v: Vector): void {
    for (let i = 0; i < n; i++) {
      const x = getValue(v, i);
      if (x === null) continue;
      const b = BigInt(x as number | bigint);
      const cur = this.acc[g[i]!] ?? null;
      this.acc[g[i]!] = cur === null ? b : this.op(cur, b);
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
    const long = this.type.kind === "bigint";
    const out = this.acc.slice(0, n).map((b) => (b === null ? null : long ? canonical(BigInt.asIntN(64, b)) : Number(b)));
    return vectorFromValues(this.type, out);
  }
}

function bitAggregate(name: string, op: Op): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (!isIntegral(t)) throw typeMismatch(call, 0, '"INTEGRAL"', args[0]!, t);
      return { args, type: t };
    },
    bufferTypes: (types) => [types[0]!],
    create: (types) => new BitFoldAcc(types[0]!, op),
  };
}

register(
  bitAggregate("bit_and", (a, b) => a & b),
  bitAggregate("bit_or", (a, b) => a | b),
  bitAggregate("bit_xor", (a, b) => a ^ b),
);
