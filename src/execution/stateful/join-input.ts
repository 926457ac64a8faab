/**
 * One side's input of a stream-stream join for a micro-batch, left columnar: the side's
 * batches as one, the rows past the late-row filter (by index), and each row's join key
 * (`joinKey` text, the state's key) and the key's event time. No row is turned into an array
 * here: stored rows are copied from the columns (JoinSide.append) and output rows gathered
 * from them (join-output.ts).
 *
 * Keys made of numbers and flat structs of numbers (ids, windows) are written straight from
 * the typed arrays, as the same text `joinKey` gives for the row's values; any other key (or a
 * row holding a NULL, NaN, infinity or wide BIGINT in its key) takes `joinKey` itself.
 */
import { type Batch, concatBatches } from "../../columnar/batch.js";
import { isInt64Type, isSafe } from "../../columnar/int64.js";
import { getValue, type Vector } from "../../columnar/vector.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import type { DataType } from "../../types/datatypes.js";
import { eventTimeMicros, partitionOf } from "./common.js";
import { endOf } from "./join-side.js";
import { joinKey, plainKey } from "./join-state.js";

/** The key of a row with a NULL in its join key: it never matches. */
export const NULL_KEY = "\u0000null";

export interface SideInput {
  /** The side's input batches as one. */
  readonly batch: Batch;
  /** Rows of `batch` past the late-row filter, in order; the arrays below are indexed like it. */
  readonly rows: Int32Array;
  readonly keys: string[];
  /** The key's event time (micros) when the side is evicted by its key, else NaN. */
  readonly keyTimes: Float64Array;
  /** The key's state partition (partitionOf; 0 for NULL_KEY). */
  readonly parts: Int32Array;
  /** Every key is made of finite numbers, strings, booleans and flat structs of these (plainKey). */
  readonly plainKeys: boolean;
  /** Rows dropped as late. */
  readonly late: number;
}

/** The text of part of a key at row i, or null when only the generic path can write it. */
type PartText = (i: number) => string | null;

/** A number as JSON writes it, or null where the key needs the generic path (NaN, infinities, wide BIGINTs). */
function numberPart(v: Vector): ((i: number) => string | null) | null {
  const vals = v.values;
  if (!(vals instanceof Float64Array || vals instanceof Int32Array) || v.children || v.type.kind === "boolean") return null;
  const int64 = isInt64Type(v.type);
  const valid = v.validity;
  return (i) => {
    if (valid !== null && valid[i] === 0) return null;
    const x = vals[i]!;
    if (!Number.isFinite(x) || (int64 && !isSafe(x) && Number.isInteger(x))) return null;
    return `${x}`;
  };
}

/** Field names a plain object keeps in declaration order, each once (no index-like names). */
const orderedNames = (names: readonly string[]): boolean =>
  new Set(names).size === names.length && names.every((n) => n !== "__proto__" && !/^(0|[1-9]\d*)$/.test(n));

function columnPart(v: Vector): PartText | null {
  if (!v.children) return numberPart(v);
  const names = (v.type as Extract<DataType, { kind: "struct" }>).fields.map((f) => f.name);
  if (names.length === 0 || !orderedNames(names)) return null;
  const fields = v.children.map(numberPart);
  if (fields.some((f) => f === null)) return null;
  const heads = names.map((n, f) => `${f === 0 ? "{" : ","}${JSON.stringify(n)}:`);
  const valid = v.validity;
  const raw = v.children.map((c) => c.values as Float64Array | Int32Array);
  const rawValid = v.children.map((c) => c.validity);
  // Rows of one window follow each other: the last row's text is reused while its fields
  // repeat (they were written once, so they are finite; -0 and 0 write alike).
  const last = new Float64Array(raw.length);
  let lastText: string | null = null;
  return (i) => {
    if (valid !== null && valid[i] === 0) return null;
    if (lastText !== null) {
      let same = true;
      for (let f = 0; f < raw.length && same; f++) same = raw[f]![i] === last[f] && (rawValid[f] === null || rawValid[f]![i] === 1);
      if (same) return lastText;
    }
    let s = "";
    for (let f = 0; f < fields.length; f++) {
      const x = fields[f]!(i);
      if (x === null) return null;
      s += heads[f]! + x;
    }
    for (let f = 0; f < raw.length; f++) last[f] = raw[f]![i]!;
    lastText = `${s}}`;
    return lastText;
  };
}

