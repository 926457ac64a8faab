/**
 * Spark's higher-order map functions — map_filter, transform_keys, transform_values,
 * map_zip_with — and array_sort's comparator form (`array_sort(a, (l, r) -> ...)`): their lambda
 * variables, checks and result types. Evaluated by execution/higher-order-maps.ts and
 * execution/higher-order.ts; see functions/higher-order.ts for the array functions.
 */
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, MapOf, sqlTypeName } from "../types/datatypes.js";
import { lambdaBody, oneLambdaFn, requireBooleanBody, requireLambda } from "./higher-order.js";
import { evaluatedElsewhere, type HigherOrderSpec, registerHigherOrder } from "./higher-order-registry.js";
import { checkMapKeyType } from "./map-key-type.js";
import { checkArity, lookupFunction, register, type ScalarFunction, typeMismatch } from "./registry.js";
import { nullableOf } from "./typing.js";

function requireMap(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): void {
  if (types[i]!.kind !== "map") throw typeMismatch(call, i, '"MAP"', args[i]!, types[i]!);
}

/** The key and the value of each entry. */
const entry: HigherOrderSpec = {
  arrays: [],
  lambdaArgs: [1],
  counts: [2, 2],
  vars: (_a, types) => {
    const t = types[0]!;
    return t.kind === "map"
      ? [
          [t.keyType, false],
          [t.valueType, t.valueContainsNull],
        ]
      : [];
  },
};
/** map_zip_with: the key, then each map's value for it (NULL where a map lacks the key). */
const zipEntry: HigherOrderSpec = {
  arrays: [],
  lambdaArgs: [2],
  counts: [3, 3],
  vars: (_a, types) => {
    const l = types[0]!;
    const r = types[1]!;
    return l.kind === "map" && r.kind === "map"
      ? [
          [l.keyType, false],
          [l.valueType, true],
          [r.valueType, true],
        ]
      : [];
  },
};
/** array_sort's comparator: two elements. */
const comparator: HigherOrderSpec = {
  arrays: [0],
  lambdaArgs: [1],
  counts: [1, 2],
  lambdaOptional: true,
  vars: (_a, types) => {
    const t = types[0]!;
    return t.kind === "array"
      ? [
          [t.elementType, t.containsNull],
          [t.elementType, t.containsNull],
        ]
      : [];
  },
};

const mapFn = (name: string, result: Parameters<typeof oneLambdaFn>[2]) => oneLambdaFn(name, requireMap, result);

const mapFilter = mapFn("map_filter", (args, types, call) => {
  requireBooleanBody(call, args, types, 1);
  return types[0]!;
});
const transformValues = mapFn("transform_values", (args, types) => {
  const t = types[0]! as DataType & { kind: "map" };
  return MapOf(t.keyType, types[1]!, nullableOf(lambdaBody(args[1]!)));
});
const transformKeys = mapFn("transform_keys", (_args, types, call) => {
  const t = types[0]! as DataType & { kind: "map" };
  checkMapKeyType(call, types[1]!);
  return MapOf(types[1]!, t.valueType, t.valueContainsNull);
});

const mapZipWith: ScalarFunction = {
  kind: "scalar",
  name: "map_zip_with",
  resolve(args, types, call) {
    checkArity("map_zip_with", args, 3);
    requireMap(call, args, types, 0);
    requireMap(call, args, types, 1);
    requireLambda(call, args, 2);
    const l = types[0]! as DataType & { kind: "map" };
    const r = types[1]! as DataType & { kind: "map" };
    if (sqlTypeName(l.keyType) !== sqlTypeName(r.keyType)) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES",
        `[DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to the \`map_zip_with\` should have been two maps with compatible key types, but it's ["${sqlTypeName(l.keyType)}", "${sqlTypeName(r.keyType)}"].`,
      );
    }
    return { args, type: MapOf(l.keyType, types[2]!, nullableOf(lambdaBody(args[2]!))) };
  },
  kernel: evaluatedElsewhere,
};

/** Spark's check on array_sort's comparator: it must give an INT. */
function checkComparator(call: Expr, types: readonly DataType[]): void {
  const t = types[1]!;
  if (t.kind !== "int") {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE",
      `[DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`lambdafunction\` requires return "INT" type, but the actual is "${sqlTypeName(t)}" type.`,
    );
  }
}

registerHigherOrder("map_filter", entry);
registerHigherOrder("transform_values", entry);
registerHigherOrder("transform_keys", entry);
registerHigherOrder("map_zip_with", zipEntry);
/**
 * array_sort: the plain sort (array-more.ts) with one argument; with a comparator
 * (`array_sort(a, (l, r) -> ...)`) the higher-order form execution/higher-order.ts runs.
 */
function arraySortWithComparator(): ScalarFunction {
  const plain = lookupFunction("array_sort") as ScalarFunction;
  return {
    ...plain,
    resolve(args, types, call) {
      checkArity("array_sort", args, 1, 2);
      if (args.length === 1) return plain.resolve(args, types, call);
      if (types[0]!.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, types[0]!);
      requireLambda(call, args, 1);
      checkComparator(call, types);
      return { args, type: types[0]! };
    },
  };
}

registerHigherOrder("array_sort", comparator);
register(mapFilter, transformValues, transformKeys, mapZipWith, arraySortWithComparator());
