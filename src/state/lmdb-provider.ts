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
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  promises as fsp,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir, uptime } from "node:os";
import path from "node:path";
import type { Database, RootDatabase } from "lmdb";
import { decodeKeyField, decodeValue, encodeKeyField, encodeValue, isWellFormed, type StateRecord, valuePackr } from "./codec.js";
import { FileBackedProvider, type OpenStore, type ProviderOptions, StateStoreClosedError } from "./provider-base.js";
import { sampledEntryBytes } from "./size.js";
import type { StateRow, StateStoreMetrics } from "./store.js";

type LmdbModule = typeof import("lmdb");
let lmdbModule: LmdbModule | null = null;

async function loadLmdb(): Promise<LmdbModule> {
  if (lmdbModule) return lmdbModule;
  try {
    lmdbModule = (await import("lmdb")) as LmdbModule;
    return lmdbModule;
  } catch (e) {
    throw new Error(
      `The lmdb state store provider needs the 'lmdb' package (npm i -E lmdb@3.5.6), which could not be loaded: ${(e as Error).message}. ` +
        "Use spark.sql.streaming.stateStore.providerClass=arus.state.MemoryStateStoreProvider otherwise.",
    );
  }
}

export interface LmdbProviderOptions extends ProviderOptions {
  /** Where the lmdb environment lives; default `<dir>/lmdb`, or a temp dir without a checkpoint. */
  lmdbDir?: string;
}

interface Meta {
  /** 1 */
  format: number;
  /** Committed version held; -1 while a rebuild is in progress. */
  version: number;
  /** The newest state file reflected (version 0 = none). */
  lastFile: { version: number; fileId: string };
  count: number;
}

const META_KEY = "state";
/** Keys up to this many UTF-16 units fit lmdb's 1978-byte key limit whatever their chars. */
const SAFE_KEY_UNITS = 600;
const MAX_KEY_BYTES = 1900;

