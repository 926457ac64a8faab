/**
 * array_sort(arr) (ascending, NULL elements last: Spark's ArraySort without a comparator, unlike
 * sort_array's NULLs first), array_repeat(x, n) and space(n).
 */
import { AnalysisException } from "../common/errors.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, IntegerType, StringType, sqlTypeName } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { compareValues } from "./predicates.js";
import { castTo, checkArity, numberArg, register, type ScalarFunction, typeMismatch } from "./registry.js";

const arraySort: ScalarFunction = {
  kind: "scalar",
  name: "array_sort",
  resolve(args, types, call) {
    checkArity("array_sort", args, 1);
    const t = types[0]!;
    if (t.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, t);
    if (t.elementType.kind === "map") {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
        `[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`array_sort\` does not support ordering on type "${sqlTypeName(t.elementType)}".`,
      );
    }
    return { args, type: t };
  },
  kernel: (args, n) =>
    mapRows(args[0]!.type, args, n, (arr) => {
      const present = (arr as unknown[]).filter((x) => x !== null && x !== undefined);
      const nulls = (arr as unknown[]).length - present.length;
      return [...present.sort(compareValues), ...new Array<null>(nulls).fill(null)];
    }),
};

const arrayRepeat: ScalarFunction = {
  kind: "scalar",
  name: "array_repeat",
  resolve(args, types) {
    checkArity("array_repeat", args, 2);
    return { args: [args[0]!, castTo(args[1]!, types[1]!, IntegerType)], type: ArrayOf(types[0]!, true) };
  },
  // a NULL count is a NULL array; a negative one an empty array
  kernel: (args, n) =>
    mapRows(
      ArrayOf(args[0]!.type, true),
      args,
      n,
      (x, k) => (k == null ? null : new Array<unknown>(Math.max(0, k as number)).fill(x ?? null)),
      false,
    ),
};

const space: ScalarFunction = {
  kind: "scalar",
  name: "space",
  resolve(args, types, call) {
    checkArity("space", args, 1);
    return { args: [numberArg(call, args, types, 0, IntegerType)], type: StringType };
  },
  kernel: (args, n) => mapRows(StringType, args, n, (k) => " ".repeat(Math.max(0, k as number))),
};

register(arraySort, arrayRepeat, space);
