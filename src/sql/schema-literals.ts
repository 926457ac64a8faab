/**
 * `from_json(s, 'a INT, b STRING')` / `from_csv(...)` in SQL text: the DDL schema string becomes
 * the schema JSON the functions read (what `F.from_json` passes), so both spellings meet one
 * kernel. from_json also takes an ARRAY or MAP type (`'ARRAY<INT>'`, as Spark); from_csv's
 * schema that is not a struct is refused by name. Their options (and to_json's, to_csv's and
 * schema_of_json's) written as `map('mode', 'FAILFAST', ...)` of string literals become the
 * options JSON `F.from_json` passes.
 */
import { AnalysisException } from "../common/errors.js";
import { typeToJson } from "../connectors/table/schema-json.js";
import { type Call, type Expr, literal } from "../plan/expressions.js";
import { StringType, sqlTypeName } from "../types/datatypes.js";
import { parseDataType, parseSchema } from "./datatype.js";

const SCHEMA_ARG: Readonly<Record<string, number>> = { from_json: 1, from_csv: 1 };
/** Where each function takes its options (`map('k', 'v', ...)` in SQL). */
const OPTIONS_ARG: Readonly<Record<string, number>> = { from_json: 2, from_csv: 2, to_json: 1, to_csv: 1, schema_of_json: 1 };

/**
 * Spark's check of an options argument (ExprUtils.convertToMapData): it must be written as a
 * `map(...)` call (not a string, a NULL or another function's map: INVALID_OPTIONS.NON_MAP_FUNCTION)
 * whose keys and values are strings (INVALID_OPTIONS.NON_STRING_TYPE, naming the map's type).
 */
function checkOptionsArg(e: Expr): void {
  if (e.kind !== "call" || e.name !== "map") {
    throw new AnalysisException(
      "INVALID_OPTIONS.NON_MAP_FUNCTION",
      "[INVALID_OPTIONS.NON_MAP_FUNCTION] Invalid options: Must use the `map()` function for options.",
    );
  }
  // a literal's type is known here; anything else is typed by the analyzer (and cast to its text)
  const typeOf = (xs: readonly Expr[]) => {
    for (const x of xs) if (x.kind === "literal" && x.type.kind !== "string" && x.type.kind !== "null") return x.type;
    return undefined;
  };
  const keyType = typeOf(e.args.filter((_, i) => i % 2 === 0));
  const valueType = typeOf(e.args.filter((_, i) => i % 2 === 1));
  if (keyType || valueType) {
    const shown = `MAP<${sqlTypeName(keyType ?? StringType)}, ${sqlTypeName(valueType ?? StringType)}>`;
    throw new AnalysisException(
      "INVALID_OPTIONS.NON_STRING_TYPE",
      `[INVALID_OPTIONS.NON_STRING_TYPE] Invalid options: A type of keys and values in \`map()\` must be string, but got "${shown}".`,
    );
  }
}

/** `map('k', 'v', ...)` of string literals as the options JSON text, or null. */
function optionsMapLiteral(e: Expr | undefined): Expr | null {
  if (e?.kind !== "call" || e.name !== "map" || e.args.length % 2 !== 0) return null;
  const texts = e.args.map((a) => (a.kind === "literal" && typeof a.value === "string" ? a.value : null));
  if (texts.some((t) => t === null)) return null;
  const options: Record<string, string> = {};
  for (let i = 0; i < texts.length; i += 2) options[texts[i]!] = texts[i + 1]!;
  return literal(JSON.stringify(options), StringType);
}

export function withJsonSchemaLiteral(call: Call): Expr {
  const name = call.name.toLowerCase();
  const at = SCHEMA_ARG[name];
  const optionsAt = OPTIONS_ARG[name];
  if (optionsAt !== undefined && call.args[optionsAt]) checkOptionsArg(call.args[optionsAt]!);
  const options = optionsAt === undefined ? null : optionsMapLiteral(call.args[optionsAt]);
  const e = options ? { ...call, args: call.args.map((a, i) => (i === optionsAt ? options : a)) } : call;
  const arg = at === undefined ? undefined : e.args[at];
  if (arg?.kind !== "literal" || typeof arg.value !== "string" || arg.value.trim().startsWith("{")) return e;
  const text = arg.value;
  const t = /^\s*(ARRAY|MAP)\s*</i.test(text) ? parseDataType(text) : parseSchema(text);
  if (t.kind !== "struct" && !(e.name.toLowerCase() === "from_json" && (t.kind === "array" || t.kind === "map"))) {
    throw new AnalysisException(
      "INVALID_SCHEMA.NON_STRUCT_TYPE",
      `[INVALID_SCHEMA.NON_STRUCT_TYPE] arus's ${e.name} takes a struct schema, not ${sqlTypeName(t)}.`,
    );
  }
  const args = [...e.args];
  args[at!] = literal(JSON.stringify(typeToJson(t)), StringType);
  return { ...e, args };
}
