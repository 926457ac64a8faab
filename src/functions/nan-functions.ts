/**
 * NaN tests: `isnan(x)` (never NULL: false for NULL) and `nanvl(a, b)` (b where a is NaN).
 * Both take DOUBLE or FLOAT, other numbers and strings cast to DOUBLE as Spark's implicit
 * casts do (`isnan('abc')` fails under ANSI); nanvl's result is FLOAT only when both are.
 */
import { makeVector, type Vector } from "../columnar/vector.js";
import type { Expr } from "../plan/expressions.js";
import { BooleanType, type DataType, DoubleType, FloatType, isNumeric } from "../types/datatypes.js";
import { castTo, checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";

/** DOUBLE or FLOAT as it is; other numbers, STRING and NULL become DOUBLE. */
function floating(args: readonly Expr[], types: readonly DataType[], call: Expr, i: number): DataType {
  const t = types[i]!;
  if (t.kind === "double" || t.kind === "float") return t;
  if (isNumeric(t) || t.kind === "string" || t.kind === "null") return DoubleType;
  throw typeMismatch(call, i, '("DOUBLE" or "FLOAT")', args[i]!, t);
}

const isnan: ScalarFunction = {
  kind: "scalar",
  name: "isnan",
  resolve(args, types, call) {
    checkArity("isnan", args, 1);
    return { args: [castTo(args[0]!, types[0]!, floating(args, types, call, 0))], type: BooleanType };
  },
  kernel(args, n) {
    const a = args[0]!;
    const v = a.values as Float64Array | Float32Array;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = (a.validity === null || a.validity[i] === 1) && Number.isNaN(v[i]!) ? 1 : 0;
    return makeVector(BooleanType, out, null, n);
  },
};

const nanvl: ScalarFunction = {
  kind: "scalar",
  name: "nanvl",
  resolve(args, types, call) {
    checkArity("nanvl", args, 2);
    const a = floating(args, types, call, 0);
    const b = floating(args, types, call, 1);
    const t = a.kind === "float" && b.kind === "float" ? FloatType : DoubleType;
    return { args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, t)], type: t };
  },
  kernel(args, n) {
    const [a, b] = args as [Vector, Vector];
    const av = a.values as Float64Array;
    const bv = b.values as Float64Array;
    const out = new Float64Array(n);
    const valid = new Uint8Array(n);
    let nulls = false;
    for (let i = 0; i < n; i++) {
      const aSet = a.validity === null || a.validity[i] === 1;
      const takeB = aSet && Number.isNaN(av[i]!);
      const set = takeB ? b.validity === null || b.validity[i] === 1 : aSet;
      valid[i] = set ? 1 : 0;
      if (!set) nulls = true;
      else out[i] = takeB ? bv[i]! : av[i]!;
    }
    return makeVector(a.type, out, nulls ? valid : null, n);
  },
};

register(isnan, nanvl);
