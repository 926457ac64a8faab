/**
 * The versioned files of one state store directory (`<ckpt>/state/<op>/<part>[/<store>]`):
 * `<v>.delta` and `<v>.snapshot` (Spark's layout, §7.1/§8.2; the bytes are codec.ts's format).
 * Shared by every provider, so recovery and retention behave the same whatever holds the live
 * state.
 *
 * Rules:
 * - A commit that changed nothing writes no file (Spark writes an empty delta per partition per
 *   batch: 200 tiny files per operator per batch by default). A version without a file is "no
 *   changes"; the `prev` chain in each header (see codec.ts) tells a version without changes
 *   from a file that went missing.
 * - Committing version v first deletes every file of versions >= v: they belong to an attempt
 *   that was never committed (a crash after the delta write, before the batch's commit log), so
 *   neither a stale delta nor a stale snapshot can leak into the new history.
 * - Files are written through a hidden temp file, fsynced, then renamed (§7.4).
 * - Retention keeps every file needed to rebuild versions >= latest - minBatchesToRetain (§7.6).
 *
 * Which files rebuild a version is load-plan.ts; the file system access, state-fs.ts.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import { SPARE_NAME_RE, spareFiles } from "../checkpoint/spare-files.js";
import { withPath } from "../common/errors.js";
import {
  type ByteSource,
  bufferSource,
  encodeStateFile,
  type FileKind,
  newFileId,
  readHeader,
  readStateFile,
  STATE_FORMAT_VERSION,
  type StateFileHeader,
  type StateRecord,
} from "./codec.js";
import { type LoadPlan, planLoad } from "./load-plan.js";
import { nodeStateFs, type StateFs } from "./state-fs.js";

export type { LoadPlan } from "./load-plan.js";
export { nodeStateFs, queryStateFs, type StateFs, unsyncedQueryStateFs, unsyncedStateFs } from "./state-fs.js";

const FILE_RE = /^(\d+)\.(delta|snapshot)$/;
const TEMP_RE = /^\.\d+\.(delta|snapshot)\..+\.tmp$/;

export interface WriteHooks {
  /** Called once the first bytes of the temp file are written (crash-injection point). */
  afterFirstChunk?: () => void;
}

export class StateFiles {
  private scanned = false;
  private readonly deltas = new Set<number>();
  private readonly snapshots = new Set<number>();
  private readonly headers = new Map<string, StateFileHeader>();
  /** Bytes written by the last write (metrics). */
  lastWriteBytes = 0;
  /** The folder was created (or found) by a write of this object: no mkdir per write. */
  private dirReady = false;
  /** Temp files may exist (from an earlier process, or a write here that failed): retain sweeps them. */
  private tempsPossible = true;

  constructor(
    readonly dir: string,
    readonly fs: StateFs = nodeStateFs,
  ) {}

  private name(version: number, kind: FileKind): string {
    return `${version}.${kind}`;
  }
  path(version: number, kind: FileKind): string {
    return path.join(this.dir, this.name(version, kind));
  }

  /** List the directory (once; afterwards this object is the only writer and keeps track). */
  async scan(force = false): Promise<void> {
    if (this.scanned && !force) return;
    this.deltas.clear();
    this.snapshots.clear();
    this.headers.clear();
    for (const f of await this.fs.readdir(this.dir)) {
      const m = FILE_RE.exec(f);
      if (!m) continue;
      (m[2] === "delta" ? this.deltas : this.snapshots).add(Number(m[1]));
    }
    this.scanned = true;
  }

  hasDelta(v: number): boolean {
    return this.deltas.has(v);
  }
  snapshotVersions(): number[] {
    return [...this.snapshots].sort((a, b) => a - b);
  }
  deltaVersions(): number[] {
    return [...this.deltas].sort((a, b) => a - b);
  }
  /** Newest version <= v with a delta or snapshot (0 = none). */
  latestFileVersion(v: number): number {
    let best = 0;
    for (const x of this.deltas) if (x <= v && x > best) best = x;
    for (const x of this.snapshots) if (x <= v && x > best) best = x;
    return best;
  }

