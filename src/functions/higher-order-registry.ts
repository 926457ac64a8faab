/**
 * Which functions are higher-order and how their lambdas are bound: a module with no imports
 * but types and the registry, so the function modules that register specs (higher-order.ts,
 * higher-order-maps.ts) and the analyzer / execution that read them never meet an import cycle
 * at load time, whatever module is loaded first.
 */
import { type Expr, isLambda } from "../plan/expressions.js";
import type { DataType } from "../types/datatypes.js";
import type { Kernel } from "./registry.js";

/** A lambda variable's type and nullability. */
export type VarSpec = readonly [DataType, boolean];

export interface HigherOrderSpec {
  /** Arguments that must be arrays (positions). */
  readonly arrays: readonly number[];
  /** Arguments that must be lambdas (positions). */
  readonly lambdaArgs: readonly number[];
  /** The argument counts it takes, fewest and most (checked before anything else, as Spark's builders do). */
  readonly counts: readonly [number, number];
  /** The function also runs without any lambda (array_sort's comparator). */
  readonly lambdaOptional?: boolean;
  /**
   * The variables the HOF gives lambda `lambdaAt` (an argument position) when that lambda
   * declares `declared` of them, from the arguments resolved so far (earlier lambdas resolved);
   * called only once the `arrays` arguments are arrays.
   */
  vars(args: readonly Expr[], types: readonly DataType[], lambdaAt: number, declared: number): readonly VarSpec[];
}

const specs = new Map<string, HigherOrderSpec>();

/** Makes `name` a higher-order function (its lambdas bound by analyzer/lambdas.ts). */
export function registerHigherOrder(name: string, spec: HigherOrderSpec): void {
  specs.set(name, spec);
}

export function higherOrderSpec(name: string): HigherOrderSpec | undefined {
  return specs.get(name);
}

/**
 * Whether this call is a higher-order one: its function takes lambdas, and it was given one or
 * must have one (`array_sort(a)` is the plain sort, `array_sort(a, (l, r) -> ...)` is not).
 */
export function isHigherOrderCall(e: Expr): boolean {
  if (e.kind !== "call") return false;
  const spec = specs.get(e.name);
  return spec !== undefined && (!spec.lambdaOptional || e.args.some(isLambda));
}

export const evaluatedElsewhere: Kernel = () => {
  throw new Error("higher-order functions are evaluated by execution/higher-order.ts");
};
