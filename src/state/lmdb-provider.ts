/**
 * The disk-backed provider (`spark.sql.streaming.stateStore.providerClass =
 * arus.state.LmdbStateStoreProvider`), for state larger than memory: Spark's RocksDB provider
 * with lmdb (design/deps.md §4) in place of RocksDB. Design and measurements: docs/state.md.
 *
 * - The committed state lives in an lmdb environment, by default `<stateDir>/lmdb/` (or
 *   `<lmdbDir>` from the options), one per (operator, partition, store). JS memory holds only
 *   the open batch's changes (an overlay Map): reads look there first, then in lmdb.
 * - The checkpoint is the same as the memory provider's: every commit that changed something
 *   writes `<v>.delta`, maintenance writes snapshots and applies retention (files.ts), in the
 *   same format (codec.ts). The lmdb directory is a cache of the newest committed version: it
 *   can be deleted at any time and is rebuilt from the files, and a checkpoint written by one
 *   provider is read by the other.
 * - Commit order: delta file first (durable, atomic), then one lmdb write transaction that
 *   applies the changes and records the version and the id of the newest file it reflects. A
 *   crash in between leaves lmdb one version behind; the next load replays that delta.
 * - Loading version v: if lmdb already holds v and the file it last saw is still there (same
 *   random file id), use it as is; if it holds an older version u of the same history and no
 *   snapshot lies in (u, v], replay the deltas (u, v]; else clear it and rebuild from the
 *   newest snapshot <= v plus deltas, streaming (bounded memory).
 * - lmdb runs with noSync: durability comes from the fsynced delta files, so lmdb need not
 *   fsync. An environment from an earlier boot (its unsynced pages may be torn by an OS crash),
 *   without lmdb's magic, or that fails to open is wiped and rebuilt. (lmdb trusts its files:
 *   hand-damaged pages can still crash the process; delete the lmdb directory then.)
 * - Keys longer than lmdb's key limit (1978 bytes), empty, or not well-formed UTF-16 go to a
 *   second table keyed by their SHA-256, with the key stored next to the value.
 *
 * This module is the versioning (load, catch up, rebuild, commit); the lmdb environment and its
 * tables are lmdb-cache.ts, a batch's view over them lmdb-store.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { StateRecord } from "./codec.js";
import { type CacheMeta, LmdbCache, loadLmdb } from "./lmdb-cache.js";
import { LmdbStateStore } from "./lmdb-store.js";
import { FileBackedProvider, type OpenStore, type ProviderOptions } from "./provider-base.js";
import { sampledEntryBytes } from "./size.js";
import type { StateRow } from "./store.js";

export interface LmdbProviderOptions extends ProviderOptions {
  /** Where the lmdb environment lives; default `<dir>/lmdb`, or a temp dir without a checkpoint. */
  lmdbDir?: string;
}

export class LmdbStateStoreProvider extends FileBackedProvider {
  private cache: LmdbCache | null = null;
  private envPath: string | null = null;
  private tempEnv = false;
  private count = 0;
  private lastFile = { version: 0, fileId: "" };
  private avgEntry = 0;
  private rebuilds = 0;
  private catchUps = 0;

  constructor(
    dir: string | null,
    private readonly lopts: LmdbProviderOptions,
  ) {
    super(dir, lopts);
  }

  // ----------------------------------------------------------------------------------------
  // environment

  private async openEnv(): Promise<void> {
    if (this.cache) return;
    await loadLmdb(); // first: no temp dir is made when the package is missing
    if (!this.envPath) {
      if (this.lopts.lmdbDir) this.envPath = this.lopts.lmdbDir;
      else if (this.dir) this.envPath = path.join(this.dir, "lmdb");
      else {
        this.envPath = mkdtempSync(path.join(tmpdir(), "arus-lmdb-"));
        this.tempEnv = true;
      }
    }
    this.cache = await LmdbCache.open(this.envPath);
  }

  // ----------------------------------------------------------------------------------------
  // reads (the committed state)

  /** @internal */
  baseGet(k: string): StateRow | undefined {
    return this.cache!.get(k);
  }

  /** @internal committed entries, main table in key order, then the special keys */
  baseEntries(prefix: string): Generator<[string, StateRow]> {
    return this.cache!.entries(prefix);
  }

  /** @internal */
  get baseCount(): number {
    return this.count;
  }

  // ----------------------------------------------------------------------------------------
  // writes

  /** Apply whole files to lmdb, a transaction per chunk; the version is set by the caller. */
  private async replay(kind: "snapshot" | "delta", version: number): Promise<void> {
    for await (const chunk of this.files!.read(version, kind)) {
      const cache = this.cache!;
      cache.transaction(() => cache.apply(chunk));
    }
  }

