/**
 * array_insert(array, pos, value): value placed at 1-based pos, counting from the end when pos
 * is negative (-1 appends); a position past either end pads with NULLs; pos 0 is
 * INVALID_INDEX_OF_ZERO. As Spark 4 (spark.sql.legacy.negativeIndexInArrayInsert off). Also
 * array_size, the length of an array.
 */
import { ArusError } from "../common/errors.js";
import { widerNumeric } from "../types/coercion.js";
import { ArrayOf, type DataType, IntegerType, isIntegral, isNumeric, typesEqual } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { arrayElementDiffTypes, castTo, checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";

/** The element type both the array's elements and the new value fit, or null (no string or decimal promotion). */
function commonElementType(e: DataType, v: DataType): DataType | null {
  if (v.kind === "null" || typesEqual(e, v)) return e;
  if (e.kind === "null") return v;
  if (isNumeric(e) && isNumeric(v) && e.kind !== "decimal" && v.kind !== "decimal") return widerNumeric(e, v);
  return null;
}

export function insertAt(arr: readonly unknown[], pos: number, value: unknown): unknown[] {
  if (pos === 0) {
    throw new ArusError(
      "INVALID_INDEX_OF_ZERO",
      "[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).",
    );
  }
  const idx = pos > 0 ? pos - 1 : arr.length + pos + 1;
  if (idx < 0) return [value, ...new Array<unknown>(-idx).fill(null), ...arr];
  if (idx > arr.length) return [...arr, ...new Array<unknown>(idx - arr.length).fill(null), value];
  return [...arr.slice(0, idx), value, ...arr.slice(idx)];
}

const arrayInsert: ScalarFunction = {
  kind: "scalar",
  name: "array_insert",
  resolve(args, types, call) {
    checkArity("array_insert", args, 3);
    const [at, pt, vt] = types as [DataType, DataType, DataType];
    if (at.kind === "null") throw arrayElementDiffTypes(call, "array_insert", at, vt);
    if (at.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, at);
    if (!isIntegral(pt) || pt.kind === "bigint") throw typeMismatch(call, 1, '"INT"', args[1]!, pt);
    const et = commonElementType(at.elementType, vt);
    if (!et) throw arrayElementDiffTypes(call, "array_insert", at, vt);
    const type = ArrayOf(et, true);
    return { args: [castTo(args[0]!, at, type), castTo(args[1]!, pt, IntegerType), castTo(args[2]!, vt, et)], type };
  },
  kernel: (args, n) =>
    mapRows(
      args[0]!.type,
      args,
      n,
      (arr, pos, value) => (arr === null || pos === null ? null : insertAt(arr as unknown[], pos as number, value)),
      false,
    ),
};

/** array_size: the length of an array (cardinality / size also take maps). */
const arraySize: ScalarFunction = {
  kind: "scalar",
  name: "array_size",
  resolve(args, types, call) {
    checkArity("array_size", args, 1);
    if (types[0]!.kind !== "array" && types[0]!.kind !== "null") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, types[0]!);
    return { args, type: IntegerType };
  },
  kernel: (args, n) => mapRows(IntegerType, args, n, (a) => (a as unknown[]).length),
};

register(arrayInsert, arraySize);