/** Identifies this boot of the machine: lmdb runs with noSync, so after an OS crash its files may be torn. */
function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return `boot-${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  }
}

const MARKER = "arus-cache.json";
const LMDB_MAGIC = 0xbeefc0de;

/**
 * Whether an existing environment may be opened: lmdb trusts its files (a torn or foreign
 * data.mdb can crash the process), so open only files that carry lmdb's meta magic and were
 * written since this boot (the noSync writes of an earlier boot may not all be on disk).
 */
function cacheUsable(envPath: string): boolean {
  const data = path.join(envPath, "data.mdb");
  if (!existsSync(data)) return true;
  try {
    const marker = JSON.parse(readFileSync(path.join(envPath, MARKER), "utf8")) as { bootId?: string };
    if (marker.bootId !== bootId()) return false;
    if (statSync(data).size < 8192) return false;
    const fd = openSync(data, "r");
    try {
      const head = Buffer.alloc(28);
      readSync(fd, head, 0, 28, 0);
      return head.readUInt32LE(24) === LMDB_MAGIC;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function writeMarker(envPath: string): void {
  const fd = openSync(path.join(envPath, MARKER), "w");
  try {
    writeSync(fd, JSON.stringify({ bootId: bootId(), note: "arus lmdb state cache; safe to delete, rebuilt from the checkpoint files" }));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function isSpecialKey(k: string): boolean {
  if (k.length === 0) return true;
  if (k.length > SAFE_KEY_UNITS && Buffer.byteLength(k, "utf8") > MAX_KEY_BYTES) return true;
  return !isWellFormed(k);
}
function specialId(k: string): string {
  return createHash("sha256").update(k, "utf16le").digest("base64");
}

export class LmdbStateStoreProvider extends FileBackedProvider {
  private env: RootDatabase | null = null;
  private main!: Database<Buffer, string>;
  private special!: Database<Buffer, string>;
  private metaDb!: Database<Meta, string>;
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
    if (this.env) return;
    const { open } = await loadLmdb();
    if (!this.envPath) {
      if (this.lopts.lmdbDir) this.envPath = this.lopts.lmdbDir;
      else if (this.dir) this.envPath = path.join(this.dir, "lmdb");
      else {
        this.envPath = mkdtempSync(path.join(tmpdir(), "arus-lmdb-"));
        this.tempEnv = true;
      }
    }
    if (!cacheUsable(this.envPath)) rmSync(this.envPath, { recursive: true, force: true });
    await fsp.mkdir(this.envPath, { recursive: true });
    writeMarker(this.envPath);
    const openAll = () => {
      const env = open({ path: this.envPath!, maxDbs: 4, noSync: true, compression: false, encoding: "binary" });
      this.main = env.openDB<Buffer, string>({ name: "main", encoding: "binary" });
      this.special = env.openDB<Buffer, string>({ name: "special", encoding: "binary" });
      this.metaDb = env.openDB<Meta, string>({ name: "meta", encoding: "json" });
      return env;
    };
    try {
      this.env = openAll();
      this.metaDb.get(META_KEY);
    } catch {
      // A damaged cache: wipe and start over; the checkpoint files are the truth.
      await this.env?.close().catch(() => {});
      this.env = null;
      rmSync(this.envPath, { recursive: true, force: true });
      await fsp.mkdir(this.envPath, { recursive: true });
      writeMarker(this.envPath);
      this.env = openAll();
    }
  }

  private readMeta(): Meta | null {
    try {
      const m = this.metaDb.get(META_KEY);
      return m && m.format === 1 && Number.isInteger(m.version) ? m : null;
    } catch {
      return null;
    }
  }

  private putMeta(m: Meta): void {
    this.metaDb.putSync(META_KEY, m);
  }

  // ----------------------------------------------------------------------------------------
  // reads (the committed state)

  /** @internal */
  baseGet(k: string): StateRow | undefined {
    if (isSpecialKey(k)) {
      const b = this.special.getBinaryFast(specialId(k));
      if (b === undefined) return undefined;
      const [key, row] = valuePackr.unpack(b) as [unknown, StateRow];
      return decodeKeyField(key) === k ? row : undefined;
    }
    const b = this.main.getBinaryFast(k);
    return b === undefined ? undefined : decodeValue(b);
  }

  /** @internal committed entries, main table in key order, then the special keys */
  *baseEntries(prefix: string): Generator<[string, StateRow]> {
    const range = prefix === "" ? this.main.getRange({}) : this.main.getRange({ start: prefix });
    for (const { key, value } of range) {
      if (prefix !== "" && !key.startsWith(prefix)) break;
      yield [key, decodeValue(value)];
    }
    for (const { value } of this.special.getRange({})) {
      const [field, row] = valuePackr.unpack(value) as [unknown, StateRow];
      const key = decodeKeyField(field)!;
      if (key.startsWith(prefix)) yield [key, row];
    }
  }

  /** @internal */
  get baseCount(): number {
    return this.count;
  }

  // ----------------------------------------------------------------------------------------
  // writes

  private applyRecords(records: Iterable<StateRecord>): void {
    for (const [k, v] of records) {
      if (isSpecialKey(k)) {
        const id = specialId(k);
        if (v === null) this.special.removeSync(id);
        else this.special.putSync(id, valuePackr.pack([encodeKeyField(k), v]));
      } else if (v === null) this.main.removeSync(k);
      else this.main.putSync(k, encodeValue(v));
    }
  }

  private countAll(): number {
    const n = (db: Database<Buffer, string>) => (db.getStats() as { entryCount: number }).entryCount;
    return n(this.main) + n(this.special);
  }

  /** Apply whole files to lmdb, a transaction per chunk; the version is set by the caller. */
  private async replay(kind: "snapshot" | "delta", version: number): Promise<void> {
    for await (const chunk of this.files!.read(version, kind)) {
      this.env!.transactionSync(() => this.applyRecords(chunk));
    }
  }

  /** Does lmdb's state at `u` belong to the history the files describe? */
  private async lineageOk(meta: Meta, u: number): Promise<boolean> {
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
    const env = this.env!;
    const meta = this.readMeta();
    const clear = () => {
      env.transactionSync(() => {
        this.main.clearSync();
        this.special.clearSync();
      });
    };
    if (version === 0 || !this.files) {
      if (version > 0 && hadState && meta?.version !== version) {
        throw new Error(`state version ${version} is not available: there is no checkpoint location to load it from`);
      }
      if (!(meta && meta.version === version && version > 0)) {
        clear();
        this.putMeta({ format: 1, version, lastFile: { version: 0, fileId: "" }, count: 0 });
      }
      this.count = this.countAll();
      this.lastFile = { version: 0, fileId: "" };
      this.version = version;
      return;
    }
    const plan = await this.plan(version);
    const u = meta?.version ?? -1;
    if (meta && u === version && (await this.lineageOk(meta, u))) {
      this.count = meta.count;
    } else {
      this.putMeta({ format: 1, version: -1, lastFile: { version: 0, fileId: "" }, count: 0 });
      if (meta && u >= 0 && u < version && plan.snapshot <= u && (await this.lineageOk(meta, u))) {
        this.catchUps++;
        for (const d of plan.deltas) if (d > u) await this.replay("delta", d);
      } else {
        this.rebuilds++;
        clear();
        if (plan.snapshot > 0) await this.replay("snapshot", plan.snapshot);
        for (const d of plan.deltas) await this.replay("delta", d);
      }
      this.count = this.countAll();
      this.putMeta({ format: 1, version, lastFile: plan.head, count: this.count });
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
        this.env!.transactionSync(() => {
          this.applyRecords(records);
          this.putMeta({ format: 1, version: next, lastFile, count: newCount });
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
    let dataBytes = 0;
    if (this.env) {
      for (const db of [this.main, this.special]) {
        const s = db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
        dataBytes += s.pageSize * (s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages);
      }
    }
    return dataBytes;
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
    const env = this.env;
    this.env = null;
    if (env) await env.close();
    if (this.tempEnv && this.envPath) {
      rmSync(this.envPath, { recursive: true, force: true });
      this.envPath = null;
      this.tempEnv = false;
    }
  }
}

const OPEN = 0;
const COMMITTED = 1;
const ABORTED = 2;

/**
 * One batch's view: changes stay in a JS Map (null = removed) over the committed lmdb state
 * until commit; abort just drops them.
 */
class LmdbStateStore implements OpenStore {
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
