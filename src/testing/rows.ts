/**
 * Row comparison for the test kit: rows are normalized against the query's output schema so
 * that a `Date`, an epoch-millisecond number and a timestamp string in the session time zone
 * all mean the same TIMESTAMP, integral numbers equal bigints, a DECIMAL equals its exact text
 * (`"1.50"`, `1.5` or a `Decimal`), and doubles are compared to 12
 * significant digits (sums of floats differ in the last bits between plans). Results are
 * compared as multisets, because streaming output order follows state-store hash order.
 */
import type { Row } from "../api/values.js";
import { MILLIS_PER_DAY, parseDate, parseTimestamp } from "../common/datetime/index.js";
import { getField, hasField, setField } from "../common/row-object.js";
import type { DataType, StructType } from "../types/datatypes.js";
import { formatUnscaled, MAX_PRECISION, parseDecimal } from "../types/decimal.js";

/** An expected row: an object keyed by column name, or an array in column order. */
export type ExpectedRow = Readonly<Record<string, unknown>> | readonly unknown[];

/** A normalized value: plain JSON data, so equal rows serialize to equal keys. */
type Norm =
  | null
  | boolean
  | number
  | string
  | { ts: number | string }
  | { long: string }
  | { date: number }
  | Norm[]
  | { [k: string]: Norm };

const MISSING = "<missing column>";
/** Marks an array row shorter than the schema. */
const MISSING_VALUE = Symbol("missing");

function normalizeValue(v: unknown, type: DataType | undefined, tz: string): Norm {
  if (v === null || v === undefined) return null;
  switch (type?.kind) {
    case "timestamp": {
      // Internal unit is micros; a Date or a number is epoch ms (as MemoryStream.addData reads it).
      const micros =
        v instanceof Date
          ? dateMicrosExact(v)
          : typeof v === "number"
            ? Math.round(v * 1000)
            : typeof v === "string"
              ? parseTimestamp(v, tz)
              : null;
      return micros === null || Number.isNaN(micros) ? String(v) : { ts: exactNorm(micros) };
    }
    case "date": {
      const days =
        v instanceof Date
          ? Math.floor(v.getTime() / MILLIS_PER_DAY)
          : typeof v === "number"
            ? v
            : typeof v === "string"
              ? parseDate(v)
              : null;
      return days === null ? String(v) : { date: days };
    }
    case "decimal": {
      // A Decimal, decimal text, a number or a bigint: compared as exact text at the column's scale.
      const u = parseDecimal(String(v), MAX_PRECISION + type.scale, type.scale);
      return u === undefined || u === null ? String(v) : formatUnscaled(u, type.scale);
    }
    case "struct": {
      if (typeof v !== "object") break;
      const out: { [k: string]: Norm } = {};
      type.fields.forEach((f, i) => {
        setField(out, f.name, normalizeValue(Array.isArray(v) ? v[i] : getField(v as object, f.name), f.type, tz));
      });
      return out;
    }
    case "array":
      if (Array.isArray(v)) return v.map((x) => normalizeValue(x, type.elementType, tz));
      break;
    case "map": {
      const entries = v instanceof Map ? [...v.entries()] : typeof v === "object" ? Object.entries(v as object) : null;
      if (!entries) break;
      // Maps compare as sorted [key, value] pairs: insertion order is not part of the value.
      const pairs = entries.map(([k, x]) => [normalizeValue(k, type.keyType, tz), normalizeValue(x, type.valueType, tz)] as Norm[]);
      return pairs.sort((a, b) => cmp(JSON.stringify(a), JSON.stringify(b)));
    }
  }
  return normalizePlain(v);
}

