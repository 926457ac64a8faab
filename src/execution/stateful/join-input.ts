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
import { getValue, type Vector } from "../../columnar/vector.js";
import { keyTextHash } from "../../common/hash.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import type { DataType } from "../../types/datatypes.js";
import { eventTimeMicros, partitionOfHash } from "./common.js";
import { fastHash, fastKey, fastTime } from "./join-key-text.js";
import { endOf } from "./join-side.js";
import { joinKey, plainKey } from "./join-state.js";

/**
 * What the key text of a row with a NULL in its join key starts with (before the values'
 * `joinKey` text): such a row never matches, and is stored only by the side an outer join
 * preserves, to be emitted with NULLs once the watermark evicts it, as Spark does.
 */
export const NULL_KEY = "\u0000null";

/** Is this the key of a row with a NULL in its join key? (Other keys are JSON: never a NUL character.) */
export const isNullKey = (key: string): boolean => key.charCodeAt(0) === 0;

export interface SideInput {
  /** The side's input batches as one. */
  readonly batch: Batch;
  /** Rows of `batch` past the late-row filter, in order; the arrays below are indexed like it. */
  readonly rows: Int32Array;
  readonly keys: string[];
  /** The key's event time (micros) when the side is evicted by its key, else NaN. */
  readonly keyTimes: Float64Array;
  /** The key's hash (keyTextHash of its text: how a join table finds it). */
  readonly hashes: Int32Array;
  /** The key's state partition (partitionOf; 0 for a NULL key, `isNullKey`). */
  readonly parts: Int32Array;
  /** Every key is made of finite numbers, strings, booleans and flat structs of these (plainKey). */
  readonly plainKeys: boolean;
  /** Rows dropped as late. */
  readonly late: number;
}

/** The key of row i: `joinKey` of the row's values (after NULL_KEY with a NULL among them). */
function slowKey(keyCols: readonly Vector[], i: number): { key: string; vals: unknown[] } {
  const vals = keyCols.map((c) => getValue(c, i));
  return { key: vals.some((v) => v === null) ? NULL_KEY + joinKey(vals) : joinKey(vals), vals };
}

/**
 * Each row's key hash and state partition as `sideInput` gives them (partition 0 for a NULL
 * key), from the key columns of `n` rows: what a decode thread routes a join's rows to their
 * state threads by, and hands them with (parallel/join-routing.ts).
 */
export function joinKeyHashes(keyCols: readonly Vector[], n: number, numPartitions: number): { hashes: Int32Array; parts: Int32Array } {
  const fast = n > 0 ? fastHash(keyCols) : null;
  const hashes = new Int32Array(n);
  const parts = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const h = fast === null ? null : fast(i);
    if (h !== null) {
      hashes[i] = h;
      parts[i] = partitionOfHash(h, numPartitions);
      continue;
    }
    const key = slowKey(keyCols, i).key;
    hashes[i] = keyTextHash(key);
    parts[i] = isNullKey(key) ? 0 : partitionOfHash(hashes[i]!, numPartitions);
  }
  return { hashes, parts };
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
  /** Each row's key hash when it is known already (rows routed by a decode thread: joinKeyHashes). */
  givenHashes?: Int32Array,
): SideInput {
  const batch = concatBatches(types, batches);
  const n = batch.numRows;
  const et = timeCol >= 0 && n > 0 ? eventTimeMicros(batch.columns[timeCol]!, n) : null;
  const rows = et === null ? allRows(n) : rowsAfter(et, lateMicros, n);
  const m = rows.length;
  const keyCols = n > 0 ? keyColumns(batch) : [];
  const fast = fastKey(keyCols);
  const keyIndex = cleanup?.keyIndex;
  const time = fast && keyIndex !== undefined ? fastTime(keyCols[keyIndex]!) : null;
  const keys: string[] = [];
  const keyTimes = new Float64Array(m);
  // One pass per step, each a function of its own (docs/architecture.md, "Hot path rules"):
  // one loop calling every closure compiled them all into one large function, twice.
  const plainKeys = keysOf(fast, time, keyCols, keyIndex, rows, keys, keyTimes);
  const hashes = givenHashes !== undefined ? gathered(givenHashes, rows) : hashesOf(fast !== null ? fastHash(keyCols) : null, rows, keys);
  const parts = partitionsOf(keys, hashes, numPartitions);
  return { batch, rows, keys, keyTimes, hashes, parts, plainKeys, late: n - m };
}

function allRows(n: number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}

/** The rows whose event time is past the late watermark `lateMicros`, in order. */
function rowsAfter(et: Float64Array, lateMicros: number, n: number): Int32Array {
  const rows = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) if (!(et[i]! <= lateMicros)) rows[m++] = i;
  return rows.subarray(0, m);
}

/**
 * Each row's key text onto `keys` (empty) and its event time into `keyTimes` (NaN when the side is not
 * evicted by its key); whether every key is plain (`plainKey`).
 */
function keysOf(
  fast: ((i: number) => string | null) | null,
  time: ((i: number) => number) | null,
  keyCols: readonly Vector[],
  keyIndex: number | undefined,
  rows: Int32Array,
  keys: string[],
  keyTimes: Float64Array,
): boolean {
  let plainKeys = true;
  for (let m = 0; m < rows.length; m++) {
    const i = rows[m]!;
    const k = fast === null ? null : fast(i);
    if (k !== null) {
      keys.push(k);
      keyTimes[m] = time === null ? Number.NaN : time(i);
      continue;
    }
    const { key, vals } = slowKey(keyCols, i);
    if (plainKeys && !isNullKey(key) && !plainKey(vals)) plainKeys = false;
    keys.push(key);
    // (A window end beyond 2^53 µs, which no watermark reaches, is a bigint: rounded here.)
    // A NULL time never passes the watermark (Spark's predicate is NULL): never evicted.
    keyTimes[m] = keyIndex !== undefined && vals[keyIndex] !== null ? Number(endOf(vals[keyIndex])) : Number.NaN;
  }
  return plainKeys;
}

/** Each row's key hash: from the columns (`hashOf`, null where it cannot) or from the key's text. */
function hashesOf(hashOf: ((i: number) => number | null) | null, rows: Int32Array, keys: readonly string[]): Int32Array {
  const hashes = new Int32Array(rows.length);
  for (let m = 0; m < rows.length; m++) {
    const h = hashOf === null ? null : hashOf(rows[m]!);
    hashes[m] = h !== null ? h : keyTextHash(keys[m]!);
  }
  return hashes;
}

function gathered(all: Int32Array, rows: Int32Array): Int32Array {
  const out = new Int32Array(rows.length);
  for (let m = 0; m < rows.length; m++) out[m] = all[rows[m]!]!;
  return out;
}

/** Each key's state partition (0 for a NULL key). */
function partitionsOf(keys: readonly string[], hashes: Int32Array, numPartitions: number): Int32Array {
  const parts = new Int32Array(keys.length);
  for (let m = 0; m < keys.length; m++) if (!isNullKey(keys[m]!)) parts[m] = partitionOfHash(hashes[m]!, numPartitions);
  return parts;
}
