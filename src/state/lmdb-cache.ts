/**
 * The lmdb environment the disk-backed provider (lmdb-provider.ts) keeps its committed state in:
 * a cache of the newest committed version, rebuilt from the checkpoint files whenever it cannot
 * be trusted. This module opens it safely and reads and writes its tables.
 *
 * - Opened only when its files carry lmdb's meta magic and were written since this boot (lmdb
 *   runs with noSync, so after an OS crash its pages may be torn), else wiped; an environment
 *   that fails to open is wiped and opened empty.
 * - Tables: `main` (key → encoded row), `special` for keys lmdb cannot hold (longer than its key
 *   limit of 1978 bytes, empty, or not well-formed UTF-16: keyed by their SHA-256, the key stored
 *   next to the value), and `meta` (which version it holds, and which state file it reflects).
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, promises as fsp, fsyncSync, openSync, readFileSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { uptime } from "node:os";
import path from "node:path";
import type { Database, RootDatabase } from "lmdb";
import {
  decodeKeyField,
  decodeValue,
  encodeKeyField,
  encodeValue,
  isWellFormed,
  keepingNegativeZeros,
  type StateRecord,
  valuePackr,
} from "./codec.js";
import type { StateRow } from "./store.js";

type LmdbModule = typeof import("lmdb");
let lmdbModule: LmdbModule | null = null;

/** The lmdb package, loaded on first use (only this provider needs it). */
export async function loadLmdb(): Promise<LmdbModule> {
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

/** What the cache holds, in its `meta` table. */
export interface CacheMeta {
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

export class LmdbCache {
  private constructor(
    private readonly env: RootDatabase,
    private readonly main: Database<Buffer, string>,
    private readonly special: Database<Buffer, string>,
    private readonly metaDb: Database<CacheMeta, string>,
  ) {}

  /** Opens (creating, or wiping first when it cannot be trusted) the environment at `envPath`. */
  static async open(envPath: string): Promise<LmdbCache> {
    const { open } = await loadLmdb();
    if (!cacheUsable(envPath)) rmSync(envPath, { recursive: true, force: true });
    await fsp.mkdir(envPath, { recursive: true });
    writeMarker(envPath);
    const openAll = () => {
      const env = open({ path: envPath, maxDbs: 4, noSync: true, compression: false, encoding: "binary" });
      return new LmdbCache(
        env,
        env.openDB<Buffer, string>({ name: "main", encoding: "binary" }),
        env.openDB<Buffer, string>({ name: "special", encoding: "binary" }),
        env.openDB<CacheMeta, string>({ name: "meta", encoding: "json" }),
      );
    };
    let env: RootDatabase | null = null;
    try {
      const cache = openAll();
      env = cache.env;
      cache.metaDb.get(META_KEY);
      return cache;
    } catch {
      // A damaged cache: wipe and start over; the checkpoint files are the truth.
      await env?.close().catch(() => {});
      rmSync(envPath, { recursive: true, force: true });
      await fsp.mkdir(envPath, { recursive: true });
      writeMarker(envPath);
      return openAll();
    }
  }

  /** The meta record, or null when missing or not understood. */
  readMeta(): CacheMeta | null {
    try {
      const m = this.metaDb.get(META_KEY);
      return m && m.format === 1 && Number.isInteger(m.version) ? m : null;
    } catch {
      return null;
    }
  }

  putMeta(m: CacheMeta): void {
    this.metaDb.putSync(META_KEY, m);
  }

  /** Runs `fn` in one write transaction. */
  transaction(fn: () => void): void {
    this.env.transactionSync(fn);
  }

  get(k: string): StateRow | undefined {
    if (isSpecialKey(k)) {
      const b = this.special.getBinaryFast(specialId(k));
      if (b === undefined) return undefined;
      const [key, row] = valuePackr.unpack(b) as [unknown, StateRow];
      return decodeKeyField(key) === k ? row : undefined;
    }
    const b = this.main.getBinaryFast(k);
    return b === undefined ? undefined : decodeValue(b);
  }

  /** The entries whose key starts with `prefix`: the main table in key order, then the special keys. */
  *entries(prefix: string): Generator<[string, StateRow]> {
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

  /** Puts and removes (value null) the records; call inside transaction() to make them one commit. */
  apply(records: Iterable<StateRecord>): void {
    for (const [k, v] of records) {
      if (isSpecialKey(k)) {
        const id = specialId(k);
        if (v === null) this.special.removeSync(id);
        else this.special.putSync(id, valuePackr.pack([encodeKeyField(k), keepingNegativeZeros(v)]));
      } else if (v === null) this.main.removeSync(k);
      else this.main.putSync(k, encodeValue(v));
    }
  }

  /** Removes every entry (the meta record stays). */
  clear(): void {
    this.env.transactionSync(() => {
      this.main.clearSync();
      this.special.clearSync();
    });
  }

  /** How many entries both tables hold. */
  countAll(): number {
    const n = (db: Database<Buffer, string>) => (db.getStats() as { entryCount: number }).entryCount;
    return n(this.main) + n(this.special);
  }

  /** Bytes of the lmdb map in use: the pages of its trees (what the state holds, memory-mapped). */
  mapBytesInUse(): number {
    let dataBytes = 0;
    for (const db of [this.main, this.special]) {
      const s = db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
      dataBytes += s.pageSize * (s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages);
    }
    return dataBytes;
  }

  close(): Promise<void> {
    return this.env.close();
  }
}
