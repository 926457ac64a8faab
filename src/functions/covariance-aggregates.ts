/**
 * covar_pop, covar_samp and corr (Spark's Covariance and PearsonCorrelation). The buffer is
 * (n, xAvg, yAvg, ck, xMk, yMk), folded with Spark's own update and merge formulas so results
 * agree to the last bit where rows fold in the same order; rows where either value is NULL are
 * skipped. No rows gives NULL, and so does one row for covar_samp and corr (Spark 3+), and corr
 * of a constant column (Spark 4).
 */
import { makeVector, type Vector } from "../columnar/vector.js";
import { DoubleType, isNumeric } from "../types/datatypes.js";
import { growF64 } from "./kernel-util.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, typeMismatch } from "./registry.js";

type Result = "covar_pop" | "covar_samp" | "corr";
const SLOTS = 6; // n, xAvg, yAvg, ck, xMk, yMk

class CovarianceAcc implements Accumulator {
  s: Float64Array[] = Array.from({ length: SLOTS }, () => new Float64Array(16));
  constructor(private readonly result: Result) {}
  resize(size: number): void {
    this.s = this.s.map((a) => growF64(a, size));
  }
  update(g: Int32Array, rows: number, input: readonly Vector[]): void {
    const [xv, yv] = input as [Vector, Vector];
    const xs = xv.values as Float64Array;
    const ys = yv.values as Float64Array;
    const [n, xAvg, yAvg, ck, xMk, yMk] = this.s as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
    for (let i = 0; i < rows; i++) {
      if ((xv.validity !== null && xv.validity[i] === 0) || (yv.validity !== null && yv.validity[i] === 0)) continue;
      const k = g[i]!;
      const x = xs[i]!;
      const y = ys[i]!;
      const newN = n[k]! + 1;
      const dx = x - xAvg[k]!;
      const dy = y - yAvg[k]!;
      const newXAvg = xAvg[k]! + dx / newN;
      const newYAvg = yAvg[k]! + dy / newN;
      ck[k] = ck[k]! + dx * (y - newYAvg);
      xMk[k] = xMk[k]! + dx * (x - newXAvg);
      yMk[k] = yMk[k]! + dy * (y - newYAvg);
      xAvg[k] = newXAvg;
      yAvg[k] = newYAvg;
      n[k] = newN;
    }
  }
  merge(g: Int32Array, rows: number, buffers: readonly Vector[]): void {
    const [bn, bx, by, bck, bxMk, byMk] = buffers.map((b) => b.values as Float64Array) as Float64Array[];
    const [n, xAvg, yAvg, ck, xMk, yMk] = this.s as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
    for (let i = 0; i < rows; i++) {
      const k = g[i]!;
      const n1 = n[k]!;
      const n2 = bn![i]!;
      const total = n1 + n2;
      const dx = bx![i]! - xAvg[k]!;
      const dy = by![i]! - yAvg[k]!;
      const dxN = total === 0 ? 0 : dx / total;
      const dyN = total === 0 ? 0 : dy / total;
      xAvg[k] = xAvg[k]! + dxN * n2;
      yAvg[k] = yAvg[k]! + dyN * n2;
      ck[k] = ck[k]! + bck![i]! + dx * dyN * n1 * n2;
      xMk[k] = xMk[k]! + bxMk![i]! + dx * dxN * n1 * n2;
      yMk[k] = yMk[k]! + byMk![i]! + dy * dyN * n1 * n2;
      n[k] = total;
    }
  }
  buffers(size: number): Vector[] {
    return this.s.map((a) => makeVector(DoubleType, a.slice(0, size), null, size));
  }
  evaluate(size: number): Vector {
    const [n, , , ck, xMk, yMk] = this.s as Float64Array[];
    const out = new Float64Array(size);
    const valid = new Uint8Array(size);
    for (let k = 0; k < size; k++) {
      const count = n![k]!;
      if (count === 0 || (this.result !== "covar_pop" && count === 1)) continue;
      // Spark 4's corr is NULL (not NaN) when either column is constant.
      if (this.result === "corr" && xMk![k]! * yMk![k]! === 0) continue;
      out[k] =
        this.result === "covar_pop"
          ? ck![k]! / count
          : this.result === "covar_samp"
            ? ck![k]! / (count - 1)
            : ck![k]! / Math.sqrt(xMk![k]! * yMk![k]!);
      valid[k] = 1;
    }
    return makeVector(DoubleType, out, valid.includes(0) ? valid : null, size);
  }
}

/** Two numeric (or STRING) arguments cast to DOUBLE, a DOUBLE result: corr, covar_*, regr_*. */
export function resolveTwoDoubles(name: string): AggregateFunction["resolve"] {
  return (args, types, call) => {
    checkArity(name, args, 2);
    const cast = args.map((a, i) => {
      const t = types[i]!;
      if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, i, '"DOUBLE"', a, t);
      return castTo(a, t, DoubleType);
    });
    return { args: cast, type: DoubleType };
  };
}

function covariance(name: Result): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve: resolveTwoDoubles(name),
    bufferTypes: () => Array.from({ length: SLOTS }, () => DoubleType),
    create: () => new CovarianceAcc(name),
  };
}

register(covariance("covar_pop"), covariance("covar_samp"), covariance("corr"));
