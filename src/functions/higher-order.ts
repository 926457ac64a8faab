/**
 * Spark's higher-order array functions — transform, filter, exists, forall, aggregate (reduce)
 * and zip_with — and the `lambdafunction` their lambdas are. This module holds what the
 * analyzer needs: the variables each lambda is given (analyzer/lambdas.ts binds them), the
 * argument checks and the result types. They are evaluated by execution/higher-order.ts, which
 * runs a lambda's body as one vectorized expression over every element of the batch; their
 * kernels are never called.
 */
import { AnalysisException } from "../common/errors.js";
import { type Call, type Expr, isLambda } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, BooleanType, type DataType, IntegerType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { evaluatedElsewhere, type HigherOrderSpec, registerHigherOrder, type VarSpec } from "./higher-order-registry.js";
import { checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";
import { nullableOf } from "./typing.js";

function elementOf(t: DataType): VarSpec | null {
  return t.kind === "array" ? [t.elementType, t.containsNull] : null;
}

/** transform / filter: the element, and its index when the lambda asks for two. */
const elementAndIndex: HigherOrderSpec = {
  arrays: [0],
  lambdaArgs: [1],
  counts: [2, 2],
  vars: (_a, types, _at, declared) => {
    const el = elementOf(types[0]!);
    if (!el) return [];
    return declared === 2 ? [el, [IntegerType, false]] : [el];
  },
};
const elementOnly: HigherOrderSpec = {
  arrays: [0],
  lambdaArgs: [1],
  counts: [2, 2],
  vars: (_a, types) => {
    const el = elementOf(types[0]!);
    return el ? [el] : [];
  },
};
/** aggregate(arr, zero, merge(acc, x)[, finish(acc)]): the accumulator has the zero's type. */
const aggregateSpec: HigherOrderSpec = {
  arrays: [0],
  lambdaArgs: [2, 3],
  counts: [3, 4],
  vars: (args, types, at) => {
    const el = elementOf(types[0]!);
    if (!el) return [];
    const merge = args[2];
    const accNullable = nullableOf(args[1]!) || (merge !== undefined && at === 3 && nullableOf(merge));
    return at === 2 ? [[types[1]!, nullableOf(args[1]!)], el] : [[types[1]!, accNullable]];
  },
};
const zipWithSpec: HigherOrderSpec = {
  arrays: [0, 1],
  lambdaArgs: [2],
  counts: [3, 3],
  vars: (_a, types) => {
    const l = elementOf(types[0]!);
    const r = elementOf(types[1]!);
    // a shorter array's missing elements are NULL
    return l && r
      ? [
          [l[0], true],
          [r[0], true],
        ]
      : [];
  },
};

registerHigherOrder("transform", elementAndIndex);
registerHigherOrder("filter", elementAndIndex);
registerHigherOrder("exists", elementOnly);
registerHigherOrder("forall", elementOnly);
registerHigherOrder("aggregate", aggregateSpec);
registerHigherOrder("reduce", aggregateSpec);
registerHigherOrder("zip_with", zipWithSpec);

/** The body of a resolved lambda (`lambdafunction(body, vars...)`). */
export function lambdaBody(e: Expr): Expr {
  return (e as Call).args[0]!;
}

export function requireArray(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): void {
  if (types[i]!.kind !== "array") throw typeMismatch(call, i, '"ARRAY"', args[i]!, types[i]!);
}
export function requireLambda(call: Expr, args: readonly Expr[], i: number): void {
  if (!isLambda(args[i]!)) {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: the ${i === 1 ? "second" : i === 2 ? "third" : "fourth"} parameter must be a lambda function (x -> ...), got "${exprToSql(args[i]!)}".`,
    );
  }
}
export function requireBooleanBody(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): void {
  if (types[i]!.kind !== "boolean") throw typeMismatch(call, i, '"BOOLEAN"', args[i]!, types[i]!);
}

const lambdafunction: ScalarFunction = {
  kind: "scalar",
  name: "lambdafunction",
  resolve: (args, types) => ({ args, type: types[0]! }),
  kernel: evaluatedElsewhere,
};

type InputCheck = (call: Expr, args: readonly Expr[], types: readonly DataType[], i: number) => void;
type ResultType = (args: readonly Expr[], types: readonly DataType[], call: Expr) => DataType;

/** `name(input, lambda)`: the input checked by `input` (an array, a map), then the result type. */
export function oneLambdaFn(name: string, input: InputCheck, result: ResultType): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      input(call, args, types, 0);
      requireLambda(call, args, 1);
      return { args, type: result(args, types, call) };
    },
    kernel: evaluatedElsewhere,
  };
}
const arrayFn = (name: string, result: ResultType) => oneLambdaFn(name, requireArray, result);

const transform = arrayFn("transform", (args, types) => ArrayOf(types[1]!, nullableOf(lambdaBody(args[1]!))));
const filter = arrayFn("filter", (args, types, call) => {
  requireBooleanBody(call, args, types, 1);
  return types[0]!;
});
const exists = arrayFn("exists", (args, types, call) => {
  requireBooleanBody(call, args, types, 1);
  return BooleanType;
});
const forall = arrayFn("forall", (args, types, call) => {
  requireBooleanBody(call, args, types, 1);
  return BooleanType;
});

function aggregateFn(name: string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 4); // the analyzer adds the identity finish, as Spark's parser does
      requireArray(call, args, types, 0);
      requireLambda(call, args, 2);
      requireLambda(call, args, 3);
      // Spark: the merge function must give the accumulator's own type (`0` and a DOUBLE sum do not mix).
      if (!typesEqual(types[2]!, types[1]!)) throw typeMismatch(call, 2, `"${sqlTypeName(types[1]!)}"`, args[2]!, types[2]!);
      return { args, type: types[3]! };
    },
    kernel: evaluatedElsewhere,
  };
}

const zipWith: ScalarFunction = {
  kind: "scalar",
  name: "zip_with",
  resolve(args, types, call) {
    checkArity("zip_with", args, 3);
    requireArray(call, args, types, 0);
    requireArray(call, args, types, 1);
    requireLambda(call, args, 2);
    return { args, type: ArrayOf(types[2]!, nullableOf(lambdaBody(args[2]!))) };
  },
  kernel: evaluatedElsewhere,
};

register(lambdafunction, transform, filter, exists, forall, aggregateFn("aggregate"), aggregateFn("reduce"), zipWith);
