/**
 * from_json / to_json. `from_json(str, schema)` lays the batch's values out as one JSON-lines
 * buffer (json-lines.ts: from UTF-8 or BINARY bytes without a string per row) and runs the byte
 * scanner (connectors/files/json/json-scan.ts) over it, straight into the
 * struct's columns; Spark's PERMISSIVE result for a malformed value (a struct of nulls), null
 * for a null or blank input. `to_json(struct)` writes Spark's JSON text (nulls omitted). The
 * schema argument is a literal: Spark's schema JSON (the `F.from_json` API turns DDL or a
 * StructType into it).
 */
import { type Batch, concatBatches, makeBatch } from "../columnar/batch.js";
import { RowError } from "../columnar/row-origin.js";
import { utf8Vector } from "../columnar/utf8.js";
import { utf8Strings } from "../columnar/utf8-conf.js";
import { utf8FromLines } from "../columnar/utf8-lines.js";
import { makeVector, nullVector, type Vector } from "../columnar/vector.js";
import { AnalysisException, ArusError, MalformedInputException } from "../common/errors.js";
import { dateTimeText } from "../connectors/files/datetime-text.js";
import { prettyJson } from "../connectors/files/json/json-pretty.js";
import { JsonRows } from "../connectors/files/json/json-read.js";
import { readJsonBytes } from "../connectors/files/json/json-scan.js";
import { jsonFeatures, parseJsonText } from "../connectors/files/json/json-text.js";
import { encodeJsonLines } from "../connectors/files/json/json-write.js";
import { SourceOptions } from "../connectors/files/options.js";
import { schemaFromJson, typeFromJson } from "../connectors/table/schema-json.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import {
  type ArrayType,
  type DataType,
  field,
  type MapType,
  StringType,
  StructOf,
  type StructType,
  sqlTypeName,
} from "../types/datatypes.js";
import { unwrapped, valueEnd, wrappedValues } from "./json-container.js";
import { jsonLinesOf, valueText } from "./json-lines.js";
import { checkArity, type EvalContext, register, type ScalarFunction, typeMismatch } from "./registry.js";

const schemaTypes = new Map<string, DataType>();
/** The type of a schema literal (Spark's schema JSON), cached; `read` refuses what the function cannot take. */
function parsedSchema(text: string, fn: string, read: (json: unknown) => DataType): DataType {
  let t = schemaTypes.get(text);
  if (!t) {
    try {
      t = typeFromJson(JSON.parse(text));
    } catch (e) {
      throw new AnalysisException("INVALID_SCHEMA.PARSE_ERROR", `Cannot parse the schema of ${fn}: ${text} (${(e as Error).message})`);
    }
    schemaTypes.set(text, t);
  }
  if (t.kind !== "struct") {
    try {
      read(JSON.parse(text));
    } catch (e) {
      if (e instanceof AnalysisException) throw e;
      throw new AnalysisException("INVALID_SCHEMA.PARSE_ERROR", `Cannot parse the schema of ${fn}: ${text} (${(e as Error).message})`);
    }
  }
  return t;
}

/**
 * The struct type a from_json / from_csv schema literal (Spark's schema JSON) stands for; SQL
 * text's DDL schemas (`from_json(s, 'a INT, b STRING')`) are turned into that JSON by the parser
 * (sql/schema-literals.ts).
 */
export function schemaOf(text: string, fn = "from_json"): StructType {
  return parsedSchema(text, fn, schemaFromJson) as StructType;
}

/**
 * The type a from_json schema literal stands for: a struct, or (as Spark) an ARRAY or a MAP
 * (json-container.ts) whose maps, at any depth, have STRING keys.
 */
export function jsonSchemaOf(text: string, call?: Expr): StructType | ArrayType | MapType {
  const t = parsedSchema(text, "from_json", (json) => {
    const parsed = typeFromJson(json);
    if (parsed.kind !== "array" && parsed.kind !== "map") {
      throw new AnalysisException(
        "INVALID_SCHEMA.NON_STRUCT_TYPE",
        `[INVALID_SCHEMA.NON_STRUCT_TYPE] The input expression should be evaluated to struct type, but got "${sqlTypeName(parsed)}".`,
      );
    }
    return parsed;
  }) as StructType | ArrayType | MapType;
  if (hasNonStringMapKey(t)) {
    const input = call?.kind === "call" && call.args[0] ? exprToSql(call.args[0]) : "";
    throw new AnalysisException(
      "DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE",
      `[DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE] Cannot resolve "from_json(${input})" due to data type mismatch: ` +
        `Input schema "${sqlTypeName(t)}" can only contain STRING as a key type for a MAP.`,
    );
  }
  return t;
}

function hasNonStringMapKey(t: DataType): boolean {
  switch (t.kind) {
    case "map":
      return t.keyType.kind !== "string" || hasNonStringMapKey(t.valueType);
    case "array":
      return hasNonStringMapKey(t.elementType);
    case "struct":
      return t.fields.some((f) => hasNonStringMapKey(f.type));
    default:
      return false;
  }
}

