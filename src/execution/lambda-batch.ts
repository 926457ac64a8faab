/**
 * A lambda compiled for vectorized evaluation (execution/higher-order.ts and
 * higher-order-maps.ts): its body is compiled once against the outer columns plus its
 * variables, and run over a batch whose rows are the elements (or map entries) of every row of
 * the outer batch at once — the outer columns the body reads repeated for their row's
 * elements, then the variables' columns.
 */
import { type Batch, makeBatch } from "../columnar/batch.js";
import { getValue, nullVector, take, type Vector } from "../columnar/vector.js";
import type { EvalContext } from "../functions/index.js";
import type { Attribute, Call, Expr, LambdaVariable } from "../plan/expressions.js";
import { exprChildren } from "../plan/expressions.js";
import { NullType } from "../types/datatypes.js";

export type Compiled = (batch: Batch, ctx: EvalContext) => Vector;
export type CompileFn = (e: Expr, input: readonly Attribute[], index: Map<number, number>) => Compiled;

/** A lambda compiled against the outer columns plus its variables (appended after them). */
export interface CompiledLambda {
  readonly body: Compiled;
  /** Positions of the outer columns the body reads (the others need not be repeated). */
  readonly reads: readonly number[];
  readonly vars: readonly LambdaVariable[];
  /** Outer columns before the variables (the position of the first variable). */
  readonly width: number;
}

export function compileLambda(lambda: Expr, input: readonly Attribute[], index: Map<number, number>, compile: CompileFn): CompiledLambda {
  const [body, ...params] = (lambda as Call).args as [Expr, ...LambdaVariable[]];
  const width = index.size === 0 ? 0 : Math.max(...index.values()) + 1;
  const inner = new Map(index);
  params.forEach((v, k) => {
    inner.set(v.exprId, width + k);
  });
  const reads = new Set<number>();
  const visit = (e: Expr): void => {
    if (e.kind === "attribute" || e.kind === "lambdaVar") {
      const at = index.get(e.exprId);
      if (at !== undefined) reads.add(at);
    }
    exprChildren(e).forEach(visit);
  };
  visit(body);
  return { body: compile(body, input, inner), reads: [...reads], vars: params, width };
}

/**
 * The batch a lambda body runs over: row k is element k, outer column c holds row
 * `parents[k]`'s value (only the columns the body reads; the others are all-NULL stand-ins of
 * the right length, never read), then the variables' columns.
 */
export function lambdaBatch(b: Batch, fn: CompiledLambda, parents: Int32Array, vars: readonly Vector[]): Batch {
  const unread = nullVector(NullType, parents.length);
  const cols: Vector[] = new Array(fn.width).fill(unread);
  for (const r of fn.reads) cols[r] = take(b.columns[r]!, parents);
  return makeBatch([...cols, ...vars], parents.length);
}

/** A BOOLEAN vector's row as true / false / null (its values are stored as 1 and 0). */
export function truth(v: Vector, k: number): boolean | null {
  const x = getValue(v, k);
  return x === null ? null : x === true || x === 1;
}
