/**
 * The default state store provider (Spark's HDFSBackedStateStoreProvider): the live state is
 * one JS Map per (operator, partition, store); every commit that changed something writes
 * `<version>.delta`, and maintenance writes `<version>.snapshot` once `minDeltasForSnapshot`
 * deltas piled up. Loading version v reads the newest snapshot <= v and replays the deltas
 * after it (files.ts, codec.ts). Without a checkpoint directory nothing is written.
 *
 * Hot path (docs/state.md has the measurements): a batch's changes go straight into the live
 * Map; the store logs (key, old value, new value) per change in three arrays, which is both the
 * undo log (abort) and the delta (commit), so a put costs the Map's own lookups and nothing
 * more. No per-put size accounting: memoryUsedBytes() is numKeys x an average entry size
 * sampled at commit. Heap per entry: new keys are stored flattened (V8 keeps JSON.stringify
 * results as rope strings, about 50 B more per key) and flat structs in rows (the window of a
 * windowed aggregation) are interned per batch.
 */
import type { StateRecord } from "./codec.js";
import { FileBackedProvider, type OpenStore, type ProviderOptions, StateStoreClosedError } from "./provider-base.js";
import { entryBytes, sampledEntryBytes } from "./size.js";
import type { StateRow, StateStoreMetrics } from "./store.js";

export type { ProviderOptions } from "./provider-base.js";
export { estimateBytes } from "./size.js";

/**
 * A flat copy of a rope (cons) string. JSON.stringify returns ropes for results over 32
 * chars; a Map keeps the rope plus its flattened buffer. `unescape` returns the flattened
 * buffer itself and changes nothing in a string without '%'.
 */
function flatKey(k: string): string {
  return k.length > 12 && k.indexOf("%") === -1 ? unescape(k) : k;
}

/**
 * Struct interning: rows of a windowed aggregation all carry their window as a fresh
 * `{start, end}` object (80 B each). The store replaces a flat plain object (primitive fields
 * only) by an equal one it saw earlier in the same batch, copying the row instead of mutating
 * the caller's array. The table is dropped at commit, so it never outlives a batch.
 */
class StructInterner {
  private table = new Map<string, object>();
  private last: Record<string, unknown> | null = null;

  /** `row`, or a copy of it with its flat structs replaced by the interned ones; `own`: the caller owns the row, replace in place. */
  row(row: StateRow, own = false): StateRow {
    let out: unknown[] | null = own ? (row as unknown[]) : null;
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (typeof v !== "object" || v === null || Object.getPrototypeOf(v) !== Object.prototype) continue;
      const c = this.intern(v as Record<string, unknown>);
      if (c !== v) {
        out ??= row.slice();
        out[i] = c;
      }
    }
    return out ?? row;
  }

  private intern(o: Record<string, unknown>): object {
    const last = this.last;
    if (o === last || (last !== null && sameFlat(o, last))) return last!;
    let sig = "";
    for (const k in o) {
      const v = o[k];
      const t = typeof v;
      if (t === "object" ? v !== null : t !== "number" && t !== "string" && t !== "boolean") return o;
      if (Object.is(v, -0)) return o; // -0 would print as "0" in the signature: not interned
      sig += t === "string" ? `${k.length}:${k}s${(v as string).length}:${v},` : `${k.length}:${k}n${v},`;
    }
    let c = this.table.get(sig);
    if (c === undefined) {
      if (this.table.size >= 65_536) this.table.clear();
      this.table.set(sig, o);
      c = o;
    }
    this.last = c as Record<string, unknown>;
    return c;
  }

  clear(): void {
    this.table = new Map();
    this.last = null;
  }
}

function sameFlat(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let n = 0;
  for (const k in a) {
    const v = a[k];
    // Object.is: -0 and 0 are different values here (a DOUBLE field keeps its sign)
    if (!Object.is(v, b[k]) || (typeof v === "object" && v !== null)) return false;
    if (v === undefined && !(k in b)) return false;
    n++;
  }
  for (const _k in b) n--;
  return n === 0;
}

const OPEN = 0;
const COMMITTED = 1;
const ABORTED = 2;

export class MemoryStateStoreProvider extends FileBackedProvider {
  private map = new Map<string, StateRow>();
  /** Average bytes per entry, sampled. */
  private avgEntry = 0;

  constructor(dir: string | null, opts: ProviderOptions) {
    super(dir, opts);
  }

  protected async load(version: number): Promise<void> {
    const hadState = this.version > 0;
    this.map = new Map();
    this.avgEntry = 0;
    this.version = -1;
    if (version === 0) {
      this.version = 0;
      return;
    }
    if (!this.files) {
      // Without files only the current version exists; a fresh provider starts empty.
      if (hadState) throw new Error(`state version ${version} is not available: there is no checkpoint location to load it from`);
      this.version = version;
      return;
    }
    const plan = await this.plan(version);
    const map = this.map;
    const interner = new StructInterner();
    let sampled = 0;
    let sampleBytes = 0;
    const apply = (records: StateRecord[]) => {
      for (let i = 0; i < records.length; i++) {
        const [k, v] = records[i]!;
        if (v === null) map.delete(k);
        else map.set(k, interner.row(v, true));
      }
      if (records.length && sampled < 64) {
        const [k, v] = records[records.length >> 1]!;
        if (v !== null) {
          sampleBytes += entryBytes(k, v);
          sampled++;
        }
      }
    };
    if (plan.snapshot > 0) for await (const chunk of this.files.read(plan.snapshot, "snapshot")) apply(chunk);
    for (const d of plan.deltas) for await (const chunk of this.files.read(d, "delta")) apply(chunk);
    this.avgEntry = sampled ? sampleBytes / sampled : 0;
    this.version = version;
  }

