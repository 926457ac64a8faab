/**
 * Data source options: case-insensitive keys (Spark's CaseInsensitiveMap) and the read modes
 * shared by the JSON and CSV readers.
 */
import { IllegalArgumentException } from "../../common/errors.js";

export class SourceOptions {
  private readonly map = new Map<string, string>();

  constructor(raw: Readonly<Record<string, string>> = {}) {
    for (const [k, v] of Object.entries(raw)) if (v !== undefined && v !== null) this.map.set(k.toLowerCase(), String(v));
  }

  /** The options as a plain record (lower-case keys), e.g. to hand them to a worker thread. */
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.map);
  }

  get(key: string): string | undefined {
    return this.map.get(key.toLowerCase());
  }

  string(key: string, fallback: string): string {
    return this.get(key) ?? fallback;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.get(key);
    if (v === undefined) return fallback;
    const l = v.toLowerCase();
    if (l === "true") return true;
    if (l === "false") return false;
    throw new IllegalArgumentException(`${key} flag can be true or false`);
  }

  /** A one-character option; "" means "disabled" (U+0000) as in Spark. */
  char(key: string, fallback: string): string {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (v.length === 0) return "\u0000";
    if (v.length === 1) return v;
    // Spark accepts escaped forms like "\t" and "\u0001" for the separator.
    if (v === "\\t") return "\t";
    if (/^\\u[0-9a-fA-F]{4}$/.test(v)) return String.fromCharCode(Number.parseInt(v.slice(2), 16));
    throw new IllegalArgumentException(`${key} cannot be more than one character`);
  }
}

export type ParseMode = "PERMISSIVE" | "DROPMALFORMED" | "FAILFAST";

export function parseMode(opts: SourceOptions): ParseMode {
  const m = (opts.get("mode") ?? "PERMISSIVE").toUpperCase();
  if (m === "PERMISSIVE" || m === "DROPMALFORMED" || m === "FAILFAST") return m;
  // Spark falls back to PERMISSIVE (with a warning) for unknown modes.
  return "PERMISSIVE";
}

export function corruptColumnName(opts: SourceOptions): string {
  return opts.get("columnNameOfCorruptRecord") ?? "_corrupt_record";
}

/** The session time zone unless the `timeZone` option overrides it. */
export function effectiveZone(opts: SourceOptions, sessionZone: string): string {
  return opts.get("timeZone") ?? sessionZone;
}
