/**
 * The versioned state store contract (Spark's StateStore): one store per
 * (operator, partition, store name). Batch N opens version N, applies its changes and commits
 * version N+1; an aborted or crashed batch leaves no new version, so re-running batch N starts
 * from version N again.
 *
 * Keys are strings (operators encode key tuples with `encodeKey`), values are rows of internal
 * values. Every provider must pass test/state/store-conformance.ts.
 */

export type StateRow = readonly unknown[];

export interface StateStore {
  /** The version this store was loaded at (before this batch's changes). */
  readonly version: number;
  get(key: string): StateRow | undefined;
  put(key: string, value: StateRow): void;
  remove(key: string): void;
  /** All live entries (insertion order of the underlying map). */
  entries(): IterableIterator<[string, StateRow]>;
  /** Entries whose key starts with `prefix`. */
  prefixScan(prefix: string): IterableIterator<[string, StateRow]>;
  readonly numKeys: number;
  /** Persist the changes as version `version + 1`; returns that version. */
  commit(): Promise<number>;
  /** Drop uncommitted changes. */
  abort(): void;
  /** Rough in-memory size of the live entries, bytes. */
  memoryUsedBytes(): number;
}

export interface StateStoreProvider {
  /** Load the store at `version` (0 = empty). */
  getStore(version: number): Promise<StateStore>;
  /** Snapshot and clean up old files; safe to call any time between batches. */
  doMaintenance(): Promise<void>;
  close(): Promise<void>;
}

/** Deterministic key encoding for a tuple of internal values. */
export function encodeKey(values: readonly unknown[]): string {
  return JSON.stringify(values, (_k, v) => (v instanceof Uint8Array ? { $b: Array.from(v) } : v instanceof Map ? { $m: [...v] } : v));
}
