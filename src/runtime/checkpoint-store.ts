/**
 * The checkpoint of one query: `metadata` (query id), `offsets/`, `commits/`, `sources/<i>/`,
 * `state/`. Without a checkpointLocation the same logs live in memory for the query's life.
 * Sticky confs (shuffle partitions, watermark policy, ...) are frozen at the first batch and
 * re-applied from the latest offsets entry on restart, as Spark does.
 */
import { randomUUID } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import {
  type CheckpointFs,
  discardStaged,
  nodeFs,
  publishStaged,
  type StagedFile,
  stageAtomic,
  syncDirOf,
  syncStaged,
  unsyncedFs,
  writeAtomic,
} from "../checkpoint/atomic-file.js";
import { CheckpointCorruptError, FileMetadataLog, MemoryMetadataLog, type MetadataLog } from "../checkpoint/metadata-log.js";
import {
  type CommitMetadata,
  commitCodec,
  type OffsetSeq,
  offsetCodec,
  STICKY_CONF_BEFORE_RECORDED,
  STICKY_CONFS,
  type StateWrites,
  stateWritesCodec,
} from "../checkpoint/offset-log.js";
import type { RuntimeConfig } from "../common/conf.js";
import { ArusError } from "../common/errors.js";
import { StateHeads } from "./state-heads.js";

/** Lock files held by queries of this process. */
const heldLocks = new Set<string>();
let lockQueue: Promise<void> = Promise.resolve();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** When this process started (ms since the epoch): with the pid, what a lock names its owner by. */
const PROCESS_START_MS = Math.round(Date.now() - process.uptime() * 1000);
/** This process's lock content: pid and start time, so a reused pid is not taken for the owner. */
const LOCK_TOKEN = `${process.pid} ${PROCESS_START_MS}`;

/**
 * When process `pid` started (ms since the epoch), from Linux's /proc (start ticks after boot at
 * USER_HZ = 100, the boot time in seconds); null where that cannot be read (another OS).
 */
function startMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(btime) ? btime * 1000 + ticks * 10 : null;
  } catch {
    return null;
  }
}

/**
 * Whether the owner a lock names is still running: its pid is alive and, when the lock records
 * a start time and /proc tells the pid's, they agree (a pid reused by another process since,
 * e.g. after a reboot or container restart, is not the owner).
 */
function ownerAlive(pid: number, startMs: number | null): boolean {
  if (!isAlive(pid)) return false;
  if (startMs === null) return true;
  const actual = startMsOf(pid);
  return actual === null || Math.abs(actual - startMs) < 10_000;
}

