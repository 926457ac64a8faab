/**
 * Rough JS heap sizes of state entries (V8, 64-bit, no pointer compression: Node's official
 * builds). Checked against measured heap in bench/state.ts (docs/state.md).
 */
import type { StateRecord } from "./codec.js";
import type { StateRow } from "./store.js";

/** Bytes of JS heap a value takes, roughly, when held in a row (slot excluded). */
export function estimateBytes(v: unknown): number {
  switch (typeof v) {
    case "number":
      return (v | 0) === v && !Object.is(v, -0) ? 0 : 16; // small ints are inline, others are HeapNumbers
    case "boolean":
    case "undefined":
      return 0;
    case "string":
      return stringBytes(v);
    case "bigint":
      return 24;
    case "object": {
      if (v === null) return 0;
      if (Array.isArray(v)) {
        let n = 48 + 8 * v.length;
        for (let i = 0; i < v.length; i++) n += estimateBytes(v[i]);
        return n;
      }
      if (v instanceof Uint8Array) return 120 + v.length;
      if (v instanceof Map) {
        let n = 80;
        for (const [k, x] of v) n += 24 + estimateBytes(k) + estimateBytes(x);
        return n;
      }
      let n = 24;
      for (const k in v as Record<string, unknown>) n += 8 + estimateBytes((v as Record<string, unknown>)[k]);
      return n;
    }
    default:
      return 8;
  }
}

function stringBytes(s: string): number {
  // one-byte strings take 1 B per char, two-byte 2 B; 16 B header, 8 B alignment
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the one-byte range
  const len = /[^\u0000-\u00ff]/.test(s) ? 2 * s.length : s.length;
  return (16 + len + 7) & ~7;
}

/** Map entry (3 words) plus hash-table slack, measured at about 29 B per entry for 1 M keys. */
const MAP_ENTRY_BYTES = 32;

/** One entry: key, Map slot, row; flat structs in the row count as shared (interned). */
export function entryBytes(k: string, row: StateRow): number {
  let n = MAP_ENTRY_BYTES + stringBytes(k) + 48 + 8 * row.length;
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype && isFlat(v as Record<string, unknown>))
      continue;
    n += estimateBytes(v);
  }
  return n;
}

/**
 * The running average entry size after a commit: about 16 of the commit's records are sampled
 * (a commit can hold millions) and blended in at a weight of 1/4, so the average follows the
 * state as it changes. `avg` 0 means no average yet; a commit of removals only keeps `avg`.
 */
export function sampledEntryBytes(avg: number, records: readonly StateRecord[]): number {
  let n = 0;
  let bytes = 0;
  const step = Math.max(1, Math.floor(records.length / 16));
  for (let i = 0; i < records.length; i += step) {
    const [k, v] = records[i]!;
    if (v === null) continue;
    bytes += entryBytes(k, v);
    n++;
  }
  if (n === 0) return avg;
  const sample = bytes / n;
  return avg === 0 ? sample : 0.75 * avg + 0.25 * sample;
}

function isFlat(o: Record<string, unknown>): boolean {
  for (const k in o) if (typeof o[k] === "object" && o[k] !== null) return false;
  return true;
}
