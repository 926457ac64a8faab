/**
 * Variance and standard deviation (Spark's CentralMomentAgg of order 2): `var_samp` /
 * `variance`, `var_pop`, `stddev_samp` / `stddev` / `std`, `stddev_pop`. The buffer is (n,
 * mean, m2), folded with Spark's own formulas so results agree to the last bit where the rows
 * fold in the same order: a row updates it as `delta = x - mean; mean += delta / n';
 * m2 += delta * (delta - delta / n')`, and two buffers merge as
 * `m2 = m2a + m2b + delta * (delta / n) * na * nb`. No rows gives NULL; one row gives NULL for
 * the sample forms (Spark 3+, `spark.sql.legacy.statisticalAggregate` = false).
 */
import { makeVector, type Vector } from "../columnar/vector.js";
import { DoubleType, isNumeric } from "../types/datatypes.js";
import { growF64 } from "./kernel-util.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, registerAlias, typeMismatch } from "./registry.js";

type Result = "var_samp" | "var_pop" | "stddev_samp" | "stddev_pop";

class MomentAcc implements Accumulator {
  n: Float64Array = new Float64Array(16);
  mean: Float64Array = new Float64Array(16);
  m2: Float64Array = new Float64Array(16);
  constructor(private readonly result: Result) {}
  resize(size: number): void {
    this.n = growF64(this.n, size);
    this.mean = growF64(this.mean, size);
    this.m2 = growF64(this.m2, size);
  }
  update(g: Int32Array, rows: number, input: readonly Vector[]): void {
    const v = input[0]!;
    const x = v.values as Float64Array;
    const { n, mean, m2 } = this;
    for (let i = 0; i < rows; i++) {
      if (v.validity !== null && v.validity[i] === 0) continue;
      const k = g[i]!;
      const newN = n[k]! + 1;
      const delta = x[i]! - mean[k]!;
      const deltaN = delta / newN;
      mean[k] = mean[k]! + deltaN;
      m2[k] = m2[k]! + delta * (delta - deltaN);
      n[k] = newN;
    }
  }
  merge(g: Int32Array, rows: number, buffers: readonly Vector[]): void {
    const [bn, bmean, bm2] = buffers.map((b) => b.values as Float64Array) as [Float64Array, Float64Array, Float64Array];
    const { n, mean, m2 } = this;
    for (let i = 0; i < rows; i++) {
      const k = g[i]!;
      const n1 = n[k]!;
      const n2 = bn[i]!;
      const total = n1 + n2;
      const delta = bmean[i]! - mean[k]!;
      const deltaN = total === 0 ? 0 : delta / total;
      mean[k] = mean[k]! + deltaN * n2;
      m2[k] = m2[k]! + bm2[i]! + delta * deltaN * n1 * n2;
      n[k] = total;
    }
  }
  buffers(size: number): Vector[] {
    return [this.n, this.mean, this.m2].map((a) => makeVector(DoubleType, a.slice(0, size), null, size));
  }
  evaluate(size: number): Vector {
    const out = new Float64Array(size);
    const valid = new Uint8Array(size);
    const sample = this.result === "var_samp" || this.result === "stddev_samp";
    const root = this.result === "stddev_samp" || this.result === "stddev_pop";
    for (let k = 0; k < size; k++) {
      const n = this.n[k]!;
      if (n === 0 || (sample && n === 1)) continue;
      const v = this.m2[k]! / (sample ? n - 1 : n);
      out[k] = root ? Math.sqrt(v) : v;
      valid[k] = 1;
    }
    return makeVector(DoubleType, out, valid.includes(0) ? valid : null, size);
  }
}

function moment(name: string, result: Result): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, 0, '"DOUBLE"', args[0]!, t);
      return { args: [castTo(args[0]!, t, DoubleType)], type: DoubleType };
    },
    bufferTypes: () => [DoubleType, DoubleType, DoubleType],
    create: () => new MomentAcc(result),
  };
}

register(
  moment("var_samp", "var_samp"),
  moment("var_pop", "var_pop"),
  moment("stddev_samp", "stddev_samp"),
  moment("stddev_pop", "stddev_pop"),
);
registerAlias("variance", "var_samp");
registerAlias("stddev", "stddev_samp");
registerAlias("std", "stddev_samp");
