/**
 * NULL-aware helpers Spark 4 has beside coalesce/nvl/nullif: nvl2(a, b, c) (b where a is not
 * NULL, else c), equal_null(a, b) (`a <=> b`), zeroifnull(x) (`coalesce(x, 0)`), nullifzero(x)
 * (`nullif(x, 0)`), and typeof(x) (the argument's type as Spark's simpleString).
 */
import { constantVector, getValue, vectorFromValues } from "../columnar/vector.js";
import { type Expr, literal } from "../plan/expressions.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { type DataType, IntegerType, StringType, simpleString } from "../types/datatypes.js";
import { castVector } from "./cast.js";
import { castTo, checkArity, diffTypes, lookupFunction, register, type ScalarFunction } from "./registry.js";

function scalar(name: string): ScalarFunction {
  const f = lookupFunction(name);
  if (f?.kind !== "scalar") throw new Error(`no function ${name}`);
  return f;
}

const nvl2: ScalarFunction = {
  kind: "scalar",
  name: "nvl2",
  resolve(args, types, call) {
    checkArity("nvl2", args, 3);
    const t = widerTypeOfAll([types[1]!, types[2]!]);
    if (!t) throw diffTypes(call, "nvl2", [types[1]!, types[2]!]);
    return { args: [args[0]!, castTo(args[1]!, types[1]!, t), castTo(args[2]!, types[2]!, t)], type: t };
  },
  kernel(args, n) {
    const [a, b, c] = args as [(typeof args)[0], (typeof args)[0], (typeof args)[0]];
    const vals = new Array<unknown>(n);
    for (let i = 0; i < n; i++) vals[i] = a.validity === null || a.validity[i] === 1 ? getValue(b!, i) : getValue(c!, i);
    return vectorFromValues(b!.type, vals);
  },
};

const equalNull: ScalarFunction = {
  kind: "scalar",
  name: "equal_null",
  resolve(args, types, call) {
    checkArity("equal_null", args, 2);
    return scalar("<=>").resolve(args, types, call);
  },
  kernel: (args, n, ctx) => scalar("<=>").kernel(args, n, ctx),
};

/**
 * A one-argument function that is `base(x, 0)`. The 0 is added in the kernel, not as an
 * argument, so resolving the call again sees the one argument the user wrote.
 */
function withZero(name: string, base: string): ScalarFunction {
  const zeroType = (args: readonly Expr[], types: readonly DataType[], call: Expr): DataType =>
    scalar(base).resolve([args[0]!, literal(0, IntegerType)], [types[0]!, IntegerType], call).type;
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = zeroType(args, types, call);
      // coalesce widens x to the common type; nullif keeps x's own.
      return { args: [base === "coalesce" ? castTo(args[0]!, types[0]!, t) : args[0]!], type: t };
    },
    kernel(args, n, ctx) {
      const x = args[0]!;
      const zero = constantVector(IntegerType, 0, n);
      return scalar(base).kernel([x, base === "coalesce" ? castVector(zero, x.type, n, ctx) : zero], n, ctx);
    },
  };
}

const typeOf: ScalarFunction = {
  kind: "scalar",
  name: "typeof",
  resolve(args) {
    checkArity("typeof", args, 1);
    return { args, type: StringType };
  },
  kernel: (args, n) => constantVector(StringType, simpleString(args[0]!.type), n),
  typeOnlyArgs: true,
};

register(nvl2, equalNull, withZero("zeroifnull", "coalesce"), withZero("nullifzero", "nullif"), typeOf);
