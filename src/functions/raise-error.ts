/**
 * raise_error(message) and assert_true(condition[, message]): fail the query with Spark's
 * USER_RAISED_EXCEPTION when evaluated (assert_true when the condition is not true, NULL
 * included); otherwise a NULL of type VOID. Column names show the arguments Spark fills in.
 */

import { getValue, nullVector } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import { literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { BooleanType, NullType, StringType } from "../types/datatypes.js";
import { castTo, checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";

const userRaised = (message: string) => new ArusError("USER_RAISED_EXCEPTION", `[USER_RAISED_EXCEPTION] ${message}`);

const raiseError: ScalarFunction = {
  kind: "scalar",
  name: "raise_error",
  resolve(args, types) {
    checkArity("raise_error", args, 1);
    return { args: [castTo(args[0]!, types[0]!, StringType)], type: NullType };
  },
  // evaluated at all (a row reached it), it raises with the first row's message
  kernel(args, n) {
    if (n > 0) throw userRaised(String(getValue(args[0]!, 0)));
    return nullVector(NullType, n);
  },
  foldable: false,
};

const assertTrue: ScalarFunction = {
  kind: "scalar",
  name: "assert_true",
  resolve(args, types, call) {
    checkArity("assert_true", args, 1, 2);
    if (types[0]!.kind !== "boolean" && types[0]!.kind !== "null") throw typeMismatch(call, 0, '"BOOLEAN"', args[0]!, types[0]!);
    // Spark's default message quotes the condition's SQL
    const message = args[1] ? castTo(args[1], types[1]!, StringType) : literal(`'${exprToSql(args[0]!)}' is not true!`, StringType);
    return { args: [castTo(args[0]!, types[0]!, BooleanType), message], type: NullType };
  },
  kernel(args, n) {
    for (let i = 0; i < n; i++) {
      const ok = getValue(args[0]!, i);
      if (ok !== 1 && ok !== true) throw userRaised(String(getValue(args[1]!, i)));
    }
    return nullVector(NullType, n);
  },
  foldable: false,
};

register(raiseError, assertTrue);
