/**
 * The checkpoint of one query: `metadata` (query id), `offsets/`, `commits/`, `sources/<i>/`,
 * `state/`. Without a checkpointLocation the same logs live in memory for the query's life.
 * Sticky confs (shuffle partitions, watermark policy, ...) are frozen at the first batch and
 * re-applied from the latest offsets entry on restart, as Spark does (checkpoint-metadata.ts,
 * with the query id); one query per checkpoint is checkpoint-lock.ts. This module writes the
 * batches' offsets and commits, in the order that makes them durable, and applies retention.
 */
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import {
  type CheckpointFs,
  checkpointFs,
  discardStaged,
  nodeFs,
  publishStaged,
  type StagedFile,
  stageAtomic,
  syncDirOf,
  syncStaged,
  unsyncedCheckpointFs,
} from "../checkpoint/atomic-file.js";
import { FileMetadataLog, MemoryMetadataLog, type MetadataLog } from "../checkpoint/metadata-log.js";
import {
  type CommitMetadata,
  commitCodec,
  type OffsetSeq,
  offsetCodec,
  type StateWrites,
  stateWritesCodec,
} from "../checkpoint/offset-log.js";
import { spareFiles, sweepLeftSpares } from "../checkpoint/spare-files.js";
import type { RuntimeConfig } from "../common/conf.js";
import { CheckpointLock } from "./checkpoint-lock.js";
import { queryIdOf, stickyConfs } from "./checkpoint-metadata.js";
import { StateHeads } from "./state-heads.js";

export class CheckpointStore {
  readonly offsets: MetadataLog<OffsetSeq>;
  readonly commits: MetadataLog<CommitMetadata>;
  stickyConf: Record<string, string> = {};
  private readonly fsys: CheckpointFs;
  /** Which state files the commit log says exist (null without a checkpoint location). */
  readonly stateHeads: StateHeads | null;
  /** Per stateful operator, `state/<op>/_metadata/writes/N`: the state files batch N wrote. */
  private readonly writeLogs = new Map<string, FileMetadataLog<StateWrites>>();
  /** Per operator, the newest batch id whose record a run before this one may have left. */
  private readonly earlierRecords = new Map<string, number>();
  private readonly lock: CheckpointLock;

  private constructor(
    readonly dir: string | null,
    readonly queryId: string,
    private readonly minBatchesToRetain: number,
    /**
     * `arus.checkpoint.fsync`: the per-batch files (offsets, commits, state files and their
     * writes logs) are fdatasynced before their rename (default), or not, as Spark's local
     * checkpoint manager does not (docs/reliability.md).
     */
    readonly fsync: boolean,
  ) {
    this.fsys = fsync ? checkpointFs : unsyncedCheckpointFs;
    this.offsets = dir ? new FileMetadataLog(path.join(dir, "offsets"), offsetCodec, this.fsys) : new MemoryMetadataLog();
    this.commits = dir ? new FileMetadataLog(path.join(dir, "commits"), commitCodec, this.fsys) : new MemoryMetadataLog();
    this.stateHeads = dir ? new StateHeads(path.join(dir, "state")) : null;
    this.lock = new CheckpointLock(dir);
  }

  /**
   * Read which state files the committed batches wrote. A damaged record stops the query
   * naming its file; a missing one checks nothing for its batch.
   */
  private async loadStateHeads(): Promise<void> {
    if (!this.stateHeads || !this.dir) return;
    for (const op of await nodeFs.readdir(path.join(this.dir, "state"))) {
      if (!/^\d+$/.test(op)) continue;
      const last = (await this.writeLog(op).ids()).at(-1);
      if (last !== undefined) this.earlierRecords.set(op, last);
    }
    for (const id of await this.commits.ids()) {
      for (const log of this.writeLogs.values()) this.stateHeads.record(id, await log.get(id));
    }
  }

  private writeLog(op: string): FileMetadataLog<StateWrites> {
    let log = this.writeLogs.get(op);
    if (!log) this.writeLogs.set(op, (log = new FileMetadataLog(writesLogDir(this.dir!, op), stateWritesCodec, this.fsys)));
    return log;
  }

  /**
   * The last batch's commit while it waits for the disk (default mode: its files are synced in
   * the background); null when none was started. `offsets/N+1` is renamed only after it.
   */
  private pendingCommit: Promise<void> | null = null;
  /** The last `offsets/N` written in the default mode, until its folder is synced. */
  private pendingOffsets: Promise<void> | null = null;

