/**
 * Window-only functions (Spark's ranking and offset window functions, and nth_value): their
 * analysis rules. The values are computed by the Window operator
 * (src/execution/operators/window-functions.ts); aggregates over a frame are the ordinary
 * aggregate functions of ./aggregates.ts.
 */
import { AnalysisException } from "../common/errors.js";
import { type Expr, literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { BooleanType, type DataType, DoubleType, IntegerType, isNumeric, NullType } from "../types/datatypes.js";
import { castTo, checkArity, type Resolved, register, typeMismatch, type WindowFunction } from "./registry.js";

function ranking(name: string, type: DataType, frame: "ranking" | "cumeDist" = "ranking"): WindowFunction {
  return {
    kind: "window",
    name,
    frame,
    resolve(args) {
      checkArity(name, args, 0);
      return { args, type };
    },
  };
}

/** An integer literal argument (Spark: a foldable INT), as a number. */
function intLiteral(call: Expr, index: number, arg: Expr, type: DataType, what: string): number {
  if (arg.kind !== "literal" || (type.kind !== "int" && type.kind !== "bigint") || arg.value === null) {
    if (arg.kind !== "literal") {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
        `[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "${exprToSql(call)}" due to data type mismatch: the input \`${what}\` should be a foldable "INT" expression; however, got "${exprToSql(arg)}".`,
      );
    }
    throw typeMismatch(call, index, '"INT"', arg, type);
  }
  return Number(arg.value);
}

function valueOutOfRange(call: Expr, what: string, range: string, value: string): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
    `[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The ${what} must be between ${range} (current value = ${value}).`,
  );
}

function booleanLiteral(call: Expr, index: number, arg: Expr | undefined, type: DataType | undefined): Expr {
  if (arg === undefined) return literal(false, BooleanType);
  if (arg.kind !== "literal" || type!.kind !== "boolean") throw typeMismatch(call, index, '"BOOLEAN"', arg, type!);
  return arg;
}

const ntile: WindowFunction = {
  kind: "window",
  name: "ntile",
  frame: "ranking",
  resolve(args, types, call) {
    checkArity("ntile", args, 1);
    const n = intLiteral(call, 0, args[0]!, types[0]!, "buckets");
    if (!(n > 0 && n <= 2147483647)) throw valueOutOfRange(call, "buckets", "(0, 2147483647]", String(n));
    return { args, type: IntegerType };
  },
};

/** lag / lead (input[, offset[, default]]), resolved to four arguments: input, offset, default, ignoreNulls. */
function offsetFn(name: "lag" | "lead"): WindowFunction {
  return {
    kind: "window",
    name,
    frame: "offset",
    resolve(args, types, call): Resolved {
      checkArity(name, args, 1, 4);
      const t = types[0]!;
      const offset = args[1] ?? literal(1, IntegerType);
      intLiteral(call, 1, offset, types[1] ?? IntegerType, "offset");
      const dflt = args[2] ?? literal(null, NullType);
      const dt = types[2] ?? NullType;
      if (dt.kind !== "null" && !sameOrCastable(dt, t)) throw typeMismatch(call, 2, `"${t.kind.toUpperCase()}"`, dflt, dt);
      const ignoreNulls = booleanLiteral(call, 3, args[3], types[3]);
      return { args: [args[0]!, offset, castTo(dflt, dt, t), ignoreNulls], type: t };
    },
  };
}

function sameOrCastable(from: DataType, to: DataType): boolean {
  if (from.kind === to.kind) return true;
  // Any numeric default (`-1.0` is a DECIMAL literal) is cast to a numeric input's type.
  return isNumeric(from) && isNumeric(to);
}

/** nth_value(input, offset[, ignoreNulls]): the offset-th row of the frame (1-based). */
const nthValue: WindowFunction = {
  kind: "window",
  name: "nth_value",
  frame: "framed",
  resolve(args, types, call) {
    checkArity("nth_value", args, 2, 3);
    const n = intLiteral(call, 1, args[1]!, types[1]!, "offset");
    if (!(n > 0)) throw valueOutOfRange(call, "offset", "(0, 9223372036854775807]", `${n}L`);
    return { args: [args[0]!, args[1]!, booleanLiteral(call, 2, args[2], types[2])], type: types[0]! };
  },
};

register(
  ranking("row_number", IntegerType),
  ranking("rank", IntegerType),
  ranking("dense_rank", IntegerType),
  ranking("percent_rank", DoubleType),
  ranking("cume_dist", DoubleType, "cumeDist"),
  ntile,
  offsetFn("lag"),
  offsetFn("lead"),
  nthValue,
);
