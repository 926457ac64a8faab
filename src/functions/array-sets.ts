/**
 * Array functions by element equality: array_position, array_remove, arrays_overlap,
 * array_union, array_intersect, array_except (set results, distinct, in first-seen order;
 * NaN equals NaN, one NULL kept), array_compact, array_append / array_prepend. Elements are
 * compared as Spark's ordering compares them (compareValues).
 */

import { setElement } from "../columnar/value-key.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerType } from "../types/coercion.js";
import { ArrayOf, type ArrayType, type DataType, LongType, NullType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { compareValues } from "./predicates.js";
import {
  arrayElementDiffTypes,
  castTo,
  checkArity,
  diffTypes,
  nullTypeError,
  register,
  type ScalarFunction,
  typeMismatch,
} from "./registry.js";

const isNull = (x: unknown): boolean => x === null || x === undefined;
const same = (x: unknown, y: unknown): boolean => (isNull(x) ? isNull(y) : !isNull(y) && compareValues(x, y) === 0);
const includes = (arr: readonly unknown[], x: unknown): boolean => arr.some((e) => same(e, x));

function arrayArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): ArrayType {
  const t = types[i]!;
  if (t.kind === "null") return ArrayOf(NullType);
  if (t.kind !== "array") throw typeMismatch(call, i, '"ARRAY"', args[i]!, t);
  return t;
}

/** (array, element) functions: the element and the array's elements widened to one type. */
function arrayAndElement(
  name: string,
  result: (t: ArrayType) => DataType,
  fn: (arr: unknown[], x: unknown) => unknown,
  nullElement: "null" | "value",
  /** How Spark refuses a NULL literal for the array (each function its own way). */
  nullArray: "nullType" | "diffTypes" | "notArray",
): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      if (types[0]!.kind === "null") {
        if (nullArray === "nullType") throw nullTypeError(call, name);
        if (nullArray === "diffTypes") throw arrayElementDiffTypes(call, name, types[0]!, types[1]!);
        throw typeMismatch(call, 0, '"ARRAY"', args[0]!, types[0]!);
      }
      const a = arrayArg(call, args, types, 0);
      const e = widerType(a.elementType, types[1]!, false);
      if (!e) throw diffTypes(call, name, types);
      const t = ArrayOf(e, a.containsNull);
      return { args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, e)], type: result(t) };
    },
    // A NULL array is NULL; a NULL element is NULL too, unless the function takes it as a value.
    kernel: (args, n) =>
      mapRows(
        result(args[0]!.type as ArrayType),
        args,
        n,
        (arr, x) => (isNull(arr) || (isNull(x) && nullElement === "null") ? null : fn(arr as unknown[], x ?? null)),
        false,
      ),
  };
}

/** (array, array) set functions over the two arrays' common type. */
function arrayPair(name: string, fn: (a: unknown[], b: unknown[]) => unknown, result?: DataType): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      // two ARRAYs, a NULL literal refused too (Spark's BINARY_ARRAY_DIFF_TYPES for either)
      const [a, b] = types as [DataType, DataType];
      if (a.kind !== "array" || b.kind !== "array") throw binaryArrayDiffTypes(call, name, types);
      // Spark's tightest common type: a DECIMAL only meets the same DECIMAL.
      const decimals = a.elementType.kind === "decimal" || b.elementType.kind === "decimal";
      const t = decimals && !typesEqual(a.elementType, b.elementType) ? null : widerType(a, b, false);
      if (!t) throw binaryArrayDiffTypes(call, name, types);
      return { args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, t)], type: result ?? t };
    },
    kernel: (args, n) => mapRows(result ?? args[0]!.type, args, n, (a, b) => fn(a as unknown[], b as unknown[])),
  };
}

function binaryArrayDiffTypes(call: Expr, name: string, types: readonly DataType[]): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES",
    `[DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to function \`${name}\` should have been two "ARRAY" with same element type, but it's [${types.map((t) => `"${sqlTypeName(t)}"`).join(", ")}].`,
  );
}

function distinctInto(out: unknown[], xs: readonly unknown[], keep: (x: unknown) => boolean = () => true): unknown[] {
  for (const x of xs) if (keep(x) && !includes(out, x)) out.push(setElement(x ?? null));
  return out;
}

/** arrays_overlap: true if a non-NULL element is shared; else NULL if either has a NULL (and both are non-empty). */
function overlap(a: unknown[], b: unknown[]): boolean | null {
  if (a.some((x) => !isNull(x) && includes(b, x))) return true;
  return a.length > 0 && b.length > 0 && (a.some(isNull) || b.some(isNull)) ? null : false;
}

const arrayCompact: ScalarFunction = {
  kind: "scalar",
  name: "array_compact",
  resolve(args, types, call) {
    checkArity("array_compact", args, 1);
    const t = arrayArg(call, args, types, 0);
    return { args: [castTo(args[0]!, types[0]!, t)], type: ArrayOf(t.elementType, false) };
  },
  kernel: (args, n) =>
    mapRows(ArrayOf((args[0]!.type as ArrayType).elementType, false), args, n, (arr) => (arr as unknown[]).filter((x) => !isNull(x))),
};

/** array_append(arr, x) / array_prepend(arr, x): the element added even when NULL; NULL array gives NULL. */
function arrayAdd(name: string, atEnd: boolean): ScalarFunction {
  return arrayAndElement(
    name,
    (t) => ArrayOf(t.elementType, true),
    (arr, x) => (atEnd ? [...arr, x] : [x, ...arr]),
    "value",
    "notArray",
  );
}

register(
  arrayAndElement(
    "array_position",
    () => LongType,
    (arr, x) => arr.findIndex((e) => !isNull(e) && same(e, x)) + 1,
    "null",
    "nullType",
  ),
  arrayAndElement(
    "array_remove",
    (t) => t,
    (arr, x) => arr.filter((e) => isNull(e) || !same(e, x)).map((e) => e ?? null),
    "null",
    "diffTypes",
  ),
  arrayPair("array_union", (a, b) => distinctInto(distinctInto([], a), b)),
  arrayPair("array_intersect", (a, b) => distinctInto([], a, (x) => includes(b, x))),
  arrayPair("array_except", (a, b) => distinctInto([], a, (x) => !includes(b, x))),
  arrayPair("arrays_overlap", overlap, { kind: "boolean" } as DataType),
  arrayCompact,
  arrayAdd("array_append", true),
  arrayAdd("array_prepend", false),
);