  /**
   * Write `offsets/N` ahead of batch N (docs/reliability.md, "What is durable before what").
   * Without fsync, or without a checkpoint location, the entry is in place when this returns.
   * In the default mode only the temp file is written here; the rest runs while the batch
   * fetches and executes: the temp file is fdatasynced on the thread pool, renamed to
   * `offsets/N` once that is done and batch N-1's `commits/N-1` is in place, then the folder is
   * fsynced. `named` resolves when the name appears (`onPublished` runs then: a crash point),
   * `durable` after the folder's fsync; the batch awaits it before any of its output leaves the
   * process.
   */
  async writeOffsets(
    batchId: number,
    entry: OffsetSeq,
    onPublished?: () => void,
  ): Promise<{ named: Promise<void>; durable: Promise<void> }> {
    const log = this.offsets;
    if (!this.fsync || !(log instanceof FileMetadataLog)) {
      await this.pendingCommit;
      await log.add(batchId, entry);
      onPublished?.();
      return { named: Promise.resolve(), durable: Promise.resolve() };
    }
    const staged = await log.stage(batchId, entry);
    const named = (async () => {
      try {
        await syncStaged(this.fsys, [staged], true);
        await this.pendingCommit;
      } catch (e) {
        await discardStaged(this.fsys, [staged]);
        throw e;
      }
      await log.publish(staged);
      onPublished?.();
    })();
    const durable = named.then(() => syncDirOf(this.fsys, log.dir));
    // Awaited by the batch; one that fails before its sink must not leave these unhandled.
    named.catch(() => {});
    durable.catch(() => {});
    this.pendingOffsets = durable;
    return { named, durable };
  }

  /**
   * A batch re-run after a restart found its `offsets/N` on disk; the process that wrote it may
   * have died before the folder was synced (default mode): sync it before the re-run's output.
   */
  async syncOffsetsFolder(): Promise<void> {
    if (this.fsync && this.offsets instanceof FileMetadataLog) await syncDirOf(this.fsys, this.offsets.dir);
  }

  /** Wait for the last batch's commit to be in place (and durable); throws its error if it failed. */
  async settle(): Promise<void> {
    await this.pendingCommit;
  }

  /**
   * A query that failed ends only after every checkpoint write it started is done (or failed):
   * a batch that failed while its `offsets/N` was being synced and renamed must not rename it
   * after the query has terminated (and a caller is, say, deleting the folder). Errors are the
   * batch's to report; none is thrown here.
   */
  async quiesce(): Promise<void> {
    await this.pendingOffsets?.catch(() => {});
    await this.pendingCommit?.catch(() => {});
  }

  /**
   * Runs `fn` once the last commit is in place (at once when none was started); not when that
   * commit failed. Its error, or the commit's, reaches the loop through settle or the next
   * writeOffsets.
   */
  afterCommit(fn: () => void): void {
    if (!this.pendingCommit) {
      fn();
      return;
    }
    const next = this.pendingCommit.then(fn);
    next.catch(() => {});
    this.pendingCommit = next;
  }

  /**
   * Batch N's commit: the state files it wrote are recorded beside each operator's metadata
   * (`state/<op>/_metadata/writes/N`, so `commits/` and `state/` list as Spark's do), then
   * `commits/N` is written. Both files are written and synced together, then renamed: the
   * records first, so `commits/N` never exists without them. A replayed batch overwrites its
   * earlier attempt's record, or removes it when the replay wrote no state file for that
   * operator. `after` runs once `commits/N` is in place (the sources' release).
   *
   * Default mode: returns once the files are written under their temp names; the sync and the
   * renames run in the background (settle() waits for them, and writeOffsets renames the next
   * `offsets/N+1` only after them), so the next trigger's offset requests overlap the disk.
   */
  async commit(batchId: number, writes: StateWrites | undefined, entry: CommitMetadata, after?: () => Promise<void>): Promise<void> {
    await this.pendingCommit;
    if (!this.dir || !(this.commits instanceof FileMetadataLog)) {
      await this.commits.add(batchId, entry);
      await after?.();
      return;
    }
    const { done } = await this.commitFiles(batchId, writes, entry, after);
    done.catch(() => {});
    this.pendingCommit = done;
    if (!this.fsync) await done;
  }

