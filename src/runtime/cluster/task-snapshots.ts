/**
 * Local snapshots of group-mode tasks: what bounds a restore (Kafka Streams' state directory and
 * `.checkpoint` file). A snapshot of task p holds p's committed state as changelog puts and the
 * changelog offset it covers: the state equals a replay of changelog partition p up to that
 * offset. A new owner loads it and replays only the tail from there (task-restore.ts). It is a
 * statement about the changelog, not about a worker, so any worker's snapshot of p is correct
 * for any later owner on the same machine; the changelog stays the truth, the files a cache.
 *
 * File `<dir>/task-<p>.snap`, written to a temp file, fsynced and renamed over the old one:
 *   "ARUSSNP1" | u32 header length | header JSON | entries (u32 key length, key, u32 value
 *   length, value)... | sha256 of everything before
 * The header names the group, changelog topic, task count and pipeline fingerprint (a snapshot
 * of another pipeline or partitioning is ignored), the offset covered and a witness: the offset
 * and hash of the last changelog record the state folds in, to catch a recreated changelog.
 *
 * When: once a task has written max(snapshotInterval, its key count) changelog records since its
 * last snapshot (a restore's replay counts), so writing snapshots costs O(1) per change and a
 * restore replays at most that many records after loading the state; and when a task is revoked
 * or the worker stops cleanly. With `remote` (arus.cluster.publishSnapshots) each snapshot is
 * also published to the group's snapshot topic (snapshot-topic.ts), for other machines.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { OutRecord } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import type { SnapshotTopic } from "./snapshot-topic.js";
import type { TaskState } from "./task-state.js";

const MAGIC = Buffer.from("ARUSSNP1", "ascii");
const DIGEST = 32;
/** A temp file this old is a crashed writer's (a live one renames within seconds). */
const STALE_TEMP_MS = 10 * 60 * 1000;

export interface SnapshotIdentity {
  readonly group: string;
  readonly changelog: string;
  readonly tasks: number;
  readonly fingerprint: string;
}

/** The last changelog record a state folds in: its offset and a hash of its key and value. */
export interface Witness {
  readonly offset: number;
  readonly hash: string;
}

export interface SnapshotHeader extends SnapshotIdentity {
  readonly format: 1;
  readonly partition: number;
  /** The state = a replay of the changelog partition's records below this offset. */
  readonly offset: number;
  readonly witness: Witness | null;
  /** When the state reached `offset`: a tombstone after it is younger (the age check's start). */
  readonly coveredAtMs: number;
  readonly writtenAtMs: number;
  readonly entries: number;
}

export interface SnapshotEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

export function witnessOf(offset: number, key: Uint8Array | null, value: Uint8Array | null): Witness {
  const h = createHash("sha256");
  for (const part of [key, value]) {
    const len = Buffer.alloc(5);
    if (part === null) len.writeUInt8(0, 0);
    else {
      len.writeUInt8(1, 0);
      len.writeUInt32BE(part.byteLength, 1);
    }
    h.update(len);
    if (part) h.update(part);
  }
  return { offset, hash: h.digest("hex").slice(0, 32) };
}

/** The snapshot file's bytes: one buffer, filled in one pass (no allocation per entry). */
export function encodeSnapshot(header: SnapshotHeader, entries: readonly SnapshotEntry[]): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  let size = MAGIC.length + 4 + json.length + DIGEST;
  for (const e of entries) size += 8 + e.key.byteLength + e.value.byteLength;
  const buf = Buffer.allocUnsafe(size);
  MAGIC.copy(buf, 0);
  buf.writeUInt32BE(json.length, MAGIC.length);
  let at = MAGIC.length + 4;
  at += json.copy(buf, at);
  for (const e of entries) {
    buf.writeUInt32BE(e.key.byteLength, at);
    buf.set(e.key, at + 4);
    at += 4 + e.key.byteLength;
    buf.writeUInt32BE(e.value.byteLength, at);
    buf.set(e.value, at + 4);
    at += 4 + e.value.byteLength;
  }
  createHash("sha256").update(buf.subarray(0, at)).digest().copy(buf, at);
  return buf;
}

