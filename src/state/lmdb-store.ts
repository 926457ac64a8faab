/**
 * One batch's view of the disk-backed provider's state (lmdb-provider.ts): changes stay in a JS
 * Map (null = removed) over the committed lmdb state until commit; abort just drops them.
 */
import type { StateRecord } from "./codec.js";
import type { LmdbStateStoreProvider } from "./lmdb-provider.js";
import { type OpenStore, StateStoreClosedError } from "./provider-base.js";
import type { StateRow, StateStoreMetrics } from "./store.js";

const OPEN = 0;
const COMMITTED = 1;
const ABORTED = 2;

export class LmdbStateStore implements OpenStore {
  private pending = new Map<string, StateRow | null>();
  /** Whether a touched key existed in the committed state (for numKeys). */
  private existed = new Map<string, boolean>();
  private delta = 0;
  private state = OPEN;
  private updated = 0;
  private removed = 0;

  constructor(
    private readonly provider: LmdbStateStoreProvider,
    readonly version: number,
  ) {}

  private closed(): never {
    throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
  }

  get(key: string): StateRow | undefined {
    const p = this.pending.get(key);
    if (p !== undefined) return p ?? undefined;
    if (this.state !== OPEN) return this.provider.baseGet(key);
    const v = this.provider.baseGet(key);
    if (!this.existed.has(key)) this.existed.set(key, v !== undefined);
    return v;
  }

  /** Whether the key is present now (pending change, else committed state). */
  private present(key: string): boolean {
    const p = this.pending.get(key);
    if (p !== undefined) return p !== null;
    let e = this.existed.get(key);
    if (e === undefined) {
      e = this.provider.baseGet(key) !== undefined;
      this.existed.set(key, e);
    }
    return e;
  }

  put(key: string, value: StateRow): void {
    if (this.state !== OPEN) this.closed();
    if (!this.present(key)) this.delta++;
    this.pending.set(key, value);
  }

  remove(key: string): void {
    if (this.state !== OPEN) this.closed();
    if (!this.present(key)) return;
    this.delta--;
    this.pending.set(key, null);
  }

  *entries(): IterableIterator<[string, StateRow]> {
    yield* this.scan("");
  }

  *prefixScan(prefix: string): IterableIterator<[string, StateRow]> {
    yield* this.scan(prefix);
  }

  private *scan(prefix: string): Generator<[string, StateRow]> {
    const pending = this.pending;
    for (const e of this.provider.baseEntries(prefix)) {
      const p = pending.get(e[0]);
      if (p === undefined) yield e;
      else if (p !== null) yield [e[0], p];
    }
    for (const [k, p] of pending) {
      if (p !== null && this.existed.get(k) === false && k.startsWith(prefix)) yield [k, p];
    }
  }

  get numKeys(): number {
    return this.provider.baseCount + (this.state === OPEN ? this.delta : 0);
  }

  hasChanges(): boolean {
    return this.state === OPEN && this.pending.size > 0;
  }

  async commit(): Promise<number> {
    if (this.state !== OPEN) this.closed();
    const records: StateRecord[] = [];
    let updated = 0;
    let removed = 0;
    for (const [k, v] of this.pending) {
      if (v !== null) {
        records.push([k, v]);
        updated++;
      } else if (this.existed.get(k)) {
        records.push([k, null]);
        removed++;
      }
    }
    let v: number;
    try {
      v = await this.provider.commitStore(this, records, this.provider.baseCount + this.delta);
    } catch (e) {
      this.abort();
      throw e;
    }
    this.state = COMMITTED;
    this.updated = updated;
    this.removed = removed;
    this.pending = new Map();
    this.existed = new Map();
    return v;
  }

  abort(): void {
    if (this.state !== OPEN) return;
    this.state = ABORTED;
    this.pending = new Map();
    this.existed = new Map();
    this.delta = 0;
    this.provider.releaseStore(this);
  }

  /** The lmdb map in use plus the JS heap of the batch's pending changes. */
  memoryUsedBytes(): number {
    return this.provider.mapBytesInUse() + this.provider.pendingBytes(this.pending.size);
  }

  metrics(): StateStoreMetrics {
    let updated = this.updated;
    let removed = this.removed;
    if (this.state === OPEN) {
      updated = 0;
      removed = 0;
      for (const [k, v] of this.pending) {
        if (v !== null) updated++;
        else if (this.existed.get(k)) removed++;
      }
    }
    return {
      numKeys: this.numKeys,
      numUpdatedKeys: updated,
      numRemovedKeys: removed,
      memoryUsedBytes: this.memoryUsedBytes(),
      customMetrics: this.provider.metricsOf(),
    };
  }
}