  private async source(p: string): Promise<ByteSource> {
    if (this.fs.openRead) {
      try {
        return await this.fs.openRead(p);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT")
          throw new CheckpointCorruptError(p, "the file is missing (it was listed a moment ago)");
        throw e;
      }
    }
    return bufferSource(await this.fs.readFile(p));
  }

  async header(version: number, kind: FileKind): Promise<StateFileHeader> {
    const key = this.name(version, kind);
    const cached = this.headers.get(key);
    if (cached) return cached;
    const p = this.path(version, kind);
    const src = await this.source(p);
    try {
      const h = await readHeader(src, p);
      this.checkHeader(h, version, kind, p);
      this.headers.set(key, h);
      return h;
    } finally {
      await src.close();
    }
  }

  private checkHeader(h: StateFileHeader, version: number, kind: FileKind, p: string): void {
    if (h.format >= 2 && (h.version !== version || h.kind !== kind)) {
      throw new CheckpointCorruptError(
        p,
        `its header says ${h.kind} of version ${h.version}, but the file name says ${kind} of version ${version}`,
      );
    }
  }

  /** Records of one file, a chunk at a time. */
  async *read(version: number, kind: FileKind): AsyncGenerator<StateRecord[]> {
    const p = this.path(version, kind);
    const src = await this.source(p);
    try {
      yield* readStateFile(src, p, (h) => {
        this.checkHeader(h, version, kind, p);
        this.headers.set(this.name(version, kind), h);
      });
    } finally {
      await src.close();
    }
  }

  /** Which files rebuild `version` (load-plan.ts): the newest snapshot <= version, then the deltas after it. */
  plan(version: number, requiredHead = 0): Promise<LoadPlan> {
    return planLoad(this, version, requiredHead);
  }

  /**
   * Make `version` the newest version: delete every file of versions >= it (leftovers of an
   * attempt that was never committed). Called before writing that version's delta.
   */
  async supersede(version: number): Promise<void> {
    await this.scan();
    for (const v of [...this.deltas]) if (v >= version) await this.remove(v, "delta");
    for (const v of [...this.snapshots]) if (v >= version) await this.remove(v, "snapshot");
  }

