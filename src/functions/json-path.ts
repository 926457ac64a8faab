/**
 * get_json_object(json, path): Spark's JsonPath subset — `$`, `.name`, `['name']`, `[n]`,
 * `[*]` (and `.*`) — over one JSON value. A match that is a string comes back unquoted, objects
 * and arrays as compact JSON text; after a wildcard the matches are gathered into a JSON array
 * (one match alone is written as JSON, so a string keeps its quotes). Invalid JSON, an invalid
 * path or no match give NULL. As Spark's Jackson parser: single-quoted strings are accepted,
 * text after the first value is ignored, and the first of duplicate keys wins.
 */
import { DoubleType, StringType } from "../types/datatypes.js";
import { valueToString } from "./cast.js";
import { mapRows } from "./kernel-util.js";
import { checkArity, exactArg, register, type ScalarFunction } from "./registry.js";

export type Json = null | boolean | string | { readonly num: string } | { readonly arr: Json[] } | { readonly obj: [string, Json][] };

type Step = { key: string } | { index: number } | { wildcard: true };

class JsonReader {
  private i = 0;
  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && " \t\n\r".includes(this.s[this.i]!)) this.i++;
  }

  /** One value; throws on malformed input. */
  value(): Json {
    this.ws();
    const c = this.s[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"' || c === "'") return this.string();
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) throw new Error("malformed");
    this.i += m[0].length;
    return { num: m[0] };
  }

  private expect(ch: string): void {
    this.ws();
    if (this.s[this.i] !== ch) throw new Error("malformed");
    this.i++;
  }

  private object(): Json {
    this.i++;
    const entries: [string, Json][] = [];
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return { obj: entries };
    }
    for (;;) {
      this.ws();
      const q = this.s[this.i];
      if (q !== '"' && q !== "'") throw new Error("malformed");
      const key = this.string();
      this.expect(":");
      entries.push([key, this.value()]);
      this.ws();
      const c = this.s[this.i++];
      if (c === "}") return { obj: entries };
      if (c !== ",") throw new Error("malformed");
    }
  }

  private array(): Json {
    this.i++;
    const items: Json[] = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return { arr: items };
    }
    for (;;) {
      items.push(this.value());
      this.ws();
      const c = this.s[this.i++];
      if (c === "]") return { arr: items };
      if (c !== ",") throw new Error("malformed");
    }
  }

  private string(): string {
    const quote = this.s[this.i++]!;
    let out = "";
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined) throw new Error("malformed"); // raw control characters pass, as Spark allows them
      if (c === quote) return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      const simple: Record<string, string> = { '"': '"', "'": "'", "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) out += simple[e];
      else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i, this.i + 4))) {
        out += String.fromCharCode(Number.parseInt(this.s.slice(this.i, this.i + 4), 16));
        this.i += 4;
      } else throw new Error("malformed");
    }
  }
}

/** Parses a path; null when it is not in Spark's subset. */
export function parseJsonPath(path: string): Step[] | null {
  if (!path.startsWith("$")) return null;
  const steps: Step[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === ".") {
      const m = /^[^.[]+/.exec(path.slice(i + 1));
      if (!m) return null;
      steps.push(m[0] === "*" ? { wildcard: true } : { key: m[0] });
      i += 1 + m[0].length;
    } else if (path[i] === "[") {
      const m = /^\[(?:(\*)|(\d+)|'([^']*)')\]/.exec(path.slice(i));
      if (!m) return null;
      steps.push(m[1] ? { wildcard: true } : m[2] !== undefined ? { index: Number(m[2]) } : { key: m[3]! });
      i += m[0].length;
    } else return null;
  }
  return steps;
}

/** Matches of `steps` in `v`; wildcard matches that are arrays are flattened by later wildcards. */
function evaluate(v: Json, steps: readonly Step[], at: number, out: Json[]): void {
  if (at === steps.length) {
    out.push(v);
    return;
  }
  const step = steps[at]!;
  if ("key" in step) {
    if (v !== null && typeof v === "object" && "obj" in v) {
      const hit = v.obj.find(([k]) => k === step.key);
      if (hit) evaluate(hit[1], steps, at + 1, out);
    }
  } else if (v !== null && typeof v === "object" && "arr" in v) {
    if ("index" in step) {
      if (step.index < v.arr.length) evaluate(v.arr[step.index]!, steps, at + 1, out);
    } else for (const item of v.arr) evaluate(item, steps, at + 1, out);
  }
}

/** One JSON value read as Spark's Jackson parser reads it (text after it ignored); undefined when malformed. */
export function readJson(text: string): Json | undefined {
  try {
    return new JsonReader(text).value();
  } catch {
    return undefined;
  }
}

/** Compact JSON text of a value, numbers as Jackson re-writes them. */
export function writeJson(v: Json): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if ("num" in v) return writeNumber(v.num);
  if ("arr" in v) return `[${v.arr.map(writeJson).join(",")}]`;
  return `{${v.obj.map(([k, x]) => `${JSON.stringify(k)}:${writeJson(x)}`).join(",")}}`;
}

/**
 * As Jackson re-writes a number: integers exactly, others as Java's Double.toString; a double
 * out of range (1E400) is written quoted, `"Infinity"` (Jackson's QUOTE_NON_NUMERIC_NUMBERS).
 */
function writeNumber(text: string): string {
  if (/^-?\d+$/.test(text)) return BigInt(text).toString();
  const d = Number(text);
  if (!Number.isFinite(d)) return `"${d > 0 ? "Infinity" : "-Infinity"}"`;
  return valueToString(d, DoubleType, "UTC");
}

export function getJsonObject(json: string, path: string): string | null {
  const steps = parseJsonPath(path);
  if (!steps) return null;
  let root: Json;
  try {
    root = new JsonReader(json).value();
  } catch {
    return null;
  }
  const matches: Json[] = [];
  evaluate(root, steps, 0, matches);
  if (steps.some((s) => "wildcard" in s)) {
    if (matches.length === 0) return null;
    return matches.length === 1 ? writeJson(matches[0]!) : writeJson({ arr: matches });
  }
  const hit = matches[0];
  if (hit === undefined || hit === null) return null;
  return typeof hit === "string" ? hit : writeJson(hit);
}

const getJsonObjectFn: ScalarFunction = {
  kind: "scalar",
  name: "get_json_object",
  resolve(args, types, call) {
    checkArity("get_json_object", args, 2);
    // no implicit casts: Spark's GetJsonObject is ExpectsInputTypes only
    return { args: args.map((_, i) => exactArg(call, args, types, i, StringType)), type: StringType };
  },
  kernel: (args, n) => mapRows(StringType, args, n, (json, path) => getJsonObject(json as string, path as string)),
};

register(getJsonObjectFn);
