/**
 * max_by(x, ord) / min_by(x, ord): the x of the row with the largest (smallest) ord. Rows with a
 * NULL ord are skipped; x itself may be NULL. As Spark's MaxMinBy, the current pick stays only
 * when its ord is strictly better, so among ties the last row seen wins. The buffer
 * is (x, ord) as Spark's; a NULL ord in it means the group has no pick yet.
 */
import "./aggregates.js"; // registers the functions aliased below
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import type { DataType } from "../types/datatypes.js";
import { compareValues } from "./predicates.js";
import { type Accumulator, type AggregateFunction, checkArity, register, registerAlias, typeMismatch } from "./registry.js";

class ExtremumByAcc implements Accumulator {
  values: unknown[] = [];
  ords: unknown[] = [];
  constructor(
    private readonly valueType: DataType,
    private readonly ordType: DataType,
    /** 1 for max_by, -1 for min_by. */
    private readonly sign: 1 | -1,
  ) {}
  resize(n: number): void {
    while (this.values.length < n) {
      this.values.push(null);
      this.ords.push(null);
    }
  }
  private offer(g: Int32Array, n: number, x: Vector, ord: Vector): void {
    for (let i = 0; i < n; i++) {
      if (ord.validity !== null && ord.validity[i] === 0) continue;
      const gid = g[i]!;
      const o = getValue(ord, i);
      const cur = this.ords[gid];
      if (cur === null || this.sign * compareValues(o, cur) >= 0) {
        this.ords[gid] = o;
        this.values[gid] = getValue(x, i);
      }
    }
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    this.offer(g, n, input[0]!, input[1]!);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    this.offer(g, n, buffers[0]!, buffers[1]!);
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n), vectorFromValues(this.ordType, this.ords.slice(0, n))];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.valueType, this.values.slice(0, n));
  }
}

function extremumBy(name: string, sign: 1 | -1): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      if (types[1]!.kind === "map") throw typeMismatch(call, 1, '"ORDERABLE"', args[1]!, types[1]!);
      return { args, type: types[0]! };
    },
    bufferTypes: (types) => [types[0]!, types[1]!],
    create: (types) => new ExtremumByAcc(types[0]!, types[1]!, sign),
  };
}

register(extremumBy("max_by", 1), extremumBy("min_by", -1));
registerAlias("any_value", "first");
