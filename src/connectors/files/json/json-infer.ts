/**
 * JSON schema inference with Spark's rules (JsonInferSchema): integers → bigint (beyond it
 * decimal), other numbers → double (decimal with `prefersDecimal`), strings (timestamps too) → string, objects → struct with fields sorted by name, arrays →
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
  type DecimalType,
  DoubleType,
  field,
  LongType,
  StringType,
  StructOf,
  type StructType,
  TimestampType,
} from "../../../types/datatypes.js";
import { DecimalOf, MAX_PRECISION } from "../../../types/decimal.js";
import { bigDecimalParts, jsonDecimalType, mergeInferredDecimal } from "../infer-decimal.js";
import { splitLines } from "../lines.js";
import { malformedRecordError } from "../malformed.js";
import type { ParseMode } from "../options.js";
import { type JsonFeatures, NumberText, parseJsonText, SPARK_JSON_FEATURES } from "./json-text.js";
import { nestsTooDeep } from "./json-values.js";

type Atom =
  | { readonly k: "null" | "bigint" | "double" | "string" | "boolean" | "timestamp" }
  | { readonly k: "decimal"; readonly t: DecimalType };
type Shape = Atom | { readonly k: "struct"; readonly fields: Map<string, Shape> } | { readonly k: "array"; elem: Shape };

const NULL: Shape = { k: "null" };
const BIGINT: Shape = { k: "bigint" };
const DOUBLE: Shape = { k: "double" };
const STRING: Shape = { k: "string" };
const BOOLEAN: Shape = { k: "boolean" };
const TIMESTAMP: Shape = { k: "timestamp" };
/** The numeric shapes' types, for the one numeric widening rule (types/coercion.ts). */
const NUMERIC_TYPES: Partial<Record<Shape["k"], DataType>> = { bigint: LongType, double: DoubleType };

class Malformed extends Error {}

/** A number's shape from its type (jsonDecimalType's DECIMAL, or DOUBLE past 38 digits). */
const numberShape = (t: DataType): Shape => (t.kind === "decimal" ? { k: "decimal", t } : DOUBLE);

/**
 * The shape of a value parseJsonText read (it keeps what `JSON.parse` loses: Spark types `1.0`
 * as DOUBLE and `1` as BIGINT, and reads single quotes and NaN as Jackson does). An integer
 * beyond BIGINT is a DECIMAL of its digits; with `prefersDecimal` a fraction, and a string
 * holding a decimal number, are DECIMALs too (Spark's JsonInferSchema).
 */
function shapeOf(v: unknown, rules: JsonInferOptions): Shape {
  if (v === null) return NULL;
  if (typeof v === "boolean") return rules.primitivesAsString ? STRING : BOOLEAN;
  if (typeof v === "string") {
    if (v.length === 0) return NULL; // Spark: "" infers like null
    const parts = rules.prefersDecimal ? bigDecimalParts(v) : undefined;
    // DecimalType(precision, scale) as it is: a scale past the precision or below 0 is refused
    if (parts && parts.scale >= 0 && parts.scale <= parts.precision && parts.precision <= MAX_PRECISION)
      return { k: "decimal", t: DecimalOf(parts.precision, parts.scale) };
    // `inferTimestamp`: a string the read's timestamp parsing accepts (Spark's JsonInferSchema)
    if (rules.isTimestamp?.(v)) return TIMESTAMP;
    return STRING;
  }
  if (v instanceof NumberText) {
    if (rules.primitivesAsString) return STRING;
    if (v.float) {
      const parts = rules.prefersDecimal ? bigDecimalParts(v.text) : undefined;
      return parts ? numberShape(jsonDecimalType(parts)) : DOUBLE;
    }
    if (v.text.replace("-", "").length < 19) return BIGINT;
    const b = BigInt(v.text);
    if (b >= -9223372036854775808n && b <= 9223372036854775807n) return BIGINT;
    return numberShape(jsonDecimalType(bigDecimalParts(v.text)!));
  }
  if (Array.isArray(v)) {
    let elem: Shape = NULL;
    for (const x of v) elem = merge(elem, shapeOf(x, rules));
    return { k: "array", elem };
  }
  const o = v as Record<string, unknown>;
  const fields = new Map<string, Shape>();
  for (const k of Object.keys(o)) fields.set(k, shapeOf(o[k], rules));
  return { k: "struct", fields };
}

