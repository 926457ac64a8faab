/**
 * The default state store provider (Spark's HDFSBackedStateStoreProvider): the live map is in
 * memory; every commit writes `<version>.delta` (puts and removes), and every
 * `minDeltasForSnapshot` versions a `<version>.snapshot` with the whole map. Loading version v
 * reads the newest snapshot <= v and replays the deltas after it. Files are msgpack with a
 * format header; writes are atomic. Without a checkpoint directory nothing is written.
 */
import path from "node:path";
import { Packr } from "msgpackr";
import { crashPoint } from "../common/crash-points.js";
import { type CheckpointFs, nodeFs, writeAtomic } from "../checkpoint/atomic-file.js";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import type { StateRow, StateStore, StateStoreProvider } from "./store.js";

const MAGIC = "arus-state";
const FORMAT_VERSION = 1;
// structuredClone keeps Map (MAP values) and plain objects (STRUCT values) apart.
const packr = new Packr({ moreTypes: true, structuredClone: true });

interface StateFile {
  magic: string;
  format: number;
  puts: [string, StateRow][];
  removes: string[];
}

export function estimateBytes(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === "number" || typeof v === "boolean") return 8;
  if (typeof v === "string") return 2 * v.length + 8;
  if (v instanceof Uint8Array) return v.length + 8;
  if (Array.isArray(v)) {
    let n = 16;
    for (const x of v) n += estimateBytes(x);
    return n;
  }
  if (v instanceof Map) {
    let n = 16;
    for (const [k, x] of v) n += estimateBytes(k) + estimateBytes(x);
    return n;
  }
  let n = 16;
  for (const x of Object.values(v as object)) n += estimateBytes(x) + 8;
  return n;
}

export interface ProviderOptions {
  minDeltasForSnapshot: number;
  minBatchesToRetain: number;
  fs?: CheckpointFs;
}

export class MemoryStateStoreProvider implements StateStoreProvider {
  private map = new Map<string, StateRow>();
  private version = -1;
  private bytes = 0;
  private readonly fsys: CheckpointFs;

  constructor(
    /** `<ckpt>/state/<op>/<partition>[/<store>]`, or null for no files. */
    readonly dir: string | null,
    private readonly opts: ProviderOptions,
  ) {
    this.fsys = opts.fs ?? nodeFs;
  }

  async getStore(version: number): Promise<StateStore> {
    if (version !== this.version) await this.load(version);
    return new MemoryStateStore(this, version);
  }

  /** @internal */
  liveMap(): Map<string, StateRow> {
    return this.map;
  }
  /** @internal */
  addBytes(n: number): void {
    this.bytes += n;
  }
  /** @internal */
  get memoryUsedBytes(): number {
    return this.bytes;
  }

  /** @internal called by the store's commit */
  async commitVersion(newVersion: number, puts: Map<string, StateRow>, removes: Set<string>): Promise<void> {
    // Unchanged partitions write nothing (Spark writes an empty delta per partition per batch:
    // 200 tiny files per operator per batch by default); a missing delta means "no changes".
    if (this.dir && (puts.size > 0 || removes.size > 0)) {
      const delta: StateFile = { magic: MAGIC, format: FORMAT_VERSION, puts: [...puts], removes: [...removes] };
      await writeAtomic(this.fsys, path.join(this.dir, `${newVersion}.delta`), packr.pack(delta), true);
    }
    this.version = newVersion;
  }

