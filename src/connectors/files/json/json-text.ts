/**
 * JSON as Spark's Jackson parser reads it, keeping what `JSON.parse` throws away: which number
 * tokens were integers and which were fractions (an INT or TIMESTAMP column refuses `1.0`), each
 * number's own text, and the source text of every object and array (a STRING column given a
 * non-string value). It also takes the two extensions Spark's JSON options turn on by default:
 * single-quoted strings (`allowSingleQuotes`) and the non-numeric numbers `NaN`, `Infinity`,
 * `+Infinity`, `-Infinity`, `+INF`, `-INF` (`allowNonNumericNumbers`).
 *
 * `JSON.parse` stays the reader of every line it accepts; this one runs only for a line it
 * refuses, a line whose number kinds matter, or a STRING column that needs a value's text
 * (json-read.ts decides), so its speed is secondary to being exact.
 */
import { javaDoubleToString } from "../../../common/show.js";
import type { SourceOptions } from "../options.js";

/** Jackson's parser features, as Spark's JSON options name them. */
export interface JsonFeatures {
  readonly allowSingleQuotes: boolean;
  readonly allowNonNumericNumbers: boolean;
  readonly allowComments: boolean;
  readonly allowUnquotedFieldNames: boolean;
  readonly allowNumericLeadingZeros: boolean;
  readonly allowBackslashEscapingAnyCharacter: boolean;
  readonly allowUnquotedControlChars: boolean;
}

/** Spark's defaults: single quotes and NaN on, the rest off. */
export const SPARK_JSON_FEATURES: JsonFeatures = {
  allowSingleQuotes: true,
  allowNonNumericNumbers: true,
  allowComments: false,
  allowUnquotedFieldNames: false,
  allowNumericLeadingZeros: false,
  allowBackslashEscapingAnyCharacter: false,
  allowUnquotedControlChars: false,
};

/** The features a read's options ask for (Spark's defaults for the ones not given). */
export function jsonFeatures(o: SourceOptions): JsonFeatures {
  const f = { ...SPARK_JSON_FEATURES };
  for (const k of Object.keys(f) as (keyof JsonFeatures)[]) f[k] = o.bool(k, f[k]);
  return f;
}

/**
 * A number token kept as its text. `float` is Jackson's VALUE_NUMBER_FLOAT (a fraction, an
 * exponent, or a non-numeric number); integers are VALUE_NUMBER_INT.
 */
export class NumberText {
  constructor(
    readonly text: string,
    readonly float: boolean,
  ) {}
  /** The double Jackson reads (the non-numeric names included). */
  value(): number {
    const v = NON_NUMERIC_NUMBERS[this.text] ?? Number(this.text);
    return v === 0 && !this.float ? 0 : v; // `-0` is the int 0; `-0.0` stays -0.0
  }
  /** What JSON.stringify writes for it (to_json of a re-serialized value). */
  toJSON(): number {
    return this.value();
  }
}

/** Jackson's non-numeric number tokens (allowNonNumericNumbers) and their doubles. */
export const NON_NUMERIC_NUMBERS: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  "+Infinity": Number.POSITIVE_INFINITY,
  "-Infinity": Number.NEGATIVE_INFINITY,
  "+INF": Number.POSITIVE_INFINITY,
  "-INF": Number.NEGATIVE_INFINITY,
};

/** Is a parsed value a JSON object (not an array, not a NumberText)? */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof NumberText);
}

/** The source text of each object and array `parseJsonText` made. */
const sourceText = new WeakMap<object, string>();

/** The source text of an object or array from `parseJsonText` (undefined for any other). */
export function sourceTextOf(v: object): string | undefined {
  return sourceText.get(v);
}

/**
 * Jackson's text for a value a STRING column reads when Spark regenerates it (from_json: the
 * value copied through a JSON generator): no white space, integers as their value, fractions as
 * Java's Double.toString, a non-finite double as a quoted name, strings with Jackson's escapes.
 */
export function regeneratedText(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "string") return quoted(v);
  if (v instanceof NumberText) {
    if (!v.float) return BigInt(v.text).toString();
    const d = v.value();
    return Number.isFinite(d) ? javaDoubleToString(d) : quoted(javaDoubleToString(d));
  }
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : javaDoubleToString(v);
  if (Array.isArray(v)) return `[${v.map(regeneratedText).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .map((k) => `${quoted(k)}:${regeneratedText(o[k])}`)
    .join(",")}}`;
}

const SHORT_ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };

/** A JSON string as Jackson writes it: `"` and `\` escaped, control characters as \uXXXX (upper-case hex). */
function quoted(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92) continue;
    out += s.slice(from, i) + (SHORT_ESCAPES[c] ?? `\\u${c.toString(16).toUpperCase().padStart(4, "0")}`);
    from = i + 1;
  }
  return `${out + s.slice(from)}"`;
}

const SPACE = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const DIGIT = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** What may follow a scalar token: Jackson refuses `truex`, `1x` or `NaNa`. */
const ENDS_TOKEN = (c: number): boolean => Number.isNaN(c) || SPACE(c) || c === 0x2c || c === 0x5d || c === 0x7d;

