/**
 * Trigonometry and constants: sin cos tan cot sec csc, their inverses and hyperbolic forms,
 * atan2, degrees, radians, pi(), e(). As Spark's UnaryMathExpression, each takes a DOUBLE
 * (other numbers and STRING cast to it; BOOLEAN refused) and returns a DOUBLE; out-of-domain
 * input gives NaN, not NULL. Values agree with Spark's to the last bit in nearly every case; JVM
 * intrinsics (sin, cos, tan) and fdlibm's exp (cosh(1)) can differ from V8's by one ulp.
 */
import { constantVector } from "../columnar/vector.js";
import type { Expr } from "../plan/expressions.js";
import { type DataType, DoubleType, isNumeric } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";

/** Checks argument i is a number, text or NULL (all cast to DOUBLE); the cast argument. */
export function doubleArg(args: readonly Expr[], types: readonly DataType[], call: Expr, i: number): Expr {
  const t = types[i]!;
  if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, i, '"DOUBLE"', args[i]!, t);
  return castTo(args[i]!, t, DoubleType);
}

/** A DOUBLE -> DOUBLE function; `fn` returning null makes the row NULL. */
export function doubleFunction(name: string, fn: (x: number) => number | null): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      return { args: [doubleArg(args, types, call, 0)], type: DoubleType };
    },
    kernel: (args, n) => mapRows(DoubleType, args, n, (x) => fn(x as number)),
  };
}

/** (DOUBLE, DOUBLE) -> DOUBLE, NULL when either is NULL. */
export function doubleFunction2(name: string, fn: (x: number, y: number) => number | null): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      return { args: [doubleArg(args, types, call, 0), doubleArg(args, types, call, 1)], type: DoubleType };
    },
    kernel: (args, n) => mapRows(DoubleType, args, n, (x, y) => fn(x as number, y as number)),
  };
}

function constant(name: string, value: number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args) {
      checkArity(name, args, 0);
      return { args, type: DoubleType };
    },
    kernel: (_args, n) => constantVector(DoubleType, value, n),
  };
}

// Java's Math.toDegrees / toRadians multiply by these constants (not divide by PI).
const RADIANS_TO_DEGREES = 57.29577951308232;
const DEGREES_TO_RADIANS = 0.017453292519943295;

register(
  doubleFunction("sin", Math.sin),
  doubleFunction("cos", Math.cos),
  doubleFunction("tan", Math.tan),
  doubleFunction("cot", (x) => 1 / Math.tan(x)),
  doubleFunction("sec", (x) => 1 / Math.cos(x)),
  doubleFunction("csc", (x) => 1 / Math.sin(x)),
  doubleFunction("asin", Math.asin),
  doubleFunction("acos", Math.acos),
  doubleFunction("atan", Math.atan),
  doubleFunction("sinh", Math.sinh),
  doubleFunction("cosh", Math.cosh),
  doubleFunction("tanh", Math.tanh),
  doubleFunction("asinh", Math.asinh),
  doubleFunction("acosh", Math.acosh),
  // Spark defines atanh by this formula (JS's Math.atanh differs in the last bit).
  doubleFunction("atanh", (x) => 0.5 * (Math.log1p(x) - Math.log1p(-x))),
  // Spark adds 0.0 to both sides so atan2(-0.0, x) is atan2(0.0, x).
  doubleFunction2("atan2", (y, x) => Math.atan2(y + 0, x + 0)),
  doubleFunction("degrees", (x) => x * RADIANS_TO_DEGREES),
  doubleFunction("radians", (x) => x * DEGREES_TO_RADIANS),
  constant("pi", Math.PI),
  constant("e", Math.E),
);