function normalizePlain(v: unknown): Norm {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : { long: v.toString() };
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    if (Object.is(v, -0) || Number.isInteger(v)) return v === 0 ? 0 : v;
    return Number(v.toPrecision(12));
  }
  if (typeof v === "boolean" || typeof v === "string") return v;
  if (v instanceof Date) return { ts: dateMicros(v) };
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString("hex")}`;
  if (Array.isArray(v)) return v.map(normalizePlain);
  if (v instanceof Map) return [...v.entries()].map(([k, x]) => [normalizePlain(k), normalizePlain(x)]);
  const out: { [k: string]: Norm } = {};
  for (const k of Object.keys(v as object).sort()) setField(out, k, normalizePlain((v as Record<string, unknown>)[k]));
  return out;
}

/** Micros as JSON data: a number while exact, the digits beyond ±2^53 (columnar/int64.ts). */
function exactNorm(m: number | bigint): number | string {
  return typeof m === "bigint" && !Number.isSafeInteger(Number(m)) ? m.toString() : Number(m);
}

/** Result Dates carry their exact microseconds in a non-enumerable `micros` property. */
function dateMicrosExact(d: Date): number | bigint {
  const micros = (d as Date & { micros?: unknown }).micros;
  return typeof micros === "number" || typeof micros === "bigint" ? micros : d.getTime() * 1000;
}
function dateMicros(d: Date): number | string {
  return exactNorm(dateMicrosExact(d));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One row, normalized: columns in schema order, then any extra keys the row has. */
export function normalizeRow(row: ExpectedRow | Row, schema: StructType, tz: string): Norm {
  const names = schema.fields.map((f) => f.name);
  const obj: Record<string, unknown> = Array.isArray(row)
    ? Object.fromEntries(names.map((n, i) => [n, i < row.length ? row[i] : MISSING_VALUE]))
    : { ...(row as Record<string, unknown>) };
  if (Array.isArray(row) && row.length > names.length) obj["<extra values>"] = row.slice(names.length);
  const out: { [k: string]: Norm } = {};
  for (const f of schema.fields)
    setField(out, f.name, hasField(obj, f.name) && obj[f.name] !== MISSING_VALUE ? normalizeValue(obj[f.name], f.type, tz) : MISSING);
  for (const k of Object.keys(obj).sort()) if (!hasField(out, k)) setField(out, k, normalizePlain(obj[k]));
  return out;
}
/** The result of comparing two multisets of rows. */
export interface RowDiff {
  readonly equal: boolean;
  /** Expected rows with no partner in the actual rows (by index into `expected`). */
  readonly missing: ReadonlySet<number>;
  /** Actual rows with no partner in the expected rows (by index into `actual`). */
  readonly unexpected: ReadonlySet<number>;
  readonly expectedText: readonly string[];
  readonly actualText: readonly string[];
}

/** Compare rows as multisets (duplicates count). */
export function diffRows(expected: readonly (ExpectedRow | Row)[], actual: readonly Row[], schema: StructType, tz: string): RowDiff {
  const e = expected.map((r) => normalizeRow(r, schema, tz));
  const a = actual.map((r) => normalizeRow(r, schema, tz));
  const pool = new Map<string, number[]>();
  a.forEach((n, i) => {
    const k = JSON.stringify(n);
    pool.set(k, [...(pool.get(k) ?? []), i]);
  });
  const missing = new Set<number>();
  const matchedActual = new Set<number>();
  e.forEach((n, i) => {
    const slot = pool.get(JSON.stringify(n));
    const hit = slot?.shift();
    if (hit === undefined) missing.add(i);
    else matchedActual.add(hit);
  });
  const unexpected = new Set<number>();
  for (let i = 0; i < a.length; i++) if (!matchedActual.has(i)) unexpected.add(i);
  return {
    equal: missing.size === 0 && unexpected.size === 0,
    missing,
    unexpected,
    expectedText: e.map(renderNorm),
    actualText: a.map(renderNorm),
  };
}

/** Render a normalized value compactly: timestamps in ISO-8601 UTC (micros shown when present). */
export function renderNorm(n: Norm): string {
  if (n === null) return "null";
  if (typeof n === "string") return n === MISSING ? MISSING : JSON.stringify(n);
  if (typeof n !== "object") return String(n);
  if (Array.isArray(n)) return `[${n.map(renderNorm).join(", ")}]`;
  if ("ts" in n && Object.keys(n).length === 1 && typeof n.ts === "number") return isoMicros(n.ts);
  if ("date" in n && Object.keys(n).length === 1 && typeof n.date === "number")
    return new Date(n.date * MILLIS_PER_DAY).toISOString().slice(0, 10);
  return `{${Object.entries(n)
    .map(([k, v]) => `${k}: ${renderNorm(v as Norm)}`)
    .join(", ")}}`;
}

function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const extra = micros - ms * 1000;
  const iso = new Date(ms).toISOString();
  return extra ? `${iso.slice(0, -1)}${String(extra).padStart(3, "0")}Z` : iso;
}

/** Render rows for messages (used for actions' descriptions too). */
export function renderRows(rows: readonly (ExpectedRow | Row)[], schema: StructType | null, tz: string, max = 3): string {
  const shown = rows.slice(0, max).map((r) => (schema ? renderNorm(normalizeRow(r, schema, tz)) : renderNorm(normalizePlain(r))));
  return rows.length > max ? `[${shown.join(", ")}, ... ${rows.length - max} more]` : `[${shown.join(", ")}]`;
}
