/**
 * skewness and kurtosis (Spark's CentralMomentAgg of orders 3 and 4). The buffer is (n, mean,
 * m2, m3, m4), folded with Spark's own update and merge expressions, term for term and in its
 * evaluation order, so the bits agree with Spark's where rows fold in the same order. No rows,
 * or all rows equal (m2 = 0), give NULL (spark.sql.legacy.statisticalAggregate off).
 * kurtosis is the excess kurtosis (n * m4 / m2² - 3).
 */
import { makeVector, type Vector } from "../columnar/vector.js";
import { DoubleType, isNumeric } from "../types/datatypes.js";
import { growF64 } from "./kernel-util.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, typeMismatch } from "./registry.js";

type Shape = "skewness" | "kurtosis";

class ShapeAcc implements Accumulator {
  n: Float64Array = new Float64Array(16);
  avg: Float64Array = new Float64Array(16);
  m2: Float64Array = new Float64Array(16);
  m3: Float64Array = new Float64Array(16);
  m4: Float64Array = new Float64Array(16);
  constructor(private readonly shape: Shape) {}
  resize(size: number): void {
    this.n = growF64(this.n, size);
    this.avg = growF64(this.avg, size);
    this.m2 = growF64(this.m2, size);
    this.m3 = growF64(this.m3, size);
    this.m4 = growF64(this.m4, size);
  }
  update(g: Int32Array, rows: number, input: readonly Vector[]): void {
    const v = input[0]!;
    const x = v.values as Float64Array;
    const { n, avg, m2, m3, m4 } = this;
    for (let i = 0; i < rows; i++) {
      if (v.validity !== null && v.validity[i] === 0) continue;
      const k = g[i]!;
      const newN = n[k]! + 1;
      const delta = x[i]! - avg[k]!;
      const deltaN = delta / newN;
      const newM2 = m2[k]! + delta * (delta - deltaN);
      const delta2 = delta * delta;
      const deltaN2 = deltaN * deltaN;
      const newM3 = m3[k]! - 3 * deltaN * newM2 + delta * (delta2 - deltaN2);
      const newM4 = m4[k]! - 4 * deltaN * newM3 - 6 * deltaN2 * newM2 + delta * (delta * delta2 - deltaN * deltaN2);
      n[k] = newN;
      avg[k] = avg[k]! + deltaN;
      m2[k] = newM2;
      m3[k] = newM3;
      m4[k] = newM4;
    }
  }
  merge(g: Int32Array, rows: number, buffers: readonly Vector[]): void {
    const [bn, bavg, bm2, bm3, bm4] = buffers.map((b) => b.values as Float64Array) as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    const { n, avg, m2, m3, m4 } = this;
    for (let i = 0; i < rows; i++) {
      const k = g[i]!;
      const n1 = n[k]!;
      const n2 = bn[i]!;
      const newN = n1 + n2;
      const delta = bavg[i]! - avg[k]!;
      const deltaN = newN === 0 ? 0 : delta / newN;
      const newM2 = m2[k]! + bm2[i]! + delta * deltaN * n1 * n2;
      const newM3 = m3[k]! + bm3[i]! + deltaN * deltaN * delta * n1 * n2 * (n1 - n2) + 3 * deltaN * (n1 * bm2[i]! - n2 * m2[k]!);
      const newM4 =
        m4[k]! +
        bm4[i]! +
        deltaN * deltaN * deltaN * delta * n1 * n2 * (n1 * n1 - n1 * n2 + n2 * n2) +
        6 * deltaN * deltaN * (n1 * n1 * bm2[i]! + n2 * n2 * m2[k]!) +
        4 * deltaN * (n1 * bm3[i]! - n2 * m3[k]!);
      n[k] = newN;
      avg[k] = avg[k]! + deltaN * n2;
      m2[k] = newM2;
      m3[k] = newM3;
      m4[k] = newM4;
    }
  }
  buffers(size: number): Vector[] {
    return [this.n, this.avg, this.m2, this.m3, this.m4].map((a) => makeVector(DoubleType, a.slice(0, size), null, size));
  }
  evaluate(size: number): Vector {
    const out = new Float64Array(size);
    const valid = new Uint8Array(size);
    for (let k = 0; k < size; k++) {
      const n = this.n[k]!;
      const m2 = this.m2[k]!;
      if (n === 0 || m2 === 0) continue;
      out[k] = this.shape === "skewness" ? (Math.sqrt(n) * this.m3[k]!) / Math.sqrt(m2 * m2 * m2) : (n * this.m4[k]!) / (m2 * m2) - 3;
      valid[k] = 1;
    }
    return makeVector(DoubleType, out, valid.includes(0) ? valid : null, size);
  }
}

function shapeAggregate(name: Shape): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, 0, '"DOUBLE"', args[0]!, t);
      return { args: [castTo(args[0]!, t, DoubleType)], type: DoubleType };
    },
    bufferTypes: () => [DoubleType, DoubleType, DoubleType, DoubleType, DoubleType],
    create: () => new ShapeAcc(name),
  };
}

register(shapeAggregate("skewness"), shapeAggregate("kurtosis"));
