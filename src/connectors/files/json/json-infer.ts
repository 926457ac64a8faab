/**
 * JSON schema inference with Spark's rules (JsonInferSchema): integers → bigint, other numbers →
 * double, strings (timestamps too) → string, objects → struct with fields sorted by name, arrays →
 * array, conflicts widened (numbers by the one numeric rule of types/coercion.ts, so bigint +
 * double → double; anything else mixed → string), fields that
 * are always null → string, empty structs dropped.
 *
 * Why a scanner of its own: `JSON.parse` turns `1.0` into `1`, and Spark types `1.0` as double.
 * This scanner walks the text once and produces types without building the values.
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
import { MAX_JSON_NESTING } from "./json-values.js";

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

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** Recursive-descent JSON scanner that yields Shapes. */
class Scanner {
  pos = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  private ws(): void {
    const s = this.s;
    let p = this.pos;
    while (p < s.length) {
      const c = s.charCodeAt(p);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) p++;
      else break;
    }
    this.pos = p;
  }

  atEnd(): boolean {
    this.ws();
    return this.pos >= this.s.length;
  }

  value(): Shape {
    this.ws();
    const c = this.s.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
      case 0x5b: {
        // [ — nesting deeper than Jackson's limit makes the record malformed, as in Spark
        if (++this.depth > MAX_JSON_NESTING) throw new Malformed();
        const shape = c === 0x7b ? this.object() : this.array();
        this.depth--;
        return shape;
      }
      case 0x22: // "
        return this.string().length === 0 ? NULL : STRING; // Spark: "" infers like null
      case 0x74: // t
        return this.literal("true", BOOLEAN);
      case 0x66: // f
        return this.literal("false", BOOLEAN);
      case 0x6e: // n
        return this.literal("null", NULL);
      default:
        return this.number();
    }
  }

  private literal(word: string, shape: Shape): Shape {
    if (!this.s.startsWith(word, this.pos)) throw new Malformed();
    this.pos += word.length;
    return shape;
  }

  private number(): Shape {
    const m = NUMBER;
    m.lastIndex = this.pos;
    const r = m.exec(this.s);
    if (!r) throw new Malformed();
    this.pos += r[0].length;
    if (r[1] !== undefined || r[2] !== undefined) return DOUBLE;
    // Integers beyond 64 bits become decimals in Spark; the closest type here is double.
    const digits = r[0].replace("-", "");
    if (digits.length < 19) return BIGINT;
    const b = BigInt(r[0]);
    return b >= -9223372036854775808n && b <= 9223372036854775807n ? BIGINT : DOUBLE;
  }

  /** Scans a string literal and returns its decoded text. */
  string(): string {
    const s = this.s;
    let p = this.pos + 1;
    let out = "";
    let start = p;
    for (;;) {
      if (p >= s.length) throw new Malformed();
      const c = s.charCodeAt(p);
      if (c === 0x22) break;
      if (c < 0x20) throw new Malformed();
      if (c === 0x5c) {
        out += s.slice(start, p);
        const e = s[p + 1];
        if (e === "u") {
          const hex = s.slice(p + 2, p + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Malformed();
          out += String.fromCharCode(Number.parseInt(hex, 16));
          p += 6;
        } else {
          const map: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
          const ch = e === undefined ? undefined : map[e];
          if (ch === undefined) throw new Malformed();
          out += ch;
          p += 2;
        }
        start = p;
        continue;
      }
      p++;
    }
    out += s.slice(start, p);
    this.pos = p + 1;
    return out;
  }

  private object(): Shape {
    this.pos++;
    const fields = new Map<string, Shape>();
    this.ws();
    if (this.s.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return { k: "struct", fields };
    }
    for (;;) {
      this.ws();
      if (this.s.charCodeAt(this.pos) !== 0x22) throw new Malformed();
      const key = this.string();
      this.ws();
      if (this.s.charCodeAt(this.pos) !== 0x3a) throw new Malformed();
      this.pos++;
      const v = this.value();
      const prev = fields.get(key);
      fields.set(key, prev ? merge(prev, v) : v);
      this.ws();
      const c = this.s.charCodeAt(this.pos++);
      if (c === 0x7d) return { k: "struct", fields };
      if (c !== 0x2c) throw new Malformed();
    }
  }

  private array(): Shape {
    this.pos++;
    let elem: Shape = NULL;
    this.ws();
    if (this.s.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return { k: "array", elem };
    }
    for (;;) {
      elem = merge(elem, this.value());
      this.ws();
      const c = this.s.charCodeAt(this.pos++);
      if (c === 0x5d) return { k: "array", elem };
      if (c !== 0x2c) throw new Malformed();
    }
  }
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

export function inferJsonSchema(inputs: readonly JsonInferInput[], mode: ParseMode, corruptColumn: string, lineSep?: string): StructType {
  let root: Shape = { k: "struct", fields: new Map() };
  let sawCorrupt = false;
  for (const { file, text } of inputs) {
    const lines = splitLines(text, lineSep);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      let shape: Shape;
      try {
        const sc = new Scanner(line);
        shape = sc.value();
        if (!sc.atEnd()) throw new Malformed();
      } catch (e) {
        if (!(e instanceof Malformed) && !(e instanceof SyntaxError)) throw e;
        shape = STRING; // unparsable: treated like a non-object root below
      }
      // A root array contributes its elements (Spark reads each element as a row).
      const docs = shape.k === "array" ? (shape.elem.k === "null" ? [] : [shape.elem]) : [shape];
      for (const doc of docs) {
        if (doc.k === "null") continue;
        if (doc.k !== "struct") {
          if (mode === "FAILFAST") throw malformedRecordError(file, i + 1, line);
          if (mode === "PERMISSIVE") sawCorrupt = true;
          continue;
        }
        root = merge(root, doc);
      }
    }
  }
  const t = (canonical(root) as StructType | undefined) ?? StructOf([]);
  if (!sawCorrupt || t.fields.some((f) => f.name === corruptColumn)) return t;
  const fs = [...t.fields, field(corruptColumn, StringType, true)];
  fs.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return StructOf(fs);
}