  /** Does lmdb's state at `u` belong to the history the files describe? */
  private async lineageOk(meta: CacheMeta, u: number): Promise<boolean> {
    const files = this.files!;
    await files.scan();
    const x = files.latestFileVersion(u);
    if (x !== meta.lastFile.version) return false;
    if (x === 0) return true;
    const ids: string[] = [];
    if (files.hasDelta(x)) ids.push((await files.header(x, "delta")).fileId);
    if (files.snapshotVersions().includes(x)) ids.push((await files.header(x, "snapshot")).fileId);
    return ids.includes(meta.lastFile.fileId);
  }

  protected async load(version: number): Promise<void> {
    const hadState = this.version > 0;
    this.version = -1;
    this.avgEntry = 0;
    await this.openEnv();
    const cache = this.cache!;
    const meta = cache.readMeta();
    if (version === 0 || !this.files) {
      if (version > 0 && hadState && meta?.version !== version) {
        throw new Error(`state version ${version} is not available: there is no checkpoint location to load it from`);
      }
      if (!(meta && meta.version === version && version > 0)) {
        cache.clear();
        cache.putMeta({ format: 1, version, lastFile: { version: 0, fileId: "" }, count: 0 });
      }
      this.count = cache.countAll();
      this.lastFile = { version: 0, fileId: "" };
      this.version = version;
      return;
    }
    const plan = await this.plan(version);
    const u = meta?.version ?? -1;
    if (meta && u === version && (await this.lineageOk(meta, u))) {
      this.count = meta.count;
    } else {
      cache.putMeta({ format: 1, version: -1, lastFile: { version: 0, fileId: "" }, count: 0 });
      if (meta && u >= 0 && u < version && plan.snapshot <= u && (await this.lineageOk(meta, u))) {
        this.catchUps++;
        for (const d of plan.deltas) if (d > u) await this.replay("delta", d);
      } else {
        this.rebuilds++;
        cache.clear();
        if (plan.snapshot > 0) await this.replay("snapshot", plan.snapshot);
        for (const d of plan.deltas) await this.replay("delta", d);
      }
      this.count = cache.countAll();
      cache.putMeta({ format: 1, version, lastFile: plan.head, count: this.count });
    }
    this.lastFile = plan.head.version > 0 ? plan.head : { version: 0, fileId: "" };
    this.version = version;
  }

  protected newStore(version: number): OpenStore {
    return new LmdbStateStore(this, version);
  }

  protected *snapshotRecords(): Iterable<StateRecord> {
    yield* this.baseEntries("");
  }

  /** @internal called by the store's commit */
  commitStore(store: LmdbStateStore, records: StateRecord[], newCount: number): Promise<number> {
    return this.serial(async () => {
      this.assertCurrent(store);
      const next = store.version + 1;
      await this.writeDelta(next, records);
      const files = this.files;
      const lastFile = files?.hasDelta(next) ? { version: next, fileId: (await files.header(next, "delta")).fileId } : this.lastFile;
      try {
        const cache = this.cache!;
        cache.transaction(() => {
          cache.apply(records);
          cache.putMeta({ format: 1, version: next, lastFile, count: newCount });
        });
      } catch (e) {
        // The delta is written but lmdb is not updated: forget what we know, reload next time.
        this.version = -1;
        throw e;
      }
      this.count = newCount;
      this.lastFile = lastFile;
      this.version = next;
      this.released(store);
      this.avgEntry = sampledEntryBytes(this.avgEntry, records);
      return next;
    });
  }

  /** @internal JS heap held by a batch's pending changes. */
  pendingBytes(pending: number): number {
    return Math.round(pending * (this.avgEntry || 200));
  }

  /** @internal Bytes of the lmdb map in use: the pages of its trees (what the state holds, memory-mapped). */
  mapBytesInUse(): number {
    return this.cache?.mapBytesInUse() ?? 0;
  }

  /** @internal */
  metricsOf(): Record<string, number> {
    const dataBytes = this.mapBytesInUse();
    return {
      ...this.providerMetrics(),
      lmdbCatchUpCount: this.catchUps,
      lmdbRebuildCount: this.rebuilds,
      lmdbDataBytes: dataBytes,
      lastCommitFileBytes: this.lastCommitFileBytes,
    };
  }

  protected async closeLive(): Promise<void> {
    const cache = this.cache;
    this.cache = null;
    if (cache) await cache.close();
    if (this.tempEnv && this.envPath) {
      rmSync(this.envPath, { recursive: true, force: true });
      this.envPath = null;
      this.tempEnv = false;
    }
  }
}
