/**
 * Linear-regression aggregates regr_slope, regr_intercept, regr_r2, regr_sxx, regr_syy,
 * regr_sxy (y first, then x), plus regr_count, regr_avgx and regr_avgy, over the rows where both
 * values are non-NULL. The buffer is (n, xAvg, yAvg, ck, m2 of x and y in CentralMomentAgg's
 * form, Mk of x and y in PearsonCorrelation's form): Spark builds each function from those
 * aggregates, and each is folded with its own update and merge formulas so the bits agree.
 * regr_avgx / regr_avgy are avg over the same rows (DECIMAL stays DECIMAL); regr_count is
 * count(y, x).
 */
import "./aggregates.js"; // registers avg and count, used below
import { makeVector, type Vector } from "../columnar/vector.js";
import { DoubleType } from "../types/datatypes.js";
import { resolveTwoDoubles } from "./covariance-aggregates.js";
import { andValidity, growF64 } from "./kernel-util.js";
import { type Accumulator, type AggregateFunction, checkArity, lookupFunction, register, registerAlias } from "./registry.js";

type Result = "regr_slope" | "regr_intercept" | "regr_r2" | "regr_sxx" | "regr_syy" | "regr_sxy";
const SLOTS = 8; // n, xAvg, yAvg, ck, xM2, yM2, xMk, yMk

class RegressionAcc implements Accumulator {
  s: Float64Array[] = Array.from({ length: SLOTS }, () => new Float64Array(16));
  constructor(private readonly result: Result) {}
  resize(size: number): void {
    this.s = this.s.map((a) => growF64(a, size));
  }
  update(g: Int32Array, rows: number, input: readonly Vector[]): void {
    const [yv, xv] = input as [Vector, Vector];
    const xs = xv.values as Float64Array;
    const ys = yv.values as Float64Array;
    const [n, xAvg, yAvg, ck, xM2, yM2, xMk, yMk] = this.s as Float64Array[] as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    for (let i = 0; i < rows; i++) {
      if ((xv.validity !== null && xv.validity[i] === 0) || (yv.validity !== null && yv.validity[i] === 0)) continue;
      const k = g[i]!;
      const x = xs[i]!;
      const y = ys[i]!;
      const newN = n[k]! + 1;
      const dx = x - xAvg[k]!;
      const dy = y - yAvg[k]!;
      const dxN = dx / newN;
      const dyN = dy / newN;
      const newXAvg = xAvg[k]! + dxN;
      const newYAvg = yAvg[k]! + dyN;
      ck[k] = ck[k]! + dx * (y - newYAvg);
      xM2[k] = xM2[k]! + dx * (dx - dxN);
      yM2[k] = yM2[k]! + dy * (dy - dyN);
      xMk[k] = xMk[k]! + dx * (x - newXAvg);
      yMk[k] = yMk[k]! + dy * (y - newYAvg);
      xAvg[k] = newXAvg;
      yAvg[k] = newYAvg;
      n[k] = newN;
    }
  }
  merge(g: Int32Array, rows: number, buffers: readonly Vector[]): void {
    const b = buffers.map((v) => v.values as Float64Array);
    const [n, xAvg, yAvg, ck, xM2, yM2, xMk, yMk] = this.s as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    for (let i = 0; i < rows; i++) {
      const k = g[i]!;
      const n1 = n[k]!;
      const n2 = b[0]![i]!;
      const total = n1 + n2;
      const dx = b[1]![i]! - xAvg[k]!;
      const dy = b[2]![i]! - yAvg[k]!;
      const dxN = total === 0 ? 0 : dx / total;
      const dyN = total === 0 ? 0 : dy / total;
      xAvg[k] = xAvg[k]! + dxN * n2;
      yAvg[k] = yAvg[k]! + dyN * n2;
      ck[k] = ck[k]! + b[3]![i]! + dx * dyN * n1 * n2;
      xM2[k] = xM2[k]! + b[4]![i]! + dx * dxN * n1 * n2;
      yM2[k] = yM2[k]! + b[5]![i]! + dy * dyN * n1 * n2;
      xMk[k] = xMk[k]! + b[6]![i]! + dx * dxN * n1 * n2;
      yMk[k] = yMk[k]! + b[7]![i]! + dy * dyN * n1 * n2;
      n[k] = total;
    }
  }
  buffers(size: number): Vector[] {
    return this.s.map((a) => makeVector(DoubleType, a.slice(0, size), null, size));
  }
  private value(k: number): number | null {
    const [n, xAvg, yAvg, ck, xM2, yM2, xMk, yMk] = this.s.map((a) => a[k]!) as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    if (n === 0) return null;
    switch (this.result) {
      case "regr_sxx":
        return xM2;
      case "regr_syy":
        return yM2;
      case "regr_sxy":
        return ck;
      case "regr_r2": {
        // Spark 4: the square of corr(y, x); NULL when x is constant, 1 when only y is
        if (xMk === 0) return null;
        if (yMk === 0) return 1;
        const corr = ck / Math.sqrt(xMk * yMk);
        return corr * corr;
      }
      default: {
        // Spark 4: ck / m2 of x (NULL for a constant x), the intercept yAvg - slope * xAvg
        if (xM2 === 0) return null;
        const slope = ck / xM2;
        return this.result === "regr_slope" ? slope : yAvg - slope * xAvg;
      }
    }
  }
  evaluate(size: number): Vector {
    const out = new Float64Array(size);
    const valid = new Uint8Array(size);
    for (let k = 0; k < size; k++) {
      const v = this.value(k);
      if (v === null) continue;
      out[k] = v;
      valid[k] = 1;
    }
    return makeVector(DoubleType, out, valid.includes(0) ? valid : null, size);
  }
}