/** The key text of row i straight from the columns, or null: take `joinKey` of the row's values. */
function fastKey(cols: readonly Vector[]): ((i: number) => string | null) | null {
  const parts = cols.map(columnPart);
  if (parts.length === 0 || parts.some((p) => p === null)) return null;
  if (parts.length === 2) {
    const [a, b] = parts as [PartText, PartText];
    return (i) => {
      const x = a(i);
      const y = x === null ? null : b(i);
      return y === null ? null : `[${x},${y}]`;
    };
  }
  return (i) => {
    let s = "[";
    for (let p = 0; p < parts.length; p++) {
      const x = parts[p]!(i);
      if (x === null) return null;
      s += p === 0 ? x : `,${x}`;
    }
    return `${s}]`;
  };
}

/** The key's event time straight from column `v` (a time, or a window's end) when fastKey wrote the key. */
function fastTime(v: Vector): (i: number) => number {
  if (!v.children) {
    const vals = v.values as Float64Array;
    return (i) => vals[i]!;
  }
  const f = (v.type as Extract<DataType, { kind: "struct" }>).fields.findIndex((x) => x.name === "end");
  if (f < 0) return () => Number.NEGATIVE_INFINITY;
  const end = v.children[f]!.values as Float64Array;
  return (i) => end[i]!;
}

/**
 * The side's input: rows at or below the late watermark `lateMicros` dropped (when the side has
 * an event-time column `timeCol`), keys computed by `keyOf` (compiled key expressions).
 */
export function sideInput(
  types: readonly DataType[],
  batches: readonly Batch[],
  timeCol: number,
  lateMicros: number,
  cleanup: SideCleanup | null,
  numPartitions: number,
  keyColumns: (b: Batch) => Vector[],
): SideInput {
  const batch = concatBatches(types, batches);
  const n = batch.numRows;
  const et = timeCol >= 0 && n > 0 ? eventTimeMicros(batch.columns[timeCol]!, n) : null;
  const keyCols = n > 0 ? keyColumns(batch) : [];
  const fast = fastKey(keyCols);
  const keyIndex = cleanup?.keyIndex;
  const time = fast && keyIndex !== undefined ? fastTime(keyCols[keyIndex]!) : null;
  const rows = new Int32Array(n);
  const keys: string[] = [];
  const keyTimes = new Float64Array(n);
  const parts = new Int32Array(n);
  let plainKeys = true;
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (et !== null && et[i]! <= lateMicros) continue;
    rows[m] = i;
    const k = fast === null ? null : fast(i);
    if (k !== null) {
      keys.push(k);
      keyTimes[m] = time === null ? Number.NaN : time(i);
    } else {
      const vals = keyCols.map((c) => getValue(c, i));
      const key = vals.some((v) => v === null) ? NULL_KEY : joinKey(vals);
      if (key !== NULL_KEY && plainKeys && !plainKey(vals)) plainKeys = false;
      keys.push(key);
      // (A window end beyond 2^53 µs, which no watermark reaches, is a bigint: rounded here.)
      keyTimes[m] = keyIndex !== undefined && key !== NULL_KEY ? Number(endOf(vals[keyIndex])) : Number.NaN;
    }
    const key = keys[m]!;
    if (key !== NULL_KEY) parts[m] = partitionOf(key, numPartitions);
    m++;
  }
  return { batch, rows: rows.subarray(0, m), keys, keyTimes: keyTimes.subarray(0, m), parts: parts.subarray(0, m), plainKeys, late: n - m };
}
