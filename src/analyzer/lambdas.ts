/**
 * Lambdas of higher-order functions (`transform(a, x -> x + 1)`): binds each lambda's variables
 * to the types its function gives them (functions/higher-order.ts) and resolves the body with
 * those names in scope, as Spark's ResolveLambdaVariables does. A lambda variable shadows a
 * column of the same name (case-insensitive); an inner lambda's variables shadow an outer's.
 */
import { AnalysisException } from "../common/errors.js";
import { lambdaBody, requireArray } from "../functions/higher-order.js";
import { higherOrderSpec } from "../functions/higher-order-registry.js";
import { checkArity } from "../functions/registry.js";
import { typeOf } from "../functions/typing.js";
import {
  type Attribute,
  type Call,
  call,
  columnRef,
  type Expr,
  isLambda,
  type LambdaVariable,
  lambdaFunction,
  lambdaVar,
  unresolvedLambdaVar,
} from "../plan/expressions.js";
import { NullType } from "../types/datatypes.js";
import { nestFields } from "./resolve-names.js";

/** The lambda variables in scope, innermost first. */
export class LambdaScope {
  static readonly EMPTY = new LambdaScope([]);
  private constructor(private readonly vars: readonly LambdaVariable[]) {}

  with(vars: readonly LambdaVariable[]): LambdaScope {
    return new LambdaScope([...vars, ...this.vars]);
  }

  /** `x` or `x.field...` when `x` is a variable in scope; null otherwise. */
  lookup(nameParts: readonly string[]): Expr | null {
    const first = nameParts[0]!.toLowerCase();
    const v = this.vars.find((x) => x.name.toLowerCase() === first);
    return v ? nestFields(v, nameParts.slice(1)) : null;
  }
}

export type ResolveWithScope = (e: Expr, input: readonly Attribute[], scope: LambdaScope) => Expr;

/**
 * A higher-order call with its arguments resolved: the plain ones first, then each lambda with
 * the variables its function gives it. The call itself is left for the usual call resolution
 * (argument checks, result type).
 */
export function bindHigherOrder(e: Call, input: readonly Attribute[], scope: LambdaScope, resolve: ResolveWithScope): Call {
  const spec = higherOrderSpec(e.name)!;
  checkArity(e.name, e.args, ...spec.counts);
  let raw = e.args;
  // aggregate(arr, zero, merge) means finish = acc -> acc (Spark's parser adds the identity too)
  if ((e.name === "aggregate" || e.name === "reduce") && raw.length === 3) {
    raw = [...raw, lambdaFunction(columnRef(["acc"]), [unresolvedLambdaVar("acc")])];
  }
  const args: Expr[] = raw.map((a, i) => (spec.lambdaArgs.includes(i) && isLambda(a) ? a : resolve(a, input, scope)));
  const probe = call(e.name, args, e.distinct);
  for (const i of spec.arrays)
    if (args[i] !== undefined)
      requireArray(
        probe,
        args,
        args.map((a) => (isLambda(a) ? NullType : typeOf(a))),
        i,
      );
  const unbound = new Set(spec.lambdaArgs);
  for (const at of spec.lambdaArgs) {
    const lambda = args[at];
    if (lambda === undefined || !isLambda(lambda)) continue;
    const params = lambda.args.slice(1) as LambdaVariable[];
    checkDistinct(params);
    // a HOF's variables never depend on lambdas bound after this one
    const types = args.map((a, i) => (unbound.has(i) && isLambda(a) ? NullType : typeOf(a)));
    const given = spec.vars(args, types, at, params.length);
    if (given.length !== params.length) {
      throw new AnalysisException(
        "INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH",
        `[INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH] Invalid lambda function call. A higher order function expects ${params.length} arguments, but got ${given.length}.`,
      );
    }
    // An already resolved lambda (a plan analyzed again) keeps its variables: its body names them by id.
    const vars = params.every((p) => p.resolved) ? params : params.map((p, k) => lambdaVar(p.name, given[k]![0], given[k]![1]));
    args[at] = lambdaFunction(resolve(lambdaBody(lambda), input, scope.with(vars)), vars);
    unbound.delete(at);
  }
  return call(e.name, args, e.distinct);
}

function checkDistinct(params: readonly LambdaVariable[]): void {
  const names = params.map((p) => p.name.toLowerCase());
  if (new Set(names).size !== names.length) {
    throw new AnalysisException(
      "INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES",
      `[INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES] Invalid lambda function call. The lambda function has duplicate arguments ${params.map((p) => `\`${p.name}\``).join(", ")}. Please, consider to rename the argument names or set "spark.sql.caseSensitive" to "true".`,
    );
  }
}