/** A numeric atom's type (for the merge rules), or undefined. */
function numericType(s: Shape): DataType | undefined {
  return s.k === "decimal" ? s.t : NUMERIC_TYPES[s.k];
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
  const na = numericType(a);
  const nb = numericType(b);
  if (na && nb) {
    const decimal = mergeInferredDecimal(na, nb);
    if (decimal) return numberShape(decimal);
    return widerNumeric(na, nb) === na ? a : b;
  }
  if (a.k === b.k && a.k !== "struct" && a.k !== "array") return a;
  return STRING;
}

/**
 * Shape → DataType; undefined when Spark's canonicalizeType would drop it: an empty struct, and
 * with `dropNulls` (`dropFieldIfAllNull`) a field never seen with a value, or an array of them.
 */
function canonical(s: Shape, dropNulls: boolean): DataType | undefined {
  switch (s.k) {
    case "null":
      return dropNulls ? undefined : StringType;
    case "string":
      return StringType;
    case "bigint":
      return LongType;
    case "double":
      return DoubleType;
    case "decimal":
      return s.t;
    case "boolean":
      return BooleanType;
    case "timestamp":
      return TimestampType;
    case "array": {
      const e = canonical(s.elem, dropNulls);
      return e === undefined ? undefined : ArrayOf(e, true);
    }
    case "struct": {
      const names = [...s.fields.keys()].filter((n) => n !== "").sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const fs = [];
      for (const n of names) {
        const t = canonical(s.fields.get(n)!, dropNulls);
        if (t !== undefined) fs.push(field(n, t, true));
      }
      return fs.length === 0 ? undefined : StructOf(fs);
    }
  }
}

/** The read's options inference follows. */
export interface JsonInferOptions {
  /** Records end at `lineSep` (default: any line break), or with `multiLine` each input is one document. */
  readonly lineSep?: string;
  readonly multiLine?: boolean;
  /** Fractions (and strings holding decimal numbers) infer as DECIMAL, not DOUBLE / STRING. */
  readonly prefersDecimal?: boolean;
  /** Numbers and booleans infer as STRING. */
  readonly primitivesAsString?: boolean;
  /** A field never seen with a value (or an array of only such, a struct of only such) is left out, not STRING. */
  readonly dropFieldIfAllNull?: boolean;
  /** `inferTimestamp`: whether a string reads as a timestamp (then its field infers as TIMESTAMP while every value does). */
  readonly isTimestamp?: (s: string) => boolean;
}

export interface JsonInferInput {
  readonly file: string;
  readonly text: string;
}

export function inferJsonSchema(
  inputs: readonly JsonInferInput[],
  mode: ParseMode,
  corruptColumn: string,
  options: JsonInferOptions = {},
  features: JsonFeatures = SPARK_JSON_FEATURES,
): StructType {
  let root: Shape = { k: "struct", fields: new Map() };
  let sawCorrupt = false;
  for (const { file, text } of inputs) {
    const lines = options.multiLine ? [text] : splitLines(text, options.lineSep);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      let shape: Shape;
      try {
        // nesting deeper than Jackson's limit makes the record malformed, as in Spark
        if (nestsTooDeep(line)) throw new Malformed();
        shape = shapeOf(parseJsonText(line, features), options);
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
  const t = (canonical(root, options.dropFieldIfAllNull ?? false) as StructType | undefined) ?? StructOf([]);
  if (!sawCorrupt || t.fields.some((f) => f.name === corruptColumn)) return t;
  const fs = [...t.fields, field(corruptColumn, StringType, true)];
  fs.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return StructOf(fs);
}