export function literalText(e: Expr | undefined, what: string, fn = "from_json"): string | null {
  if (e === undefined) return null;
  if (e.kind !== "literal" || typeof e.value !== "string") {
    throw new AnalysisException("INVALID_SCHEMA.NON_STRING_LITERAL", `The ${what} argument of ${fn} must be a string literal`);
  }
  return e.value;
}

/** The `mode` option of from_json / from_csv: PERMISSIVE (default) or FAILFAST; DROPMALFORMED is refused as Spark does. */
export function parseModeOf(fn: string, o: SourceOptions): "PERMISSIVE" | "FAILFAST" {
  const mode = (o.get("mode") ?? "PERMISSIVE").toUpperCase();
  if (mode !== "PERMISSIVE" && mode !== "FAILFAST") {
    throw new ArusError(
      "PARSE_MODE_UNSUPPORTED",
      `${fn}() doesn't support the ${mode} mode. Acceptable modes are PERMISSIVE and FAILFAST.`,
    );
  }
  return mode;
}

/** A STRING vector with `textAt(i)` for each non-null row of struct vector `v` (null rows stay null): to_json / to_csv. */
export function textPerRow(v: Vector, n: number, textAt: (i: number) => string): Vector {
  const out = new Array<unknown>(n);
  let validity: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    if (v.validity !== null && v.validity[i] === 0) {
      out[i] = null;
      (validity ??= new Uint8Array(n).fill(1))[i] = 0;
    } else out[i] = textAt(i);
  }
  return makeVector(StringType, out, validity, n);
}

/** A function's options: the JSON text the API and SQL literals pass, or a map value (a SQL `map(...)` that is not all literals). */
export function optionsOf(value: unknown): Record<string, string> {
  if (value === null || value === undefined) return {};
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), String(v)]));
  return JSON.parse(value as string) as Record<string, string>;
}

const fromJson: ScalarFunction = {
  kind: "scalar",
  name: "from_json",
  utf8BytesArg0: true,
  resolve(args, types, call) {
    checkArity("from_json", args, 2, 3);
    if (types[0]!.kind !== "string") throw typeMismatch(call, 0, '"STRING"', args[0]!, types[0]!);
    const schema = jsonSchemaOf(literalText(args[1], "schema")!, call);
    literalText(args[2], "options");
    return { args, type: schema };
  },
  kernel(args, n, ctx) {
    const schema = jsonSchemaOf(args[1]!.values[0] as string);
    const opts = optionsOf(args[2] ? (args[2].values[0] as string) : null);
    if (schema.kind === "struct") return parseColumn(args[0]!, n, schema, opts, ctx);
    return parseContainers(args[0]!, n, schema, opts, ctx);
  },
};

/** from_json with an ARRAY or MAP schema: each value read as the one field of a struct (json-container.ts). */
function parseContainers(input: Vector, n: number, type: ArrayType | MapType, opts: Record<string, string>, ctx: EvalContext): Vector {
  const { wrapped, wrongKind } = wrappedValues(input, n, type);
  const textAt = (i: number) => valueText(input, i);
  if (wrongKind.length > 0 && parseModeOf("from_json", new SourceOptions(opts)) === "FAILFAST") {
    throw malformed("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", textAt(wrongKind[0]!), wrongKind[0]!);
  }
  const parsed = parseColumn(wrapped, n, StructOf([field("v", type, true)]), opts, ctx, textAt);
  return unwrapped(parsed, n);
}

function parseColumn(
  input: Vector,
  n: number,
  schema: StructType,
  opts: Record<string, string>,
  ctx: EvalContext,
  textAt: (i: number) => string = (i) => valueText(input, i),
): Vector {
  const o = new SourceOptions(opts);
  const mode = parseModeOf("from_json", o);
  // A STRING field given a non-string value reads it as Jackson's generator writes it (Spark's from_json).
  const settings = {
    mode,
    corruptColumn: "_corrupt_record",
    dateTime: dateTimeText(o, ctx.timeZone),
    valueText: "regenerated" as const,
    features: jsonFeatures(o),
  };
  const validity = new Uint8Array(n).fill(1);
  const { bytes, alone } = jsonLinesOf(input, n, validity);
  const batches = failingOnRow(
    (line) => line - 1,
    textAt,
    () => readJsonBytes("from_json", bytes, schema, settings),
  );
  let out = concatRows(schema, batches);
  if (out.numRows !== n) throw new Error(`from_json: ${out.numRows} rows decoded for ${n} values`);
  if (alone.length) {
    // Rare: JSON spread over lines, or a top-level array (for a struct schema, Spark 4's
    // PERMISSIVE gives a struct of NULLs, as for a malformed record; FAILFAST an error).
    const cols = out.columns.map((c) => ({ ...c, values: Array.isArray(c.values) ? [...c.values] : c.values.slice() }));
    for (const i of alone) {
      const v = firstValue(valueText(input, i));
      let parsed: unknown;
      try {
        parsed = parseJsonText(v, settings.features);
      } catch {
        parsed = undefined;
      }
      if (Array.isArray(parsed)) {
        if (mode === "FAILFAST") throw malformed("MALFORMED_RECORD_IN_PARSING.CANNOT_PARSE_JSON_ARRAYS_AS_STRUCTS", textAt(i), i);
        continue; // its line is {}: every field NULL
      }
      // The whole value as one record: its line breaks are white space or, inside a string, a
      // control character Jackson refuses (unless allowUnquotedControlChars).
      const one = failingOnRow(
        () => i,
        textAt,
        () => {
          const rows = new JsonRows("from_json", schema, settings);
          rows.parseLine(v, 1);
          return rows.finish();
        },
      );
      const row = concatRows(schema, one);
      if (row.numRows !== 1) {
        validity[i] = 0;
        continue;
      }
      for (let f = 0; f < row.columns.length; f++) setCell(cols[f]!, i, row.columns[f]!);
    }
    out = makeBatch(cols as Vector[], n);
  }
  return makeVector(schema, [], validity, n, out.columns);
}