/** A snapshot file's header and entries; throws, naming the file and what is wrong, when it is damaged. */
export function decodeSnapshot(buf: Buffer, where: string): { header: SnapshotHeader; entries: SnapshotEntry[] } {
  const bad = (why: string) => new Error(`task snapshot ${where}: ${why}`);
  if (buf.length < MAGIC.length + 4 + DIGEST || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw bad("not a snapshot file");
  const body = buf.subarray(0, buf.length - DIGEST);
  if (
    !createHash("sha256")
      .update(body)
      .digest()
      .equals(buf.subarray(buf.length - DIGEST))
  )
    throw bad("checksum mismatch (torn or damaged)");
  const jsonLen = body.readUInt32BE(MAGIC.length);
  let at = MAGIC.length + 4;
  const header = JSON.parse(body.subarray(at, at + jsonLen).toString("utf8")) as SnapshotHeader;
  if (header.format !== 1) throw bad(`unknown format ${String(header.format)}`);
  at += jsonLen;
  const entries: SnapshotEntry[] = [];
  while (at < body.length) {
    const kl = body.readUInt32BE(at);
    const key = body.subarray(at + 4, at + 4 + kl);
    at += 4 + kl;
    const vl = body.readUInt32BE(at);
    entries.push({ key, value: body.subarray(at + 4, at + 4 + vl) });
    at += 4 + vl;
  }
  if (at !== body.length || entries.length !== header.entries)
    throw bad(`holds ${entries.length} entries, its header says ${header.entries}`);
  return { header, entries };
}

export type LoadedSnapshot = { header: SnapshotHeader; entries: SnapshotEntry[] };

export interface SnapshotOptions {
  readonly dir: string;
  /** Also publish every snapshot to Kafka, and look there at restore (arus.cluster.publishSnapshots). */
  readonly remote?: SnapshotTopic | null;
  /** Changelog records between two snapshots of a task (at least its key count); 0: no snapshots. */
  readonly interval: number;
  readonly maxAgeMs: number;
}

/** What a task's state covers of its changelog partition, and how much since its last snapshot. */
interface Coverage {
  offset: number;
  witness: Witness | null;
  coveredAtMs: number;
  since: number;
}

export class TaskSnapshots {
  private readonly coverage = new Map<number, Coverage>();
  private ready: Promise<void> | null = null;
  /** Snapshots written since this worker started (tests and the bench read it). */
  written = 0;
  /** The last snapshot that could not be written (a cache: the worker goes on without it). */
  lastError: Error | null = null;

  constructor(
    readonly options: SnapshotOptions,
    private readonly identity: SnapshotIdentity,
  ) {}

  get enabled(): boolean {
    return this.options.interval > 0;
  }

  file(partition: number): string {
    return path.join(this.options.dir, `task-${partition}.snap`);
  }

  /**
   * The directory exists; temp files of crashed writers removed, and snapshots older than the
   * age limit (written before it, so covering a state older still: never loaded again), so a
   * directory that outlived its tasks (a worker moved, a task count changed) does not keep them.
   */
  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.options.dir, { recursive: true });
      for (const name of await readdir(this.options.dir)) {
        const limit = name.endsWith(".tmp") ? STALE_TEMP_MS : /^task-\d+\.snap$/.test(name) ? this.options.maxAgeMs : null;
        if (limit === null) continue;
        const f = path.join(this.options.dir, name);
        const s = await stat(f).catch(() => null);
        if (s && Date.now() - s.mtimeMs > limit) await unlink(f).catch(() => {});
      }
    })();
    return this.ready;
  }

  /**
   * Task p's local snapshot, if there is one for this group, changelog, task count and
   * pipeline; `ignored` says why a file there cannot be used. Checking it against the changelog
   * (offsets, witness) is the restore's part.
   */
  async load(partition: number): Promise<LoadedSnapshot | { ignored: string } | null> {
    if (!this.enabled) return null;
    const f = this.file(partition);
    let buf: Buffer;
    try {
      buf = await readFile(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      return { ignored: `unreadable: ${(e as Error).message}` };
    }
    return this.check(buf, f, partition);
  }

  /**
   * Task p's snapshot published to Kafka (arus.cluster.publishSnapshots), when there is one
   * covering more than `offset` (the local snapshot's); null when there is none or publishing
   * is off.
   */
  async loadPublished(partition: number, offset: number): Promise<LoadedSnapshot | { ignored: string } | null> {
    if (!this.enabled || !this.options.remote) return null;
    const where = `${this.options.remote.topic}-${partition}`;
    const found = await this.options.remote.latest(partition);
    if (!found || found.manifest.offset <= offset) return null;
    const buf = await found.download();
    if (!buf) return { ignored: `${where}: its last upload is incomplete (interleaved, cut short or compacted)` };
    return this.check(buf, where, partition);
  }

  private check(buf: Buffer, where: string, partition: number): LoadedSnapshot | { ignored: string } {
    let snap: LoadedSnapshot;
    try {
      snap = decodeSnapshot(buf, where);
    } catch (e) {
      return { ignored: (e as Error).message };
    }
    const h = snap.header;
    const id = this.identity;
    if (h.group !== id.group || h.changelog !== id.changelog || h.partition !== partition) return { ignored: `${where} is another task's` };
    if (h.tasks !== id.tasks) return { ignored: `${where} was taken with ${h.tasks} tasks, the group has ${id.tasks}` };
    if (h.fingerprint !== id.fingerprint) return { ignored: `${where} is another pipeline's` };
    if (Date.now() - h.coveredAtMs > this.options.maxAgeMs) {
      return { ignored: `${where} is older than arus.cluster.snapshotMaxAgeMs (a tombstone after it may be compacted away)` };
    }
    return snap;
  }

  /** A task was restored: its state covers the changelog below `offset` (its end at `coveredAtMs`), `replayed` records since a snapshot. */
  async restored(state: TaskState, offset: number, witness: Witness | null, replayed: number, coveredAtMs = Date.now()): Promise<void> {
    this.coverage.set(state.partition, { offset, witness, coveredAtMs, since: replayed });
    if (this.due(state)) await this.tryWrite(state);
  }

  /**
   * The batch's transaction committed and the tasks' states published: each task that wrote
   * changelog records now covers its partition up to its last one (`sent`: the offsets the
   * transaction's records got, per tpKey).
   */
  async committed(tasks: Iterable<TaskState>, records: readonly OutRecord[], sent: ReadonlyMap<string, number>): Promise<void> {
    const changelog = this.identity.changelog;
    const written = new Map<number, { count: number; last: OutRecord }>();
    for (const r of records) {
      if (r.topic !== changelog || r.partition === null) continue;
      const w = written.get(r.partition);
      if (w) {
        w.count++;
        w.last = r;
      } else written.set(r.partition, { count: 1, last: r });
    }
    for (const state of tasks) {
      const w = written.get(state.partition);
      const cov = this.coverage.get(state.partition);
      if (!w || !cov) continue;
      const last = sent.get(tpKey({ topic: changelog, partition: state.partition }));
      if (last === undefined) {
        // The producer did not say where the records went: this task's coverage is unknown.
        this.coverage.delete(state.partition);
        continue;
      }
      cov.offset = last + 1;
      cov.witness = witnessOf(last, w.last.key, w.last.value);
      cov.coveredAtMs = Date.now();
      cov.since += w.count;
      if (this.due(state)) await this.tryWrite(state);
    }
  }

  /** A clean stop: every task with changes since its last snapshot gets one (the next start replays nothing). */
  async flush(tasks: Iterable<TaskState>): Promise<void> {
    for (const state of tasks) if ((this.coverage.get(state.partition)?.since ?? 0) > 0) await this.tryWrite(state);
  }

  private async tryWrite(state: TaskState): Promise<void> {
    try {
      await this.write(state);
    } catch (e) {
      // A cache: the worker goes on (its restores replay more), but says so once.
      if (!this.lastError) console.warn(`arus group mode: cannot write task snapshots to ${this.options.dir}: ${(e as Error).message}`);
      this.lastError = e as Error;
    }
  }

  async close(): Promise<void> {
    await this.options.remote?.close();
  }

  /** The task left this worker (or its state was dropped): nothing is known of its coverage any more. */
  forget(partition: number): void {
    this.coverage.delete(partition);
  }

  private due(state: TaskState): boolean {
    const cov = this.coverage.get(state.partition);
    return this.enabled && cov !== undefined && cov.since > 0 && cov.since >= Math.max(this.options.interval, state.numKeys);
  }

  /** Task `state`'s committed state as its snapshot, atomically (temp file, fsync, rename). */
  async write(state: TaskState): Promise<void> {
    const cov = this.coverage.get(state.partition);
    if (!this.enabled || !cov) return;
    await this.prepare();
    const entries = [...state.committedRecords()];
    const header: SnapshotHeader = {
      format: 1,
      ...this.identity,
      partition: state.partition,
      offset: cov.offset,
      witness: cov.witness,
      coveredAtMs: cov.coveredAtMs,
      writtenAtMs: Date.now(),
      entries: entries.length,
    };
    const target = this.file(state.partition);
    const temp = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    const bytes = encodeSnapshot(header, entries);
    const fh = await open(temp, "w");
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(temp, target);
    cov.since = 0;
    this.written++;
    await this.options.remote?.publish(state.partition, bytes, header.offset);
  }
}