function lockError(lock: string, why: string): ArusError {
  return new ArusError("CHECKPOINT_LOCK", `Checkpoint lock ${lock}: ${why}. The query does not run without its lock.`);
}

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
    this.fsys = fsync ? nodeFs : unsyncedFs;
    this.offsets = dir ? new FileMetadataLog(path.join(dir, "offsets"), offsetCodec, this.fsys) : new MemoryMetadataLog();
    this.commits = dir ? new FileMetadataLog(path.join(dir, "commits"), commitCodec, this.fsys) : new MemoryMetadataLog();
    this.stateHeads = dir ? new StateHeads(path.join(dir, "state")) : null;
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
    if (!log)
      this.writeLogs.set(
        op,
        (log = new FileMetadataLog(path.join(this.dir!, "state", op, "_metadata", "writes"), stateWritesCodec, this.fsys)),
      );
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
      const abs = path.resolve(dir);
      const metaFile = path.join(abs, "metadata");
      const read = () =>
        fs.readFile(metaFile, "utf8").catch((e: NodeJS.ErrnoException) => {
          if (e.code === "ENOENT") return null;
          throw e;
        });
      let text = await read();
      if (text === null) {
        // Two processes opening a new checkpoint together: the second to write finds the
        // first's metadata (the write never overwrites) and takes that query id; the lock then
        // decides which of them runs.
        try {
          await writeAtomic(nodeFs, metaFile, JSON.stringify({ id }), false);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
          text = await read();
        }
      }
      if (text !== null) {
        try {
          id = (JSON.parse(text) as { id: string }).id;
          if (typeof id !== "string") throw new Error("no id");
        } catch {
          throw new CheckpointCorruptError(metaFile, 'expected JSON like {"id":"<query id>"}');
        }
      }
      dir = abs;
    }
    const store = new CheckpointStore(
      dir,
      id,
      conf.getInt("spark.sql.streaming.minBatchesToRetain"),
      conf.getBool("arus.checkpoint.fsync"),
    );
    await store.loadStateHeads();
    const latest = await store.offsets.latest();
    const frozen = latest?.entry.metadata.conf ?? {};
    const parts = "spark.sql.shuffle.partitions";
    if (frozen[parts] !== undefined && conf.isExplicit(parts) && conf.get(parts) !== frozen[parts]) {
      throw new ArusError(
        "STATE_SCHEMA_CHANGED",
        `spark.sql.shuffle.partitions is ${conf.get(parts)} but checkpoint ${dir} was written with ${frozen[parts]}; the partition count of a checkpoint's state cannot change. ` +
          `Use ${frozen[parts]} (or leave it unset) to continue, or start with a new checkpointLocation.`,
      );
    }
    for (const k of STICKY_CONFS) {
      const v = frozen[k] ?? (latest ? STICKY_CONF_BEFORE_RECORDED[k] : undefined) ?? conf.getOption(k);
      if (v !== undefined) store.stickyConf[k] = v;
    }
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

  /**
   * One query per checkpoint, across processes: an exclusive `.arus-lock` file holding the
   * owner's pid and start time, created in one step (temp file + link, which fails when the
   * lock exists). A lock whose process is gone (killed) is taken over atomically: it is renamed
   * to a name only this taker uses, and deleted only if that file still holds the stale content
   * that was judged; if another query's fresh lock was moved instead, it is put back and this
   * query stops. Anything unexpected (a lock that cannot be read, a directory at the lock path)
   * stops the query: it never runs without the lock.
   */
  acquireLock(): Promise<void> {
    // Queries of this process take locks one at a time (their lock content, the process's token, is the same).
    const run = lockQueue.then(() => this.acquireLockNow());
    lockQueue = run.catch(() => {});
    return run;
  }

  private async acquireLockNow(): Promise<void> {
    if (!this.dir) return;
    const lock = path.join(this.dir, ".arus-lock");
    const token = LOCK_TOKEN;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeAtomic(nodeFs, lock, token, false);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "EEXIST") throw lockError(lock, `it cannot be created (${code ?? String(e)})`);
        await this.takeOverStale(lock);
        continue;
      }
      // Verify: a racing taker may only move a lock whose content it judged stale, never ours.
      const now = await fs.readFile(lock, "utf8").catch(() => "");
      if (now !== token) {
        throw new ArusError(
          "CONCURRENT_QUERY",
          `Checkpoint ${this.dir} is in use by another query: its lock ${lock} changed while this query took it.`,
        );
      }
      heldLocks.add(lock);
      this.locked = lock;
      return;
    }
    throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir}: could not take its lock ${lock} (other queries keep taking it).`);
  }

  /** Remove the lock at `lock` if its owner is gone; throw CONCURRENT_QUERY if it is alive. */
  private async takeOverStale(lock: string): Promise<void> {
    const st = await fs.lstat(lock).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw lockError(lock, `it cannot be examined (${e.code})`);
    });
    if (st === null) return; // released meanwhile: try again
    if (!st.isFile()) throw lockError(lock, "it is not a regular file (a directory or other object is in the way); remove it");
    const content = await fs.readFile(lock, "utf8").catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw lockError(lock, `it cannot be read (${e.code})`);
    });
    if (content === null) return;
    const [pidText, startText] = content.trim().split(/\s+/);
    const pid = Number(pidText || "0");
    const startMs = startText !== undefined && /^\d+$/.test(startText) ? Number(startText) : null;
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && ownerAlive(pid, startMs)) {
      throw new ArusError(
        "CONCURRENT_QUERY",
        `Checkpoint ${this.dir} is in use by another running query (process ${pid}, named by its lock ${lock}). Only one query may use a checkpointLocation at a time; stop it or use another location.`,
      );
    }
    // Our pid but not held here: left by an earlier process with the same pid (a restarted
    // container's pid 1), as stale as a dead pid's.
    if (pid === process.pid && heldLocks.has(lock)) {
      throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir} is already used by an active query in this process.`);
    }
    const aside = `${lock}.${randomUUID()}.stale`;
    try {
      await fs.rename(lock, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // another taker removed it first
      throw lockError(lock, `the stale lock cannot be removed (${(e as NodeJS.ErrnoException).code})`);
    }
    const moved = await fs.readFile(aside, "utf8").catch(() => null);
    if (moved === content) {
      await fs.unlink(aside).catch(() => {});
      return;
    }
    // Another query replaced the stale lock between our read and our rename: give it back.
    try {
      await fs.link(aside, lock);
    } finally {
      await fs.unlink(aside).catch(() => {});
    }
    throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir} is in use by another query that just took its lock ${lock}.`);
  }
  async releaseLock(): Promise<void> {
    if (this.locked) {
      heldLocks.delete(this.locked);
      // Only our own lock is removed (a lock taken over by another process after ours went stale stays).
      const content = await fs.readFile(this.locked, "utf8").catch(() => null);
      if (content === LOCK_TOKEN) await fs.unlink(this.locked).catch(() => {});
    }
    this.locked = null;
  }
  private locked: string | null = null;

  describe(): string {
    return this.dir ?? "<in memory>";
  }
}
