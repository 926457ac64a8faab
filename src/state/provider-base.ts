/**
 * What every provider shares. `VersionedProvider`: one open store at a time, serialisation of
 * the async steps, loading a version only when it is not the live one (the cache hit/miss
 * counters), close; the row providers and the columnar one (columnar/provider.ts) build on it.
 * `FileBackedProvider` adds the row providers' files: commits that supersede stale files then
 * write `<v>.delta`, maintenance (snapshot when enough deltas piled up, then retention).
 * Subclasses own the live state (a JS Map, an lmdb environment, a columnar table).
 */
import type { CheckpointFs } from "../checkpoint/atomic-file.js";
import { crashPoint } from "../common/crash-points.js";
import type { StateRecord } from "./codec.js";
import { type LoadPlan, nodeStateFs, StateFiles, type StateFs } from "./files.js";
import type { StateStore, StateStoreProvider } from "./store.js";

export interface ProviderOptions {
  /** Write a snapshot once this many deltas were written since the last one. */
  minDeltasForSnapshot: number;
  /** Keep the files that rebuild the last this-many versions. */
  minBatchesToRetain: number;
  /** File-system seam (tests inject failures); default: node's fs with streaming. */
  fs?: CheckpointFs | StateFs;
  /**
   * The newest version <= `version` that the commit log says store `dir` has a file of (0:
   * none known). Loading `version` without that file fails naming it (runtime/state-heads.ts).
   */
  requiredHead?: (dir: string, version: number) => number;
  /** Told of every delta a commit writes (the commit log lists them). */
  onDeltaWritten?: (dir: string, version: number) => void;
}

/** The part of a store the provider drives. */
export interface ProviderStore {
  /** The version the store was loaded at. */
  readonly version: number;
  /** Abort if still open (the provider is moving to another version or closing). */
  abort(): void;
  hasChanges(): boolean;
}

/** A row store as its provider drives it. */
export interface OpenStore extends StateStore, ProviderStore {}

export class StateStoreClosedError extends Error {
  constructor(what: string) {
    super(`state store already ${what}: a store takes no changes after commit or abort`);
  }
}

export function checkVersion(version: number): void {
  if (!Number.isSafeInteger(version) || version < 0) throw new RangeError(`state store version must be an integer >= 0, got ${version}`);
}

/**
 * Whether maintenance should snapshot `version` into `files` (scanned by the caller): they end
 * at `version` (a newer file means this provider is behind), no batch is writing (`busy`),
 * there is no snapshot of it yet and at least `minDeltasForSnapshot` deltas were written since
 * the last one.
 */
export function snapshotDue(files: StateFiles, version: number, busy: boolean, minDeltasForSnapshot: number): boolean {
  const atHead = files.latestFileVersion(Number.MAX_SAFE_INTEGER) <= version;
  return (
    atHead &&
    !busy &&
    !files.snapshotVersions().includes(version) &&
    files.deltasSinceSnapshot(version) >= Math.max(1, minDeltasForSnapshot)
  );
}

export abstract class VersionedProvider<S extends ProviderStore> {
  /** Version of the committed live state; -1 = nothing loaded. */
  protected version = -1;
  protected openStore: S | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  protected cacheHits = 0;
  protected cacheMisses = 0;
  protected lastCommitFileBytes = 0;

  /** Run async steps one after another (commit, load, maintenance never interleave). */
  protected serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }

  /** The store of `version` (0 = empty). A store still open is aborted first. */
  getStore(version: number): Promise<S> {
    checkVersion(version);
    return this.serial(async () => {
      this.openStore?.abort();
      this.openStore = null;
      if (version === this.version) this.cacheHits++;
      else {
        this.cacheMisses++;
        await this.load(version);
      }
      const s = this.newStore(version);
      this.openStore = s;
      return s;
    });
  }

  /** Make the live state equal to `version` (from files unless it already is). */
  protected abstract load(version: number): Promise<void>;
  protected abstract newStore(version: number): S;
  /** Drop the live state (close). */
  protected abstract closeLive(): Promise<void>;

  /** @internal checks a store may commit now. */
  protected assertCurrent(store: S): void {
    if (store !== this.openStore || store.version !== this.version) {
      throw new Error(`state store of version ${store.version} is stale: the provider moved to version ${this.version}`);
    }
  }

  /** @internal */
  protected released(store: S): void {
    if (this.openStore === store) this.openStore = null;
  }

  close(): Promise<void> {
    return this.serial(async () => {
      this.openStore?.abort();
      this.openStore = null;
      this.version = -1;
      await this.closeLive();
    });
  }

  protected providerMetrics(): Record<string, number> {
    return { loadedMapCacheHitCount: this.cacheHits, loadedMapCacheMissCount: this.cacheMisses };
  }
}

export abstract class FileBackedProvider extends VersionedProvider<OpenStore> implements StateStoreProvider {
  protected readonly files: StateFiles | null;

  constructor(
    /** `<ckpt>/state/<op>/<partition>[/<store>]`, or null for no files. */
    readonly dir: string | null,
    protected readonly opts: ProviderOptions,
  ) {
    super();
    this.files = dir ? new StateFiles(dir, opts.fs ?? nodeStateFs) : null;
  }

  /** Which files rebuild `version`, checked against what the commit log says exists. */
  protected plan(version: number): Promise<LoadPlan> {
    const files = this.files!;
    return files.plan(version, this.opts.requiredHead?.(files.dir, version) ?? 0);
  }

  /** The committed live state, for a snapshot. */
  protected abstract snapshotRecords(): Iterable<StateRecord>;

  /** @internal The store's commit: files first (supersede stale ones, write the delta). */
  protected async writeDelta(newVersion: number, records: StateRecord[]): Promise<void> {
    this.lastCommitFileBytes = 0;
    if (!this.files) return;
    await this.files.supersede(newVersion);
    if (records.length > 0) {
      await this.files.write(newVersion, "delta", records);
      this.lastCommitFileBytes = this.files.lastWriteBytes;
      this.opts.onDeltaWritten?.(this.files.dir, newVersion);
    }
  }

  /** @internal called by a store's abort */
  releaseStore(store: OpenStore): void {
    this.released(store);
  }

  doMaintenance(): Promise<void> {
    return this.serial(async () => {
      const files = this.files;
      if (!files || this.version <= 0) return;
      await files.scan();
      const busy = this.openStore?.hasChanges() ?? false;
      if (snapshotDue(files, this.version, busy, this.opts.minDeltasForSnapshot)) {
        const v = this.version;
        await files.write(v, "snapshot", this.snapshotRecords(), { afterFirstChunk: () => crashPoint("insideStateSnapshot", v - 1) });
      }
      await files.retain(this.version, this.opts.minBatchesToRetain);
    });
  }
}