/**
 * Parses one JSON text with the given Jackson features (Spark's defaults unless told) into
 * plain values: objects (no prototype, so a `__proto__` key is a key), arrays, strings, booleans,
 * null and NumberText for every number. Throws a SyntaxError naming the offset for anything
 * Jackson refuses. Text after the first value is never read, as Spark reads one root value per
 * record (`{"a":1} x` is `a` = 1).
 */
export function parseJsonText(text: string, features: JsonFeatures = SPARK_JSON_FEATURES): unknown {
  const f = features;
  let p = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${p} of JSON text`);
  };
  const skipSpace = (): void => {
    for (;;) {
      while (p < text.length && SPACE(text.charCodeAt(p))) p++;
      if (!f.allowComments || text[p] !== "/") return;
      if (text[p + 1] === "/") {
        while (p < text.length && text[p] !== "\n" && text[p] !== "\r") p++;
      } else if (text[p + 1] === "*") {
        const end = text.indexOf("*/", p + 2);
        if (end < 0) fail("unterminated comment");
        p = end + 2;
      } else return;
    }
  };
  const str = (): string => {
    const q = text.charCodeAt(p++);
    let out = "";
    let from = p;
    for (;;) {
      if (p >= text.length) fail("unterminated string");
      const c = text.charCodeAt(p);
      if (c === q) break;
      if (c < 0x20 && !f.allowUnquotedControlChars) fail("control character in a string");
      if (c !== 0x5c) {
        p++;
        continue;
      }
      out += text.slice(from, p);
      const e = text[p + 1];
      if (e === "u") {
        const hex = text.slice(p + 2, p + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
        out += String.fromCharCode(Number.parseInt(hex, 16));
        p += 6;
      } else {
        const ch = e === undefined ? undefined : e === "'" ? (f.allowSingleQuotes ? "'" : undefined) : ESCAPED[e];
        if (ch !== undefined) out += ch;
        else if (e !== undefined && f.allowBackslashEscapingAnyCharacter) out += e;
        else fail("bad escape");
        p += 2;
      }
      from = p;
    }
    out += text.slice(from, p);
    p++;
    return out;
  };
  /** An unquoted field name (allowUnquotedFieldNames): up to white space or the colon. */
  const bareName = (): string => {
    const start = p;
    while (p < text.length && !SPACE(text.charCodeAt(p)) && !":,{}[]\"'/".includes(text[p]!)) p++;
    if (p === start) fail("expected a field name");
    return text.slice(start, p);
  };
  const word = (w: string): boolean => {
    if (!text.startsWith(w, p) || !ENDS_TOKEN(text.charCodeAt(p + w.length))) return false;
    p += w.length;
    return true;
  };
  const num = (): NumberText => {
    const start = p;
    if (text[p] === "-") p++;
    if (!DIGIT(text.charCodeAt(p))) fail("bad number");
    if (text[p] === "0" && !f.allowNumericLeadingZeros) p++;
    else while (DIGIT(text.charCodeAt(p))) p++;
    let float = false;
    if (text[p] === ".") {
      float = true;
      p++;
      if (!DIGIT(text.charCodeAt(p))) fail("bad fraction");
      while (DIGIT(text.charCodeAt(p))) p++;
    }
    if (text[p] === "e" || text[p] === "E") {
      float = true;
      p++;
      if (text[p] === "+" || text[p] === "-") p++;
      if (!DIGIT(text.charCodeAt(p))) fail("bad exponent");
      while (DIGIT(text.charCodeAt(p))) p++;
    }
    if (!ENDS_TOKEN(text.charCodeAt(p)) && !(f.allowComments && text[p] === "/")) fail("bad number");
    return new NumberText(text.slice(start, p), float);
  };
  const quote = (c: string | undefined): boolean => c === '"' || (c === "'" && f.allowSingleQuotes);
  const value = (): unknown => {
    skipSpace();
    const c = text[p];
    if (c === "{") {
      const start = p++;
      const o: Record<string, unknown> = Object.create(null);
      skipSpace();
      if (text[p] === "}") p++;
      else
        for (;;) {
          skipSpace();
          const k = quote(text[p]) ? str() : f.allowUnquotedFieldNames ? bareName() : fail("expected a field name");
          skipSpace();
          if (text[p++] !== ":") fail("expected ':'");
          o[k] = value();
          skipSpace();
          const d = text[p++];
          if (d === "}") break;
          if (d !== ",") fail("expected ',' or '}'");
        }
      sourceText.set(o, text.slice(start, p));
      return o;
    }
    if (c === "[") {
      const start = p++;
      const a: unknown[] = [];
      skipSpace();
      if (text[p] === "]") p++;
      else
        for (;;) {
          a.push(value());
          skipSpace();
          const d = text[p++];
          if (d === "]") break;
          if (d !== ",") fail("expected ',' or ']'");
        }
      sourceText.set(a, text.slice(start, p));
      return a;
    }
    if (quote(c)) return str();
    if (f.allowNonNumericNumbers) for (const w of NON_NUMERIC_WORDS) if (word(w)) return new NumberText(w, true);
    if (c === "-" || DIGIT(text.charCodeAt(p))) return num();
    if (word("true")) return true;
    if (word("false")) return false;
    if (word("null")) return null;
    return fail("unexpected character");
  };
  return value();
}

const NON_NUMERIC_WORDS = Object.keys(NON_NUMERIC_NUMBERS);

/** JSON's escapes (`\'` too while single quotes are allowed: parseJsonText). */
const ESCAPED: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
