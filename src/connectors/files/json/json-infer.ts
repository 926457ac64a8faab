/**
 * JSON schema inference with Spark's rules (JsonInferSchema): integers → bigint, other numbers →
 * double, strings (timestamps too) → string, objects → struct with fields sorted by name, arrays →
 * array, conflicts widened (numbers by the one numeric rule of types/coercion.ts, so bigint +
 * double → double; anything else mixed → string), fields that
 * are always null → string, empty structs dropped.
 *
 * Lines are read by json-text.ts, not `JSON.parse`, which turns `1.0` into `1` (Spark types
 * `1.0` as double) and refuses Jackson's single quotes and NaN.
 */

import { widerNumeric } from "../../../types/coercion.js";
import {
  ArrayOf,
  BooleanType,
  type DataType,
  DoubleType,
  field,
  LongType,
  StringType,
  StructOf,
  type StructType,
} from "../../../types/datatypes.js";
import { splitLines } from "../lines.js";
import { malformedRecordError } from "../malformed.js";
import type { ParseMode } from "../options.js";
import { type JsonFeatures, NumberText, parseJsonText, SPARK_JSON_FEATURES } from "./json-text.js";
import { nestsTooDeep } from "./json-values.js";

type Atom = { readonly k: "null" | "bigint" | "double" | "string" | "boolean" };
type Shape = Atom | { readonly k: "struct"; readonly fields: Map<string, Shape> } | { readonly k: "array"; elem: Shape };

const NULL: Shape = { k: "null" };
const BIGINT: Shape = { k: "bigint" };
const DOUBLE: Shape = { k: "double" };
const STRING: Shape = { k: "string" };
const BOOLEAN: Shape = { k: "boolean" };
/** The numeric shapes' types, for the one numeric widening rule (types/coercion.ts). */
const NUMERIC_TYPES: Partial<Record<Shape["k"], DataType>> = { bigint: LongType, double: DoubleType };

class Malformed extends Error {}

/**
 * The shape of a value parseJsonText read (it keeps what `JSON.parse` loses: Spark types `1.0`
 * as DOUBLE and `1` as BIGINT, and reads single quotes and NaN as Jackson does).
 */
function shapeOf(v: unknown): Shape {
  if (v === null) return NULL;
  if (typeof v === "boolean") return BOOLEAN;
  if (typeof v === "string") return v.length === 0 ? NULL : STRING; // Spark: "" infers like null
  if (v instanceof NumberText) {
    if (v.float) return DOUBLE;
    // Integers beyond 64 bits become decimals in Spark; the closest type here is double.
    if (v.text.replace("-", "").length < 19) return BIGINT;
    const b = BigInt(v.text);
    return b >= -9223372036854775808n && b <= 9223372036854775807n ? BIGINT : DOUBLE;
  }
  if (Array.isArray(v)) {
    let elem: Shape = NULL;
    for (const x of v) elem = merge(elem, shapeOf(x));
    return { k: "array", elem };
  }
  const o = v as Record<string, unknown>;
  const fields = new Map<string, Shape>();
  for (const k of Object.keys(o)) fields.set(k, shapeOf(o[k]));
  return { k: "struct", fields };
}

/** Spark's compatibleType; mutates and returns `a` when both are structs. */
function merge(a: Shape, b: Shape): Shape {
  if (a === b) return a;
  if (a.k === "null") return b;
  if (b.k === "null") return a;
  if (a.k === "struct" && b.k === "struct") {
    for (const [name, t] of b.fields) {
      const prev = a.fields.get(name);
      a.fields.set(name, prev ? merge(prev, t) : t);
    }
    return a;
  }
  if (a.k === "array" && b.k === "array") {
    a.elem = merge(a.elem, b.elem);
    return a;
  }
  const na = NUMERIC_TYPES[a.k];
  const nb = NUMERIC_TYPES[b.k];
  if (na && nb) return widerNumeric(na, nb) === na ? a : b;
  if (a.k === b.k && a.k !== "struct" && a.k !== "array") return a;
  return STRING;
}

/** Shape → DataType; undefined when Spark's canonicalizeType would drop it (empty struct). */
function canonical(s: Shape): DataType | undefined {
  switch (s.k) {
    case "null":
    case "string":
      return StringType;
    case "bigint":
      return LongType;
    case "double":
      return DoubleType;
    case "boolean":
      return BooleanType;
    case "array": {
      const e = canonical(s.elem);
      return e === undefined ? undefined : ArrayOf(e, true);
    }
    case "struct": {
      const names = [...s.fields.keys()].filter((n) => n !== "").sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const fs = [];
      for (const n of names) {
        const t = canonical(s.fields.get(n)!);
        if (t !== undefined) fs.push(field(n, t, true));
      }
      return fs.length === 0 ? undefined : StructOf(fs);
    }
  }
}

export interface JsonInferInput {
  readonly file: string;
  readonly text: string;
}

export function inferJsonSchema(
  inputs: readonly JsonInferInput[],
  mode: ParseMode,
  corruptColumn: string,
  /** How records are cut: by `lineSep` (default: any line break), or `multiLine`: each input is one document. */
  records: { readonly lineSep?: string; readonly multiLine?: boolean } = {},
  features: JsonFeatures = SPARK_JSON_FEATURES,
): StructType {
  let root: Shape = { k: "struct", fields: new Map() };
  let sawCorrupt = false;
  for (const { file, text } of inputs) {
    const lines = records.multiLine ? [text] : splitLines(text, records.lineSep);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      let shape: Shape;
      try {
        // nesting deeper than Jackson's limit makes the record malformed, as in Spark
        if (nestsTooDeep(line)) throw new Malformed();
        shape = shapeOf(parseJsonText(line, features));
      } catch (e) {
        if (!(e instanceof Malformed) && !(e instanceof SyntaxError)) throw e;
        shape = STRING; // unparsable: treated like a non-object root below
      }
      // A root array contributes its elements (Spark reads each element as a row); Spark's
      // inference unwraps nested arrays too (`[[{"a":1}]]` gives a: bigint, though the record
      // then reads as malformed).
      let doc = shape;
      while (doc.k === "array") doc = doc.elem;
      if (doc.k === "null") continue;
      if (doc.k !== "struct") {
        if (mode === "FAILFAST") throw malformedRecordError(file, i + 1, line);
        if (mode === "PERMISSIVE") sawCorrupt = true;
        continue;
      }
      root = merge(root, doc);
    }
  }
  const t = (canonical(root) as StructType | undefined) ?? StructOf([]);
  if (!sawCorrupt || t.fields.some((f) => f.name === corruptColumn)) return t;
  const fs = [...t.fields, field(corruptColumn, StringType, true)];
  fs.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return StructOf(fs);
}
