/**
 * The versioned state store contract (Spark's StateStore): one store per
 * (operator, partition, store name). Batch N opens version N, applies its changes and commits
 * version N+1; an aborted or crashed batch leaves no new version, so re-running batch N starts
 * from version N again.
 *
 * Keys are strings (operators encode key tuples with `encodeKey`), values are rows of internal
 * values. A row must not be mutated after it was put, nor a row returned by get: providers may
 * keep the very object (memory) or a decoded copy (lmdb). Every provider must pass
 * test/state/store-conformance.ts.
 */

export type StateRow = readonly unknown[];

export interface StateStoreMetrics {
  /** Keys in the store (after commit: in the committed version). */
  numKeys: number;
  /** Puts by this store's batch (Spark's numRowsUpdated counts puts; a key put twice may count twice). */
  numUpdatedKeys: number;
  /** Distinct keys removed by this store's batch (that existed before). */
  numRemovedKeys: number;
  /** Bytes the state holds: estimated JS heap (memory, columnar), the lmdb map in use plus pending changes (lmdb). */
  memoryUsedBytes: number;
  /** Provider-specific figures (Spark's customMetrics), sorted by name when reported. */
  customMetrics: Record<string, number>;
}

export interface StateStore {
  /** The version this store was loaded at (before this batch's changes). */
  readonly version: number;
  get(key: string): StateRow | undefined;
  /** Throws once the store is committed or aborted. */
  put(key: string, value: StateRow): void;
  /** Throws once the store is committed or aborted; removing a missing key is a no-op. */
  remove(key: string): void;
  /**
   * All live entries, this batch's changes included. Order is the provider's: insertion order
   * (memory) or key order by UTF-8 bytes (lmdb). Do not put or remove while iterating;
   * collect the keys first.
   */
  entries(): IterableIterator<[string, StateRow]>;
  /** Entries whose key starts with `prefix`. */
  prefixScan(prefix: string): IterableIterator<[string, StateRow]>;
  readonly numKeys: number;
  /** Persist the changes as version `version + 1`; returns that version. On failure the store is aborted. */
  commit(): Promise<number>;
  /** Drop uncommitted changes (no-op after commit or abort). */
  abort(): void;
  /** Rough in-memory size of the live entries, bytes. */
  memoryUsedBytes(): number;
  /** Figures for StateOperatorProgress (§6.5); valid before and after commit. */
  metrics(): StateStoreMetrics;
}

export interface StateStoreProvider {
  /**
   * Load the store at `version` (0 = empty). A store of this provider that is still open
   * (neither committed nor aborted) is aborted first: one batch at a time.
   */
  getStore(version: number): Promise<StateStore>;
  /** Snapshot and clean up old files; safe to call any time between batches. */
  doMaintenance(): Promise<void>;
  /**
   * The same, but resolving once the committed state is captured: the files are written beside
   * the next batch (the next maintenance, a load or close waits for them and throws their error).
   */
  startMaintenance?(): Promise<void>;
  close(): Promise<void>;
}

/** Deterministic key encoding for a tuple of internal values. */
export function encodeKey(values: readonly unknown[]): string {
  return JSON.stringify(values, (_k, v) =>
    v instanceof Uint8Array
      ? { $b: Array.from(v) }
      : v instanceof Map
        ? { $m: [...v] }
        : typeof v === "bigint" // a BIGINT beyond ±2^53 − 1 (canonical: safe values stay numbers)
          ? { $l: v.toString() }
          : v,
  );
}
