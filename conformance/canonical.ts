/**
 * Canonical JSON for result rows, directed by the Spark type string (`simpleString`), the same
 * format spark_runner.py writes:
 *
 *   timestamp      "YYYY-MM-DDTHH:MM:SS.ffffffZ" (UTC, always 6 fraction digits)
 *   timestamp_ntz  "YYYY-MM-DDTHH:MM:SS.ffffff"
 *   date           "YYYY-MM-DD"
 *   tinyint..bigint  number; beyond +-(2^53-1) a decimal string
 *   float, double  number; "NaN", "Infinity", "-Infinity"
 *   decimal(p,s)   string with exactly s fraction digits
 *   binary         "base64:<...>"
 *   array          list;  map: list of [key, value] pairs sorted by the key's JSON;  struct: object
 *   interval day to second: micros (number); year to month: months
 */
import { microsToIso } from "./case.js";

export type SparkType =
  | { kind: "struct"; fields: { name: string; type: SparkType }[] }
  | { kind: "array"; element: SparkType }
  | { kind: "map"; key: SparkType; value: SparkType }
  | { kind: "decimal"; precision: number; scale: number }
  | { kind: "atomic"; name: string };

/** Parses Spark's `simpleString` form: `struct<a:int,b:array<timestamp>>`, `decimal(10,2)`, `map<string,bigint>`. */
export function parseType(s: string): SparkType {
  let i = 0;
  const src = s.trim();
  const peek = () => src[i];
  const skipWs = () => {
    while (src[i] === " ") i++;
  };
  const ident = (): string => {
    skipWs();
    if (src[i] === "`") {
      i++;
      let out = "";
      while (i < src.length) {
        if (src[i] === "`" && src[i + 1] === "`") {
          out += "`";
          i += 2;
        } else if (src[i] === "`") {
          i++;
          break;
        } else out += src[i++];
      }
      return out;
    }
    const start = i;
    while (i < src.length && !"<>,:() ".includes(src[i])) i++;
    return src.slice(start, i);
  };
  const expect = (c: string) => {
    skipWs();
    if (src[i] !== c) throw new Error(`bad type string ${JSON.stringify(s)} at ${i}: expected ${c}`);
    i++;
  };
  const type = (): SparkType => {
    const name = ident().toLowerCase();
    skipWs();
    if (name === "struct") {
      expect("<");
      const fields: { name: string; type: SparkType }[] = [];
      skipWs();
      if (peek() === ">") {
        i++;
        return { kind: "struct", fields };
      }
      for (;;) {
        const fname = ident();
        expect(":");
        fields.push({ name: fname, type: type() });
        skipWs();
        if (peek() === ",") i++;
        else break;
      }
      expect(">");
      return { kind: "struct", fields };
    }
    if (name === "array") {
      expect("<");
      const element = type();
      expect(">");
      return { kind: "array", element };
    }
    if (name === "map") {
      expect("<");
      const key = type();
      expect(",");
      const value = type();
      expect(">");
      return { kind: "map", key, value };
    }
    if (name === "decimal") {
      if (peek() === "(") {
        i++;
        const p = Number(ident());
        expect(",");
        const sc = Number(ident());
        expect(")");
        return { kind: "decimal", precision: p, scale: sc };
      }
      return { kind: "decimal", precision: 10, scale: 0 };
    }
    if (name === "interval" || name.startsWith("interval")) {
      // "interval day to second", "interval year to month", ...
      const start = i;
      while (i < src.length && !",>".includes(src[i])) i++;
      return { kind: "atomic", name: `interval${src.slice(start, i)}`.replace(/\s+/g, " ").trim() };
    }
    if (name === "varchar" || name === "char") {
      if (peek() === "(") {
        while (src[i] !== ")") i++;
        i++;
      }
      return { kind: "atomic", name: "string" };
    }
    return { kind: "atomic", name };
  };
  const t = type();
  return t;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Micros since epoch from whatever the engine hands back for a timestamp. */
export function toMicros(v: unknown): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "object" && v !== null) {
    const m = (v as { micros?: unknown }).micros;
    if (typeof m === "bigint") return m;
    if (typeof m === "number") return BigInt(m);
    if (v instanceof Date) return BigInt(v.getTime()) * 1000n;
  }
  if (typeof v === "string") return isoToMicros(v);
  if (typeof v === "number") return BigInt(v) * 1000n; // assume epoch millis
  throw new Error(`cannot read a timestamp from ${String(v)}`);
}

/** "2024-01-01T00:00:05.123456Z" (or without zone, or with +hh:mm) -> micros. */
export function isoToMicros(s: string): bigint {
  const m = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?$/.exec(s.trim());
  if (!m) throw new Error(`bad timestamp ${s}`);
  const whole = Date.parse(`${m[1].replace(" ", "T")}${m[3] ?? "Z"}`);
  if (Number.isNaN(whole)) throw new Error(`bad timestamp ${s}`);
  const frac = (m[2] ?? "").padEnd(6, "0").slice(0, 6);
  return BigInt(whole) * 1000n + BigInt(frac === "" ? "0" : frac);
}