const MAX_SHOWN = 200;

/** A value's text up to the end of the object it starts with: Spark reads the first value and ignores the rest. */
function firstValue(text: string): string {
  const start = text.length - text.trimStart().length;
  if (text[start] !== "{") return text;
  const bytes = Buffer.from(text, "utf8");
  const end = valueEnd(bytes, Buffer.byteLength(text.slice(0, start)));
  return end < bytes.length ? bytes.subarray(0, end).toString("utf8") : text;
}

/** Spark's FAILFAST error for a malformed record, naming the row. */
function malformed(errorClass: string, text: string, row: number, cause?: unknown): RowError {
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
  return new RowError(
    errorClass,
    `[${errorClass}] Malformed records are detected in record parsing: ${shown}. Parse Mode: FAILFAST. To process malformed records as null result, try setting the option 'mode' as 'PERMISSIVE'.`,
    row,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Runs a FAILFAST read; a malformed record becomes Spark's MALFORMED_RECORD_IN_PARSING error as
 * a RowError naming the row, so an operator over a source's batch can add where the record came
 * from (Kafka: topic, partition, offset).
 */
export function failingOnRow<T>(rowOfLine: (line: number) => number, textAt: (row: number) => string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof MalformedInputException) || e.line === undefined) throw e;
    const row = rowOfLine(e.line);
    throw malformed("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", textAt(row) ?? "", row, e);
  }
}

function setCell(dst: { values: unknown; validity: Uint8Array | null }, i: number, src: Vector): void {
  (dst.values as unknown[] | Float64Array)[i] = src.values[0] as number;
  if (src.validity !== null && src.validity[0] === 0) {
    dst.validity = dst.validity ? dst.validity.slice() : new Uint8Array((dst.values as ArrayLike<unknown>).length).fill(1);
    dst.validity[i] = 0;
  } else if (dst.validity) dst.validity[i] = 1;
}

export function concatRows(schema: StructType, batches: Batch[]): Batch {
  if (batches.length === 1) return batches[0]!;
  return concatBatches(
    schema.fields.map((f) => f.type),
    batches,
  );
}

const toJson: ScalarFunction = {
  kind: "scalar",
  name: "to_json",
  resolve(args, types, call) {
    checkArity("to_json", args, 1, 2);
    const k = types[0]!.kind;
    if (k !== "struct" && k !== "array" && k !== "map" && k !== "null") {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA",
        `[DATATYPE_MISMATCH.INVALID_JSON_SCHEMA] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input schema "${sqlTypeName(types[0]!)}" must be a struct, an array, a map or a variant.`,
      );
    }
    return { args, type: StringType };
  },
  kernel(args, n, ctx) {
    const v = args[0]!;
    if (v.type.kind === "null") return nullVector(StringType, n); // to_json(NULL) is NULL
    const opts = new SourceOptions(args[1] ? optionsOf(args[1].values[0]) : {});
    const writeNulls = !opts.bool("ignoreNullFields", true);
    const pretty = opts.bool("pretty", false);
    const layout = pretty ? prettyJson : (t: string) => t;
    if (v.type.kind !== "struct") {
      // An array or map: written as the one field of a struct, `{"v":<value>}`, then unwrapped.
      const text = encodeJsonLines(StructOf([field("v", v.type)]), makeBatch([v], n), dateTimeText(opts, ctx.timeZone), writeNulls);
      const lines = text.split("\n");
      return textPerRow(v, n, (i) => layout(lines[i]!.slice(5, -1)));
    }
    const schema = v.type as StructType;
    const text = encodeJsonLines(schema, makeBatch(v.children!, n), dateTimeText(opts, ctx.timeZone), writeNulls);
    // The text's UTF-8 bytes, split at its line breaks: no string per row (the Kafka sink writes them as they are).
    const u = utf8Strings() && !pretty ? utf8FromLines(text, n, v.validity) : null;
    if (u !== null) return utf8Vector(StringType, u, v.validity === null ? null : v.validity.slice(0, n), n);
    const lines = text.split("\n");
    return textPerRow(v, n, (i) => layout(lines[i]!));
  },
};

register(fromJson, toJson);