function regression(name: Result): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    // regr_sxx / regr_syy: Spark's rewrite reads x / y alone (over the rows where both are non-NULL)
    ...(name === "regr_sxx" ? { distinctArg: 1 } : name === "regr_syy" ? { distinctArg: 0 } : {}),
    resolve: resolveTwoDoubles(name),
    bufferTypes: () => Array.from({ length: SLOTS }, () => DoubleType),
    create: () => new RegressionAcc(name),
  };
}

/** Rows where the other argument is NULL are hidden from the inner accumulator. */
class BothNonNullAcc implements Accumulator {
  constructor(
    private readonly inner: Accumulator,
    private readonly which: 0 | 1,
  ) {}
  resize(n: number): void {
    this.inner.resize(n);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[this.which]!;
    const validity = andValidity(input[0]!.validity, input[1]!.validity, n);
    this.inner.update(g, n, [{ ...v, validity }]);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    this.inner.merge(g, n, buffers);
  }
  buffers(n: number): Vector[] {
    return this.inner.buffers(n);
  }
  evaluate(n: number): Vector {
    return this.inner.evaluate(n);
  }
}

/** regr_avgx (which = 1) / regr_avgy (which = 0): avg of one argument over the rows where both are non-NULL. */
function regressionAverage(name: string, which: 0 | 1): AggregateFunction {
  const avg = lookupFunction("avg") as AggregateFunction;
  return {
    kind: "aggregate",
    name,
    distinctArg: which,
    resolve(args, types, call, distinct) {
      checkArity(name, args, 2);
      const inner = avg.resolve([args[which]!], [types[which]!], call, distinct);
      const other = args[1 - which]!;
      return { args: which === 1 ? [other, inner.args[0]!] : [inner.args[0]!, other], type: inner.type };
    },
    bufferTypes: (types, distinct) => avg.bufferTypes([types[which]!], distinct),
    create: (types, resultType, distinct, literals, mode) =>
      new BothNonNullAcc(avg.create([types[which]!], resultType, distinct, [literals[which]], mode), which),
  };
}

register(
  regression("regr_slope"),
  regression("regr_intercept"),
  regression("regr_r2"),
  regression("regr_sxx"),
  regression("regr_syy"),
  regression("regr_sxy"),
  regressionAverage("regr_avgx", 1),
  regressionAverage("regr_avgy", 0),
);
registerAlias("regr_count", "count", 2);