function intValue(v: unknown): number | string {
  const b = typeof v === "bigint" ? v : BigInt(Math.trunc(Number(v)));
  return b > MAX_SAFE || b < -MAX_SAFE ? b.toString() : Number(b);
}

function decimalString(v: unknown, scale: number): string {
  if (typeof v === "object" && v !== null && typeof (v as { toFixed?: unknown }).toFixed === "function") {
    return (v as { toFixed: (n: number) => string }).toFixed(scale);
  }
  const s = typeof v === "string" ? v : typeof v === "bigint" ? v.toString() : String(v);
  if (typeof v === "number" && !s.includes("e")) return v.toFixed(scale);
  // exact decimal string arithmetic
  const neg = s.startsWith("-");
  const body = neg ? s.slice(1) : s;
  const [ip, fp = ""] = body.split(".");
  let frac = fp.padEnd(scale, "0");
  if (frac.length > scale) frac = frac.slice(0, scale); // engines should already round to scale
  const out = scale > 0 ? `${ip || "0"}.${frac}` : ip || "0";
  return neg && /[1-9]/.test(out) ? `-${out}` : out;
}

function b64(v: unknown): string {
  if (v instanceof Uint8Array) return `base64:${Buffer.from(v).toString("base64")}`;
  if (Array.isArray(v)) return `base64:${Buffer.from(v as number[]).toString("base64")}`;
  return `base64:${Buffer.from(String(v)).toString("base64")}`;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

/**
 * JSON text as Python's `json.dumps` writes it (ensure_ascii: every non-ASCII UTF-16 unit as
 * `\uxxxx`), so map pairs sort by the same text as spark_runner.py's `sorted(key=json.dumps)`.
 */
function asciiJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A value from the engine -> canonical JSON value. */
export function canonValue(v: unknown, t: SparkType): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case "struct": {
      if (Array.isArray(v)) return Object.fromEntries(t.fields.map((f, i) => [f.name, canonValue(v[i], f.type)]));
      const o = v as Record<string, unknown>;
      return Object.fromEntries(t.fields.map((f) => [f.name, canonValue(o[f.name], f.type)]));
    }
    case "array":
      return [...(v as Iterable<unknown>)].map((x) => canonValue(x, t.element));
    case "map": {
      const entries: [unknown, unknown][] =
        v instanceof Map ? [...v.entries()] : Array.isArray(v) ? (v as [unknown, unknown][]) : Object.entries(v as object);
      const pairs = entries.map(([k, x]) => [canonValue(k, t.key), canonValue(x, t.value)]);
      pairs.sort((a, b) => {
        const ka = asciiJson(a[0]);
        const kb = asciiJson(b[0]);
        return ka < kb ? -1 : ka > kb ? 1 : 0;
      });
      return pairs;
    }
    case "decimal":
      return decimalString(v, t.scale);
    case "atomic":
      break;
  }
  switch (t.name) {
    case "timestamp":
    case "timestamp_ltz":
      return microsToIso(toMicros(v));
    case "timestamp_ntz":
      return microsToIso(toMicros(v)).slice(0, -1);
    case "date": {
      if (typeof v === "string") return v.slice(0, 10);
      if (typeof v === "number") return new Date(v * 86_400_000).toISOString().slice(0, 10);
      const d = v as Date;
      return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
    }
    case "tinyint":
    case "smallint":
    case "int":
    case "integer":
    case "bigint":
    case "long":
      return intValue(v);
    case "float":
    case "double": {
      const n = Number(v);
      if (Number.isNaN(n)) return "NaN";
      if (n === Number.POSITIVE_INFINITY) return "Infinity";
      if (n === Number.NEGATIVE_INFINITY) return "-Infinity";
      return n;
    }
    case "boolean":
      return Boolean(v);
    case "string":
      return String(v);
    case "binary":
      return b64(v);
    default:
      if (
        t.name.startsWith("interval day") ||
        t.name.startsWith("interval hour") ||
        t.name.startsWith("interval minute") ||
        t.name.startsWith("interval second")
      ) {
        return intValue(v);
      }
      if (t.name.startsWith("interval")) return intValue(v);
      return typeof v === "object" ? JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))) : v;
  }
}

/** Column keys, suffixing repeated names `name#2` like spark_runner.py. */
export function fieldKeys(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const c = (seen.get(n) ?? 0) + 1;
    seen.set(n, c);
    return c === 1 ? n : `${n}#${c}`;
  });
}

/** A row (object keyed by column, or array in schema order) -> canonical object. */
export function canonRow(row: unknown, fields: { name: string; type: string }[]): Record<string, unknown> {
  const keys = fieldKeys(fields.map((f) => f.name));
  const out: Record<string, unknown> = {};
  fields.forEach((f, i) => {
    const raw = Array.isArray(row) ? row[i] : (row as Record<string, unknown>)[f.name];
    out[keys[i]] = canonValue(raw, parseType(f.type));
  });
  return out;
}
