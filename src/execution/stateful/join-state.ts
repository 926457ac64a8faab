/**
 * How a stream-stream join keeps one side's rows in a state store: Spark's two-store layout
 * (keyToNumValues + keyWithIndexToValue) in one store. The join key holds `[count]`, and row i
 * of the key lives under `key + SEP + i` as `[matched, ...row values]`. Appending a row
 * writes that row and the count, not the key's whole list, so a key with many rows costs
 * each batch only what changed.
 *
 * Checkpoints written before this layout hold the key's whole list under the key
 * (`[[matched, ...], ...]`); such a key is read as is and rewritten in this layout the first
 * time it changes.
 */
import { encodeKey, type StateStore } from "../../state/store.js";

/** A stored row: the matched flag, then the row's values. */
export type Stored = [number, ...unknown[]];

/** Join keys are JSON (`encodeKey`) or a fixed marker, so they never hold this character. */
const SEP = "\u0001";

const rowKey = (key: string, i: number): string => `${key}${SEP}${i}`;

/** Is this store entry a row (rather than a join key's count)? */
export const isRowEntry = (entryKey: string): boolean => entryKey.includes(SEP);

function legacyList(v: readonly unknown[]): Stored[] | null {
  return v.length > 0 && Array.isArray(v[0]) ? (v as unknown as Stored[]) : null;
}

/** The rows of `key`, in the order they were stored. */
export function rowsOf(s: StateStore, key: string): Stored[] {
  const v = s.get(key);
  if (v === undefined) return [];
  const legacy = legacyList(v);
  if (legacy) return [...legacy];
  const n = v[0] as number;
  const out = new Array<Stored>(n);
  for (let i = 0; i < n; i++) out[i] = s.get(rowKey(key, i)) as Stored;
  return out;
}

/** Adds a row to `key`. */
export function appendRow(s: StateStore, key: string, row: Stored): void {
  const v = s.get(key);
  if (v !== undefined && legacyList(v)) {
    replaceRows(s, key, [...legacyList(v)!, row], 0);
    return;
  }
  const n = v === undefined ? 0 : (v[0] as number);
  s.put(rowKey(key, n), row);
  s.put(key, [n + 1]);
}

/** Adds `rows` to `key`, in order: one read and one write of the count whatever their number. */
export function appendRows(s: StateStore, key: string, rows: readonly Stored[]): void {
  if (rows.length === 0) return;
  const v = s.get(key);
  const legacy = v === undefined ? null : legacyList(v);
  if (legacy) {
    replaceRows(s, key, [...legacy, ...rows], 0);
    return;
  }
  const n = v === undefined ? 0 : (v[0] as number);
  for (let i = 0; i < rows.length; i++) s.put(rowKey(key, n + i), rows[i]!);
  s.put(key, [n + rows.length]);
}

/** Replaces row `i` of `key` (a new array: stored rows are never mutated). */
export function setRow(s: StateStore, key: string, i: number, row: Stored): void {
  const v = s.get(key);
  const legacy = v === undefined ? null : legacyList(v);
  if (legacy) {
    const rows = [...legacy];
    rows[i] = row;
    replaceRows(s, key, rows, 0);
  } else s.put(rowKey(key, i), row);
}

/**
 * Makes `rows` the rows of `key`. `from` is the first position that may differ from what is
 * stored (rows before it are left alone); the key is removed when no rows remain.
 */
export function replaceRows(s: StateStore, key: string, rows: readonly Stored[], from: number): void {
  const v = s.get(key);
  const legacy = v !== undefined && legacyList(v) !== null;
  const before = v === undefined ? 0 : legacy ? 0 : (v[0] as number);
  const start = legacy ? 0 : from;
  for (let i = start; i < rows.length; i++) s.put(rowKey(key, i), rows[i]!);
  for (let i = rows.length; i < before; i++) s.remove(rowKey(key, i));
  if (rows.length === 0) s.remove(key);
  else s.put(key, [rows.length]);
}

/** Removes `key` and all its rows, handing each row to `onRow` first; returns how many. */
export function removeKey(s: StateStore, key: string, onRow: (row: Stored) => unknown): number {
  const v = s.get(key);
  if (v === undefined) return 0;
  const legacy = legacyList(v);
  if (legacy) {
    for (const r of legacy) onRow(r);
    s.remove(key);
    return legacy.length;
  }
  const n = v[0] as number;
  for (let i = 0; i < n; i++) {
    const k = rowKey(key, i);
    onRow(s.get(k) as Stored);
    s.remove(k);
  }
  s.remove(key);
  return n;
}

/** Rows in the store, all keys. */
export function totalRows(s: StateStore): number {
  let n = 0;
  for (const [k, v] of s.entries()) if (!isRowEntry(k)) n += legacyList(v)?.length ?? (v[0] as number);
  return n;
}

/** Join keys of the store (collected first: the caller may then write). */
export function allKeys(s: StateStore): string[] {
  const keys: string[] = [];
  for (const [k] of s.entries()) if (!isRowEntry(k)) keys.push(k);
  return keys;
}

const isScalar = (v: unknown): boolean => v === null || typeof v === "number" || typeof v === "string" || typeof v === "boolean";

/**
 * `encodeKey(values)`, without its replacer when no value needs one: join keys are mostly
 * scalars and windows (flat `{start, end}` objects), for which plain JSON.stringify gives the
 * same string several times faster. Anything else (binary, maps, nested structs) takes
 * encodeKey itself.
 */
export function joinKey(values: readonly unknown[]): string {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isScalar(v)) continue;
    if (typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return encodeKey(values);
    for (const k in v as Record<string, unknown>) if (!isScalar((v as Record<string, unknown>)[k])) return encodeKey(values);
  }
  return JSON.stringify(values);
}

const isPlainScalar = (v: unknown): boolean =>
  typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

/**
 * Is every value a finite number, a string, a boolean, or a flat plain struct of those? Equal
 * `joinKey` strings of such keys mean the values are equal under SQL `=` too (no NaN or
 * infinity, which JSON writes as null, no NULL inside a struct, no binary).
 */
export function plainKey(values: readonly unknown[]): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isPlainScalar(v)) continue;
    if (typeof v !== "object" || v === null || Object.getPrototypeOf(v) !== Object.prototype) return false;
    for (const k in v as Record<string, unknown>) if (!isPlainScalar((v as Record<string, unknown>)[k])) return false;
  }
  return true;
}
