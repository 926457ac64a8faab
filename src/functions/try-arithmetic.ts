/**
 * try_add, try_subtract, try_multiply, try_divide, try_mod: the operators `+ - * / %` with
 * ANSI's checks, where each row that would raise (overflow, division by zero) is NULL instead,
 * whatever `spark.sql.ansi.enabled` says. Types and results are the operator's own, including
 * date + days and timestamp + interval for try_add.
 */
import { concatVectors, nullVector, slice, type Vector } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import type { DataType } from "../types/datatypes.js";
import { tolerantCasts } from "./cast.js";
import { checkArity, type EvalContext, lookupFunction, register, type ScalarFunction } from "./registry.js";

function operator(op: string): ScalarFunction {
  const f = lookupFunction(op);
  if (f?.kind !== "scalar") throw new Error(`no operator ${op}`);
  return f;
}

/** A batch that raises is redone row by row, so only the rows that raise become NULL. */
function tolerant(op: ScalarFunction, args: readonly Vector[], n: number, ctx: EvalContext): Vector {
  const ansi = { ...ctx, ansi: true };
  try {
    return op.kernel(args, n, ansi);
  } catch (e) {
    if (!(e instanceof ArusError)) throw e;
  }
  const rows: Vector[] = [];
  for (let i = 0; i < n; i++) {
    try {
      rows.push(
        op.kernel(
          args.map((a) => slice(a, i, i + 1)),
          1,
          ansi,
        ),
      );
    } catch (e) {
      if (!(e instanceof ArusError)) throw e;
      rows.push(nullVector(resultType(op, args, ansi), 1));
    }
  }
  return concatVectors(resultType(op, args, ansi), rows);
}

/** The operator's result type for these argument vectors (its kernel over no rows). */
function resultType(op: ScalarFunction, args: readonly Vector[], ctx: EvalContext): DataType {
  return op.kernel(
    args.map((a) => slice(a, 0, 0)),
    0,
    ctx,
  ).type;
}

function tryOf(name: string, op: string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, c) {
      checkArity(name, args, 2);
      // Resolved as the operator itself, so errors and casts are the operator's; its implicit
      // casts become try-casts, as Spark's TryEval covers them too (try_add('a', 1) is NULL).
      const r = operator(op).resolve(args, types, c);
      return { ...r, args: r.args.map(tolerantCasts) };
    },
    kernel: (args, n, ctx) => tolerant(operator(op), args, n, ctx),
  };
}

register(tryOf("try_add", "+"), tryOf("try_subtract", "-"), tryOf("try_multiply", "*"), tryOf("try_divide", "/"), tryOf("try_mod", "%"));
