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
import { encodeStateFile, type StateRecord } from "./codec.js";
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
 * The version maintenance should snapshot the live state of `version` as (0: none), given
 * `files` (scanned by the caller): the newest file's version, which holds the same state when
 * the batches after it changed nothing here (they write no delta). Not `version` itself: the
 * snapshot is written beside the next batch, whose delta names the newest file as its `prev`
 * before the snapshot exists, and a snapshot at a version of its own would break that chain.
 * None when a newer file exists (this provider is behind), a batch is writing (`busy`), that
 * version has a snapshot, or fewer than `minDeltasForSnapshot` deltas were written since the last.
 */
export function snapshotVersion(files: StateFiles, version: number, busy: boolean, minDeltasForSnapshot: number): number {
  const head = files.latestFileVersion(Number.MAX_SAFE_INTEGER);
  const due =
    head > 0 &&
    head <= version &&
    !busy &&
    !files.snapshotVersions().includes(head) &&
    files.deltasSinceSnapshot(head) >= Math.max(1, minDeltasForSnapshot);
  return due ? head : 0;
}

export abstract class VersionedProvider<S extends ProviderStore> {
  /** Version of the committed live state; -1 = nothing loaded. */
  protected version = -1;
  protected openStore: S | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  protected cacheHits = 0;
  protected cacheMisses = 0;
  protected lastCommitFileBytes = 0;

  /** The files half of the last maintenance (snapshot write, retention), beside the batches. */
  private maintenanceFiles: Promise<void> = Promise.resolve();
  private maintenanceError: { error: unknown } | null = null;

  /** Run async steps one after another (commit, load, maintenance never interleave). */
  protected serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Maintenance in two halves, as Spark's maintenance thread runs beside the batches: `capture`
   * runs in the serial queue (no batch changes the live state meanwhile) and encodes what it
   * will write into memory; the files half it returns (write the snapshot, retention) then runs
   * beside the next batch. Resolves once captured. One files half at a time: the next
   * maintenance waits for the last one and throws its error, if it failed.
   */
  protected maintain(capture: () => Promise<(() => Promise<void>) | null>): Promise<void> {
    return this.serial(async () => {
      await this.settleMaintenance();
      const files = await capture();
      if (!files) return;
      this.maintenanceFiles = files().catch((error: unknown) => {
        this.maintenanceError = { error };
      });
    });
  }

  /** Snapshot and retention, both halves done when this resolves. */
  async doMaintenance(): Promise<void> {
    await this.startMaintenance();
    await this.serial(() => this.settleMaintenance());
  }

  /** Snapshot and retention: resolves once the state is captured; the files are written beside the next batch. */
  startMaintenance(): Promise<void> {
    return this.maintain(() => this.captureMaintenance());
  }

  /** The maintenance of the live version: null when there is nothing to write or delete. */
  protected abstract captureMaintenance(): Promise<(() => Promise<void>) | null>;

  /** Wait for the last maintenance's files half; throw its error once. */
  protected async settleMaintenance(): Promise<void> {
    await this.maintenanceFiles;
    const failed = this.maintenanceError;
    this.maintenanceError = null;
    if (failed) throw failed.error;
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
        await this.maintenanceFiles; // the files a load reads are not being written or deleted
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

  /** Close; a failed files half of the last maintenance is thrown once the live state is dropped. */
  close(): Promise<void> {
    return this.serial(async () => {
      this.openStore?.abort();
      this.openStore = null;
      this.version = -1;
      try {
        await this.settleMaintenance();
      } finally {
        await this.closeLive();
      }
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

  protected async captureMaintenance(): Promise<(() => Promise<void>) | null> {
    const files = this.files;
    if (!files || this.version <= 0) return null;
    const v = this.version;
    await files.scan();
    await files.sweepTemps();
    const busy = this.openStore?.hasChanges() ?? false;
    const at = snapshotVersion(files, v, busy, this.opts.minDeltasForSnapshot);
    const snapshot =
      at > 0
        ? await files.encodeForLater(at, "snapshot", (prev, fileId) =>
            encodeStateFile("snapshot", at, prev, fileId, this.snapshotRecords()),
          )
        : null;
    return async () => {
      await snapshot?.({ afterFirstChunk: () => crashPoint("insideStateSnapshot", v - 1) });
      await files.retain(v, this.opts.minBatchesToRetain);
    };
  }
}