  private async commitFiles(
    batchId: number,
    writes: StateWrites | undefined,
    entry: CommitMetadata,
    after: (() => Promise<void>) | undefined,
  ): Promise<{ done: Promise<void> }> {
    const log = this.commits;
    if (!(log instanceof FileMetadataLog)) throw new Error("unreachable: commits log in memory");
    const byOp = new Map<string, StateWrites>();
    for (const [key, ranges] of Object.entries(writes ?? {})) {
      const op = key.split("/", 1)[0]!;
      let w = byOp.get(op);
      if (!w) byOp.set(op, (w = {}));
      w[key] = ranges;
      this.writeLog(op);
    }
    const records: StagedFile[] = [];
    let commit: StagedFile | null = null;
    try {
      for (const [op, log] of this.writeLogs) {
        const file = path.join(log.dir, String(batchId));
        const w = byOp.get(op);
        if (w) records.push(await stageAtomic(this.fsys, file, `v${stateWritesCodec.version}\n${stateWritesCodec.serialize(w)}`));
        // Only a replayed batch can find an earlier attempt's record: no I/O for the others.
        else if (batchId <= (this.earlierRecords.get(op) ?? -1)) await fs.rm(file, { force: true });
      }
      commit = await log.stage(batchId, entry);
    } catch (e) {
      await discardStaged(this.fsys, commit ? [...records, commit] : records);
      throw e;
    }
    const staged = [...records, commit];
    const done = (async () => {
      try {
        await syncStaged(this.fsys, staged, true);
      } catch (e) {
        await discardStaged(this.fsys, staged);
        throw e;
      }
      for (let i = 0; i < records.length; i++) {
        try {
          await publishStaged(this.fsys, records[i]!, true);
        } catch (e) {
          await discardStaged(this.fsys, staged.slice(i + 1));
          throw e;
        }
      }
      await log.publish(commit);
      await after?.();
    })();
    return { done };
  }

  /** Open (or create) the checkpoint at `dir`; `conf` receives the sticky confs of a restart. */
  static async open(dir: string | null, conf: RuntimeConfig): Promise<CheckpointStore> {
    let id: string = randomUUID();
    if (dir) {
      dir = path.resolve(dir);
      id = await queryIdOf(dir, id);
    }
    const store = new CheckpointStore(
      dir,
      id,
      conf.getInt("spark.sql.streaming.minBatchesToRetain"),
      conf.getBool("arus.checkpoint.fsync"),
    );
    await store.loadStateHeads();
    const latest = await store.offsets.latest();
    store.stickyConf = stickyConfs(latest ? latest.entry : null, conf, dir);
    return store;
  }

  get numShufflePartitions(): number {
    return Number(this.stickyConf["spark.sql.shuffle.partitions"] ?? 200);
  }

  sourceDir(index: number): string | null {
    return this.dir ? path.join(this.dir, "sources", String(index)) : null;
  }
  stateDir(op: number, partition: number, storeName?: string): string | null {
    if (!this.dir) return null;
    const d = path.join(this.dir, "state", String(op), String(partition));
    return storeName && storeName !== "default" ? path.join(d, storeName) : d;
  }

  /** The batch whose retention is held back until the next trigger (deferPurge). */
  private purgeDue: number | null = null;

  /**
   * Hold back the retention after batch N's commit until `runDeferredPurge`: the loop runs it
   * while the next trigger's latestOffset round trip is in flight, so the deletes (a fraction
   * of a millisecond to a few each, on the main thread) are not on any batch's own path.
   */
  deferPurge(currentBatchId: number): void {
    this.purgeDue = currentBatchId;
  }

  get purgeDeferred(): boolean {
    return this.purgeDue !== null;
  }

  /** The held-back retention, if any. */
  async runDeferredPurge(): Promise<void> {
    const id = this.purgeDue;
    if (id === null) return;
    this.purgeDue = null;
    await this.purge(id);
  }

  /** Retention: keep the last minBatchesToRetain batches of offsets and commits. */
  async purge(currentBatchId: number): Promise<void> {
    const threshold = currentBatchId - this.minBatchesToRetain;
    if (threshold <= 0) return;
    await this.offsets.purge(threshold);
    await this.commits.purge(threshold);
    for (const log of this.writeLogs.values()) await log.purge(threshold);
  }

  /** One query per checkpoint, across processes (checkpoint-lock.ts); then the spares a crash left in the logs' folders go. */
  async acquireLock(): Promise<void> {
    await this.lock.acquire();
    if (this.dir) await sweepLeftSpares(await this.logFolders(this.dir));
  }

  /** The folders of the checkpoint's logs that get spares (spare-files.ts; the state stores' own folders sweep theirs). */
  private async logFolders(dir: string): Promise<string[]> {
    const names = (parent: string) => fs.readdir(parent).catch(() => [] as string[]);
    const sources = (await names(path.join(dir, "sources"))).map((i) => path.join(dir, "sources", i));
    const writes = (await names(path.join(dir, "state"))).map((op) => writesLogDir(dir, op));
    return [path.join(dir, "offsets"), path.join(dir, "commits"), ...sources, ...writes];
  }

  /** Delete this thread's spare files (spare-files.ts) in the checkpoint: the query has ended. */
  async dropSpares(): Promise<void> {
    if (this.dir) await spareFiles.drain(this.dir);
  }

  async releaseLock(): Promise<void> {
    await this.dropSpares(); // a query that failed to start may have written some
    await this.lock.release();
  }

  describe(): string {
    return this.dir ?? "<in memory>";
  }
}

/** `state/<op>/_metadata/writes/`: the state files each batch of operator `op` wrote. */
function writesLogDir(dir: string, op: string): string {
  return path.join(dir, "state", op, "_metadata", "writes");
}