  private async load(version: number): Promise<void> {
    this.map = new Map();
    this.bytes = 0;
    this.version = version;
    if (version === 0 || !this.dir) return;
    const files = await this.fsys.readdir(this.dir);
    const snapshots = files
      .map((f) => /^(\d+)\.snapshot$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .filter((v) => v <= version)
      .sort((a, b) => b - a);
    const base = snapshots[0] ?? 0;
    if (base > 0) this.apply(await this.readFile(path.join(this.dir, `${base}.snapshot`)));
    for (let v = base + 1; v <= version; v++) {
      const f = path.join(this.dir, `${v}.delta`);
      if (await this.fsys.exists(f)) this.apply(await this.readFile(f));
    }
  }

  private apply(file: StateFile): void {
    for (const [k, row] of file.puts) {
      const old = this.map.get(k);
      if (old) this.bytes -= estimateBytes(k) + estimateBytes(old);
      this.map.set(k, row);
      this.bytes += estimateBytes(k) + estimateBytes(row);
    }
    for (const k of file.removes) {
      const old = this.map.get(k);
      if (old) this.bytes -= estimateBytes(k) + estimateBytes(old);
      this.map.delete(k);
    }
  }

  private async readFile(f: string): Promise<StateFile> {
    const buf = await this.fsys.readFile(f);
    if (buf.length === 0) throw new CheckpointCorruptError(f, "the file is empty");
    let file: StateFile;
    try {
      file = packr.unpack(buf) as StateFile;
    } catch (e) {
      throw new CheckpointCorruptError(f, `it is not a readable state file (${(e as Error).message})`);
    }
    if (!file || file.magic !== MAGIC) throw new CheckpointCorruptError(f, "it is not an arus state file");
    if (file.format > FORMAT_VERSION) {
      throw new CheckpointCorruptError(f, `it was written by a newer state format (v${file.format}; this arus reads up to v${FORMAT_VERSION})`);
    }
    return file;
  }

  async doMaintenance(): Promise<void> {
    if (!this.dir || this.version <= 0) return;
    const files = await this.fsys.readdir(this.dir);
    const snaps = files.map((f) => /^(\d+)\.snapshot$/.exec(f)).filter((m) => m).map((m) => Number(m![1]));
    const lastSnap = Math.max(0, ...snaps);
    if (this.version - lastSnap >= this.opts.minDeltasForSnapshot) {
      const snap: StateFile = { magic: MAGIC, format: FORMAT_VERSION, puts: [...this.map], removes: [] };
      crashPoint("insideStateSnapshot", this.version - 1);
      await writeAtomic(this.fsys, path.join(this.dir, `${this.version}.snapshot`), packr.pack(snap), true);
    }
    // Keep what rebuilds versions >= latest - minBatchesToRetain.
    const oldest = this.version - this.opts.minBatchesToRetain;
    const allSnaps = (await this.fsys.readdir(this.dir)).map((f) => /^(\d+)\.snapshot$/.exec(f)).filter((m) => m).map((m) => Number(m![1]));
    const baseSnap = Math.max(0, ...allSnaps.filter((s) => s <= oldest));
    if (baseSnap === 0) return;
    for (const f of await this.fsys.readdir(this.dir)) {
      const m = /^(\d+)\.(delta|snapshot)$/.exec(f);
      if (m && Number(m[1]) < baseSnap) await this.fsys.unlink(path.join(this.dir, f)).catch(() => {});
    }
  }

  async close(): Promise<void> {
    this.map = new Map();
    this.version = -1;
  }
}

/** One batch's view: changes apply to the live map at once and are undone on abort. */
class MemoryStateStore implements StateStore {
  private readonly puts = new Map<string, StateRow>();
  private readonly removes = new Set<string>();
  private readonly undo = new Map<string, StateRow | undefined>();
  private done = false;

  constructor(
    private readonly provider: MemoryStateStoreProvider,
    readonly version: number,
  ) {}

  private get map(): Map<string, StateRow> {
    return this.provider.liveMap();
  }
  get(key: string): StateRow | undefined {
    return this.map.get(key);
  }
  put(key: string, value: StateRow): void {
    const old = this.map.get(key);
    if (!this.undo.has(key)) this.undo.set(key, old);
    if (old) this.provider.addBytes(-(estimateBytes(key) + estimateBytes(old)));
    this.map.set(key, value);
    this.provider.addBytes(estimateBytes(key) + estimateBytes(value));
    this.puts.set(key, value);
    this.removes.delete(key);
  }
  remove(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    if (!this.undo.has(key)) this.undo.set(key, old);
    this.provider.addBytes(-(estimateBytes(key) + estimateBytes(old)));
    this.map.delete(key);
    this.puts.delete(key);
    this.removes.add(key);
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
    if (this.done) throw new Error("state store already committed or aborted");
    try {
      await this.provider.commitVersion(this.version + 1, this.puts, this.removes);
    } catch (e) {
      // A failed write leaves no new version: undo so the next load of this version is exact.
      this.abort();
      throw e;
    }
    this.done = true;
    return this.version + 1;
  }
  abort(): void {
    if (this.done) return;
    this.done = true;
    for (const [k, old] of this.undo) {
      const cur = this.map.get(k);
      if (cur) this.provider.addBytes(-(estimateBytes(k) + estimateBytes(cur)));
      if (old === undefined) this.map.delete(k);
      else {
        this.map.set(k, old);
        this.provider.addBytes(estimateBytes(k) + estimateBytes(old));
      }
    }
  }
  memoryUsedBytes(): number {
    return this.provider.memoryUsedBytes;
  }
}
