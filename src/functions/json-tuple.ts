/**
 * json_tuple(json, 'f1', 'f2', ...): a generator giving exactly one row per input row, columns
 * c0, c1, ... holding the named top-level fields of a JSON object as text (Spark's JsonTuple).
 * A string comes back unquoted, JSON null as NULL, numbers, booleans, objects and arrays as
 * compact JSON (json-path.ts, shared with get_json_object). Invalid JSON, a top-level value that
 * is not an object, or a missing field give NULL; of duplicate keys the last wins (Spark's loop
 * over the fields overwrites, unlike get_json_object).
 */
import { isValid, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, arityError } from "../common/errors.js";
import { exprToSql } from "../plan/sql-text.js";
import { field, StringType } from "../types/datatypes.js";
import { registerGenerator } from "./generators.js";
import { type Json, readJson, writeJson } from "./json-path.js";

function fieldText(v: Json): string | null {
  if (v === null) return null;
  return typeof v === "string" ? v : writeJson(v);
}

registerGenerator({
  name: "json_tuple",
  resolve(call, args, types) {
    if (args.length < 2) throw arityError("json_tuple", "> 1", args.length);
    if (types.some((t) => t.kind !== "string")) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.NON_STRING_TYPE",
        `[DATATYPE_MISMATCH.NON_STRING_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: all arguments of the function \`json_tuple\` must be strings.`,
      );
    }
    return { args, fields: args.slice(1).map((_, i) => field(`c${i}`, StringType)) };
  },
  generate(args, n) {
    const [json, ...names] = args;
    const out = names.map(() => new Array<string | null>(n).fill(null));
    const jsonValues = json!.values as unknown[];
    for (let i = 0; i < n; i++) {
      if (!isValid(json!, i)) continue;
      const root = readJson(jsonValues[i] as string);
      if (root === undefined || root === null || typeof root !== "object" || !("obj" in root)) continue;
      const byKey = new Map(root.obj);
      names.forEach((nameVector, k) => {
        if (!isValid(nameVector, i)) return;
        const v = byKey.get((nameVector.values as unknown[])[i] as string);
        if (v !== undefined) out[k]![i] = fieldText(v);
      });
    }
    return { rows: Int32Array.from({ length: n }, (_, i) => i), columns: out.map((vals) => vectorFromValues(StringType, vals)) };
  },
});