  private async remove(v: number, kind: FileKind): Promise<void> {
    await this.fs.unlink(this.path(v, kind)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "ENOENT") throw e;
    });
    (kind === "delta" ? this.deltas : this.snapshots).delete(v);
    this.headers.delete(this.name(v, kind));
  }

  /** Write `<version>.<kind>` atomically from the records (streamed when the fs can). */
  write(version: number, kind: FileKind, records: Iterable<StateRecord>, hooks: WriteHooks = {}): Promise<StateFileHeader> {
    return this.writeEncoded(version, kind, (prev, fileId) => encodeStateFile(kind, version, prev, fileId, records), hooks);
  }

  /**
   * Write `<version>.<kind>` atomically from the bytes `encode` produces (header first, then
   * chunks, streamed when the fs can). `encode` gets the file's `prev` and random file id;
   * `format` is the header's format version (2 rows, 3 columnar aggregation state).
   */
  async writeEncoded(
    version: number,
    kind: FileKind,
    encode: (prev: number, fileId: string) => Iterable<Uint8Array>,
    hooks: WriteHooks = {},
    format = STATE_FORMAT_VERSION,
  ): Promise<StateFileHeader> {
    await this.scan();
    const prev = this.latestFileVersion(version - 1);
    const fileId = newFileId();
    return this.writeParts(version, kind, prev, fileId, encode(prev, fileId), hooks, format);
  }

  /**
   * Encode `<version>.<kind>` now, all its bytes in memory, and return the write for later: a
   * snapshot of live state that the next batch goes on to change (maintenance's files half runs
   * beside that batch, provider-base.ts).
   */
  async encodeForLater(
    version: number,
    kind: FileKind,
    encode: (prev: number, fileId: string) => Iterable<Uint8Array>,
    format = STATE_FORMAT_VERSION,
  ): Promise<(hooks?: WriteHooks) => Promise<StateFileHeader>> {
    await this.scan();
    const prev = this.latestFileVersion(version - 1);
    const fileId = newFileId();
    const parts = [...encode(prev, fileId)];
    return (hooks = {}) => this.writeParts(version, kind, prev, fileId, parts, hooks, format);
  }

  private async writeParts(
    version: number,
    kind: FileKind,
    prev: number,
    fileId: string,
    parts: Iterable<Uint8Array>,
    hooks: WriteHooks,
    format: number,
  ): Promise<StateFileHeader> {
    const target = this.path(version, kind);
    if (!this.dirReady) {
      await this.fs.mkdir(this.dir);
      this.dirReady = true;
    }
    const tmp = path.join(this.dir, `.${this.name(version, kind)}.${randomUUID()}.tmp`);
    let bytes = 0;
    try {
      if (this.fs.openWrite) {
        const out = await this.fs.openWrite(tmp);
        try {
          let n = 0;
          for (const b of parts) {
            await out.write(b);
            bytes += b.length;
            if (++n === 2) hooks.afterFirstChunk?.();
          }
          await out.sync();
        } finally {
          await out.close();
        }
      } else {
        const all = [...parts];
        hooks.afterFirstChunk?.();
        const data = Buffer.concat(all);
        bytes = data.length;
        await this.fs.writeFile(tmp, data);
        await this.fs.sync(tmp);
      }
      await this.fs.rename(tmp, target, true);
    } catch (e) {
      this.tempsPossible = true;
      await this.fs.unlink(tmp).catch(() => {});
      throw withPath(e, "write", target);
    }
    this.lastWriteBytes = bytes;
    (kind === "delta" ? this.deltas : this.snapshots).add(version);
    const header: StateFileHeader = { format, kind, version, prev, fileId };
    this.headers.set(this.name(version, kind), header);
    return header;
  }

  /**
   * Read one file with another decoder (the columnar format): `decode` gets the byte source,
   * the path to name in errors, and a callback for the header it parsed (checked against the
   * file name here, as `read` does).
   */
  async *readWith<T>(
    version: number,
    kind: FileKind,
    decode: (src: ByteSource, file: string, onHeader: (h: StateFileHeader) => void) => AsyncGenerator<T>,
  ): AsyncGenerator<T> {
    const p = this.path(version, kind);
    const src = await this.source(p);
    try {
      yield* decode(src, p, (h) => {
        this.checkHeader(h, version, kind, p);
        this.headers.set(this.name(version, kind), h);
      });
    } finally {
      await src.close();
    }
  }

  /**
   * Delete the temp files crashed writes left (listing the folder once: afterwards only a failed
   * write of this object can leave one). Called where no write of this object is in flight:
   * maintenance sweeps when it captures, before its files half runs beside the next batch.
   */
  async sweepTemps(): Promise<number> {
    if (!this.tempsPossible) return 0;
    this.tempsPossible = false;
    let deleted = 0;
    for (const f of await this.fs.readdir(this.dir)) {
      const p = path.join(this.dir, f);
      // a write's temp file, or a spare a crash left (this thread's live ones stay)
      if ((TEMP_RE.test(f) || SPARE_NAME_RE.test(f)) && !spareFiles.holds(p)) {
        await this.fs.unlink(p).catch(() => {});
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * Retention: with `latest` the newest committed version, keep what rebuilds every version
   * >= latest - minBatchesToRetain (the newest snapshot at or below that, and everything
   * after), delete older files (the temp files crashed writes left: `sweepTemps`).
   */
  async retain(latest: number, minBatchesToRetain: number): Promise<number> {
    await this.scan();
    const oldest = latest - minBatchesToRetain;
    let base = 0;
    for (const s of this.snapshots) if (s <= oldest && s > base) base = s;
    if (base === 0) return 0;
    // Side by side (each unlink may wait on the disk's journal); the first failure is thrown
    // once all are done.
    const removals = [
      ...[...this.deltas].filter((v) => v < base).map((v) => this.remove(v, "delta")),
      ...[...this.snapshots].filter((v) => v < base).map((v) => this.remove(v, "snapshot")),
    ];
    const failed = (await Promise.allSettled(removals)).find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return removals.length;
  }

  /** Deltas written after the newest snapshot <= v (how stale the snapshot is). */
  deltasSinceSnapshot(v: number): number {
    let snap = 0;
    for (const s of this.snapshots) if (s <= v && s > snap) snap = s;
    let n = 0;
    for (const d of this.deltas) if (d > snap && d <= v) n++;
    return n;
  }
}
