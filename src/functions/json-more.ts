/**
 * JSON text helpers: json_array_length, json_object_keys (top level only, the first value of the
 * text; NULL for invalid JSON or the wrong kind of value) and schema_of_json, which infers a type by the JSON reader's rules
 * (integers BIGINT, other numbers DOUBLE, nulls STRING, struct fields sorted by name).
 */
import { AnalysisException, IllegalArgumentException } from "../common/errors.js";
import { inferJsonSchema } from "../connectors/files/json/json-infer.js";
import {
  isJsonObject,
  type JsonFeatures,
  jsonFeatures,
  parseJsonText,
  SPARK_JSON_FEATURES,
  sourceTextOf,
} from "../connectors/files/json/json-text.js";
import { SourceOptions } from "../connectors/files/options.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, IntegerType, StringType, sqlTypeName } from "../types/datatypes.js";
import { optionsOf } from "./json.js";
import { mapRows } from "./kernel-util.js";
import { checkArity, exactArg, register, type ScalarFunction } from "./registry.js";

/** The first JSON value of the text as Spark's shared Jackson factory reads it (single quotes, no NaN). */
function parseOrUndefined(text: string): unknown {
  try {
    return parseJsonText(text, { ...SPARK_JSON_FEATURES, allowNonNumericNumbers: false });
  } catch {
    return undefined;
  }
}

function stringFunction(name: string, result: typeof IntegerType | ReturnType<typeof ArrayOf>, fn: (s: string) => unknown): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      // a STRING or NULL only: Spark's JSON functions are ExpectsInputTypes, with no implicit cast
      return { args: [exactArg(call, args, types, 0, StringType)], type: result };
    },
    kernel: (args, n) => mapRows(result, args, n, (s) => fn(s as string)),
  };
}

const jsonArrayLength = stringFunction("json_array_length", IntegerType, (s) => {
  const v = parseOrUndefined(s);
  return Array.isArray(v) ? v.length : null;
});

const jsonObjectKeys = stringFunction("json_object_keys", ArrayOf(StringType), (s) => {
  const v = parseOrUndefined(s);
  return isJsonObject(v) ? Object.keys(v) : null;
});

/** The SQL type of one JSON document, by the JSON reader's inference (with the options' parser features). */
export function schemaOfJson(text: string, features: JsonFeatures = SPARK_JSON_FEATURES): string {
  let first = text.trim(); // an object's or array's own text: what follows it is never read
  if (first === "") return "STRING";
  try {
    const v = parseJsonText(text, features);
    if (typeof v === "object" && v !== null) first = sourceTextOf(v) ?? first;
  } catch (e) {
    // Spark fails the query with Jackson's parse error
    throw new IllegalArgumentException(`schema_of_json cannot read its input as JSON (${(e as Error).message}): ${text}`);
  }
  const st = inferJsonSchema([{ file: "schema_of_json", text: `{"v":${first}}` }], "PERMISSIVE", "_corrupt_record", {}, features);
  const v = st.fields.find((f) => f.name === "v");
  return sqlTypeName(v?.type ?? StringType);
}

const schemaOfJsonFn: ScalarFunction = {
  kind: "scalar",
  name: "schema_of_json",
  resolve(args, types, call) {
    checkArity("schema_of_json", args, 1, 2);
    const a = args[0]!;
    if (a.kind !== "literal" || types[0]!.kind !== "string" || a.value === null) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
        `[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "${exprToSql(call)}" due to data type mismatch: the input json should be a foldable "STRING" expression; however, got "${exprToSql(a)}".`,
      );
    }
    return { args: args.slice(0, 2), type: StringType };
  },
  kernel(args, n) {
    const features = jsonFeatures(new SourceOptions(args[1] ? optionsOf(args[1].values[0]) : {}));
    return mapRows(StringType, args.slice(0, 1), n, (s) => schemaOfJson(s as string, features));
  },
};

register(jsonArrayLength, jsonObjectKeys, schemaOfJsonFn);