  protected newStore(version: number): OpenStore {
    return new MemoryStateStore(this, version, this.map);
  }

  protected *snapshotRecords(): Iterable<StateRecord> {
    for (const e of this.map) yield e;
  }

  protected async closeLive(): Promise<void> {
    this.map = new Map();
    this.avgEntry = 0;
  }

  /** @internal called by the store's commit */
  commitStore(store: MemoryStateStore, records: StateRecord[]): Promise<number> {
    return this.serial(async () => {
      this.assertCurrent(store);
      const next = store.version + 1;
      await this.writeDelta(next, records);
      this.version = next;
      this.released(store);
      this.avgEntry = sampledEntryBytes(this.avgEntry, records);
      return next;
    });
  }

  /** @internal */
  estimatedBytes(): number {
    return Math.round(this.map.size * this.avgEntry);
  }

  /** @internal */
  metricsOf(): Record<string, number> {
    return {
      ...this.providerMetrics(),
      stateOnCurrentVersionSizeBytes: this.estimatedBytes(),
      lastCommitFileBytes: this.lastCommitFileBytes,
    };
  }
}

/**
 * One batch's view: changes apply to the live map at once. The store logs every change
 * (key, previous value, new value) in three parallel arrays: abort replays the log backwards,
 * commit writes it as the delta (in order, like Spark's delta stream, so a key put twice in a
 * batch appears twice). That costs no hash lookup beyond the Map's own, and a `get` followed by
 * a `put` of the same key looks the key up once.
 */
class MemoryStateStore implements OpenStore {
  private logKeys: string[] = [];
  /** Previous value; undefined = the key did not exist. */
  private logOld: (StateRow | undefined)[] = [];
  /** New value; null = removed. */
  private logNew: (StateRow | null)[] = [];
  private state = OPEN;
  private updated = 0;
  private removed = 0;
  /** The last key read or written and its current value (saves the put's lookup). */
  private lastKey: string | undefined = undefined;
  private lastVal: StateRow | undefined = undefined;
  private readonly interner = new StructInterner();

  constructor(
    private readonly provider: MemoryStateStoreProvider,
    readonly version: number,
    private readonly map: Map<string, StateRow>,
  ) {}

  get(key: string): StateRow | undefined {
    const v = this.map.get(key);
    this.lastKey = key;
    this.lastVal = v;
    return v;
  }

  put(key: string, value: StateRow): void {
    if (this.state !== OPEN) throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
    const old = key === this.lastKey ? this.lastVal : this.map.get(key);
    if (old === undefined) key = flatKey(key);
    value = this.interner.row(value);
    this.logKeys.push(key);
    this.logOld.push(old);
    this.logNew.push(value);
    this.updated++;
    this.map.set(key, value);
    this.lastKey = key;
    this.lastVal = value;
  }

  remove(key: string): void {
    if (this.state !== OPEN) throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
    const old = key === this.lastKey ? this.lastVal : this.map.get(key);
    if (old === undefined) return;
    this.logKeys.push(key);
    this.logOld.push(old);
    this.logNew.push(null);
    this.removed++;
    this.map.delete(key);
    this.lastKey = key;
    this.lastVal = undefined;
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

  hasChanges(): boolean {
    return this.state === OPEN && this.logKeys.length > 0;
  }

  private records(): StateRecord[] {
    const keys = this.logKeys;
    const vals = this.logNew;
    const out: StateRecord[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = [keys[i]!, vals[i]!];
    return out;
  }

  private clearLog(): void {
    this.interner.clear();
    this.logKeys = [];
    this.logOld = [];
    this.logNew = [];
    this.lastKey = undefined;
    this.lastVal = undefined;
  }

  async commit(): Promise<number> {
    if (this.state !== OPEN) throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
    let v: number;
    try {
      v = await this.provider.commitStore(this, this.records());
    } catch (e) {
      // A failed write leaves no new version: undo so the live map is exactly `version` again.
      this.abort();
      throw e;
    }
    this.state = COMMITTED;
    this.clearLog();
    return v;
  }

  abort(): void {
    if (this.state !== OPEN) return;
    this.state = ABORTED;
    const map = this.map;
    const keys = this.logKeys;
    const old = this.logOld;
    for (let i = keys.length - 1; i >= 0; i--) {
      const o = old[i];
      if (o === undefined) map.delete(keys[i]!);
      else map.set(keys[i]!, o);
    }
    this.clearLog();
    this.updated = 0;
    this.removed = 0;
    this.provider.releaseStore(this);
  }

  memoryUsedBytes(): number {
    return this.provider.estimatedBytes();
  }

  metrics(): StateStoreMetrics {
    return {
      numKeys: this.map.size,
      numUpdatedKeys: this.updated,
      numRemovedKeys: this.removed,
      memoryUsedBytes: this.provider.estimatedBytes(),
      customMetrics: this.provider.metricsOf(),
    };
  }
}
