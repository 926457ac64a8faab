/**
 * from_json with an ARRAY or MAP schema (`from_json(s, 'array<struct<a:int>>')`,
 * `from_json(s, 'map<string,int>')`). Each value is read as the one field of a struct,
 * `{"v":<value>}`, by the struct path (json.ts, the byte scanner), and the field is the result:
 * so element types, partial results and malformed elements behave exactly as they do inside a
 * struct. What Spark does at the top level, and the wrapping has to do itself:
 * - a value whose first token does not open the schema's kind (an object for an ARRAY, an array
 *   for a MAP, a scalar) is NULL (FAILFAST: a malformed record); a single object for an ARRAY of
 *   structs is that array of one (`{"a":1}` → `[{"a":1}]`);
 * - anything after the first complete value is ignored (`[1, 2] x` → `[1, 2]`).
 */
import { binaryOf } from "../columnar/binary.js";
import { utf8Of, utf8Vector } from "../columnar/utf8.js";
import { makeVector, type Vector } from "../columnar/vector.js";
import type { ArrayType, MapType } from "../types/datatypes.js";
import { StringType } from "../types/datatypes.js";
import { isNullLiteral } from "./json-lines.js";

const OPEN_ARRAY = 91; // [
const CLOSE_ARRAY = 93; // ]
const OPEN_OBJECT = 123; // {
const CLOSE_OBJECT = 125; // }
const QUOTE = 34;
const BACKSLASH = 92;

const PREFIX = Buffer.from('{"v":');
const PREFIX_ONE = Buffer.from('{"v":[');

export interface WrappedValues {
  /** `{"v":<value>}` per row as a UTF-8 STRING vector; NULL where the input is NULL or of the wrong kind. */
  readonly wrapped: Vector;
  /** Rows whose value is not of the schema's kind (NULL in PERMISSIVE, an error in FAILFAST). */
  readonly wrongKind: number[];
}

/** The input's n values wrapped as one-field JSON objects for the struct path. */
export function wrappedValues(input: Vector, n: number, type: ArrayType | MapType): WrappedValues {
  const rows = rowBytes(input, n);
  const singleObject = type.kind === "array" && type.elementType.kind === "struct";
  const opens = type.kind === "array" ? OPEN_ARRAY : OPEN_OBJECT;
  const wrongKind: number[] = [];
  const validity = new Uint8Array(n);
  const parts: Uint8Array[] = [];
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = rows[i];
    if (v !== null) {
      const first = firstToken(v);
      if (first < v.length && (v[first] === opens || (singleObject && v[first] === OPEN_OBJECT))) {
        const body = v.subarray(first, valueEnd(v, first));
        const asOne = v[first] !== opens;
        parts.push(asOne ? PREFIX_ONE : PREFIX, body, asOne ? CLOSE_ONE : CLOSE);
        total += (asOne ? PREFIX_ONE.length + CLOSE_ONE.length : PREFIX.length + CLOSE.length) + body.length;
        validity[i] = 1;
      } else if (first < v.length && !isNullLiteral(v, first, v.length)) wrongKind.push(i);
    }
    offsets[i + 1] = total;
  }
  const bytes = Buffer.concat(parts, total);
  let ascii = true;
  for (let p = 0; p < bytes.length && ascii; p++) if (bytes[p]! > 127) ascii = false;
  return { wrapped: utf8Vector(StringType, { bytes, offsets, ascii }, validity, n), wrongKind };
}

const CLOSE = Buffer.from("}");
const CLOSE_ONE = Buffer.from("]}");

/** The parsed struct's one field, NULL where the struct is (NULL input, wrong kind) or the field is (malformed). */
export function unwrapped(parsed: Vector, n: number): Vector {
  const field = parsed.children![0]!;
  const validity = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const outer = parsed.validity === null || parsed.validity[i] !== 0;
    const inner = field.validity === null || field.validity[i] !== 0;
    validity[i] = outer && inner ? 1 : 0;
  }
  return makeVector(field.type, field.values, validity, n, field.children);
}

/** Each row's bytes (null for a NULL row): views of a UTF-8 or contiguous BINARY vector, else encoded once. */
function rowBytes(input: Vector, n: number): (Uint8Array | null)[] {
  const out = new Array<Uint8Array | null>(n);
  const ranges = utf8Of(input) ?? binaryOf(input);
  for (let i = 0; i < n; i++) {
    if (input.validity !== null && input.validity[i] === 0) out[i] = null;
    else if (ranges !== undefined) out[i] = ranges.bytes.subarray(ranges.offsets[i]!, ranges.offsets[i + 1]!);
    else {
      const v = input.values[i] as string | Uint8Array | null;
      out[i] = v === null ? null : typeof v === "string" ? Buffer.from(v, "utf8") : v;
    }
  }
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function firstToken(v: Uint8Array): number {
  let p = 0;
  while (p < v.length && isSpace(v[p]!)) p++;
  return p;
}

/**
 * Where the array or object opening at `a` ends (one past its closing bracket), skipping the
 * contents of strings; the end of the bytes when it never closes (then the struct path finds it
 * malformed). Brackets are not matched by kind: a mismatch is malformed either way.
 */
export function valueEnd(v: Uint8Array, a: number): number {
  let depth = 0;
  let inString = false;
  for (let p = a; p < v.length; p++) {
    const c = v[p]!;
    if (inString) {
      if (c === BACKSLASH) p++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (--depth === 0) return p + 1;
    }
  }
  return v.length;
}
