/**
 * A state store that lives for one run of a batch query: transformWithState on a batch
 * DataFrame (Spark runs it over a temporary store too) starts empty and keeps nothing.
 */
import type { StateRow, StateStore, StateStoreMetrics } from "../../../state/store.js";

export class EphemeralStore implements StateStore {
  readonly version = 0;
  private readonly map = new Map<string, StateRow>();
  get(key: string): StateRow | undefined {
    return this.map.get(key);
  }
  put(key: string, value: StateRow): void {
    this.map.set(key, value);
  }
  remove(key: string): void {
    this.map.delete(key);
  }
  entries(): IterableIterator<[string, StateRow]> {
    return this.map.entries();
  }
  *prefixScan(prefix: string): IterableIterator<[string, StateRow]> {
    for (const e of this.map) if (e[0].startsWith(prefix)) yield e;
  }
  get numKeys(): number {
    return this.map.size;
  }
  async commit(): Promise<number> {
    return 1;
  }
  abort(): void {}
  memoryUsedBytes(): number {
    return 0;
  }
  metrics(): StateStoreMetrics {
    return { numKeys: this.map.size, numUpdatedKeys: 0, numRemovedKeys: 0, memoryUsedBytes: 0, customMetrics: {} };
  }
}
