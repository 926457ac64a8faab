/**
 * The checkpoint of one query: `metadata` (query id), `offsets/`, `commits/`, `sources/<i>/`,
 * `state/`. Without a checkpointLocation the same logs live in memory for the query's life.
 * Sticky confs (shuffle partitions, watermark policy, ...) are frozen at the first batch and
 * re-applied from the latest offsets entry on restart, as Spark does.
 */
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { nodeFs, writeAtomic } from "../checkpoint/atomic-file.js";
import { CheckpointCorruptError, FileMetadataLog, MemoryMetadataLog, type MetadataLog } from "../checkpoint/metadata-log.js";
import {
  type CommitMetadata,
  commitCodec,
  type OffsetSeq,
  offsetCodec,
  STICKY_CONF_BEFORE_RECORDED,
  STICKY_CONFS,
} from "../checkpoint/offset-log.js";
import type { RuntimeConfig } from "../common/conf.js";
import { ArusError } from "../common/errors.js";

/** Lock files held by queries of this process. */
const heldLocks = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class CheckpointStore {
  readonly offsets: MetadataLog<OffsetSeq>;
  readonly commits: MetadataLog<CommitMetadata>;
  stickyConf: Record<string, string> = {};

  private constructor(
    readonly dir: string | null,
    readonly queryId: string,
    private readonly minBatchesToRetain: number,
  ) {
    this.offsets = dir ? new FileMetadataLog(path.join(dir, "offsets"), offsetCodec) : new MemoryMetadataLog();
    this.commits = dir ? new FileMetadataLog(path.join(dir, "commits"), commitCodec) : new MemoryMetadataLog();
  }

  /** Open (or create) the checkpoint at `dir`; `conf` receives the sticky confs of a restart. */
  static async open(dir: string | null, conf: RuntimeConfig): Promise<CheckpointStore> {
    let id: string = randomUUID();
    if (dir) {
      const abs = path.resolve(dir);
      const metaFile = path.join(abs, "metadata");
      const text = await fs.readFile(metaFile, "utf8").catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return null;
        throw e;
      });
      if (text !== null) {
        try {
          id = (JSON.parse(text) as { id: string }).id;
          if (typeof id !== "string") throw new Error("no id");
        } catch {
          throw new CheckpointCorruptError(metaFile, 'expected JSON like {"id":"<query id>"}');
        }
      } else {
        await writeAtomic(nodeFs, metaFile, JSON.stringify({ id }), false);
      }
      dir = abs;
    }
    const store = new CheckpointStore(dir, id, conf.getInt("spark.sql.streaming.minBatchesToRetain"));
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

  /** Retention: keep the last minBatchesToRetain batches of offsets and commits. */
  async purge(currentBatchId: number): Promise<void> {
    const threshold = currentBatchId - this.minBatchesToRetain;
    if (threshold <= 0) return;
    await this.offsets.purge(threshold);
    await this.commits.purge(threshold);
  }

  /**
   * One query per checkpoint, across processes: an exclusive `.arus-lock` file holding the
   * owner's pid. A lock whose process is gone (killed) is taken over.
   */
  async acquireLock(): Promise<void> {
    if (!this.dir) return;
    const lock = path.join(this.dir, ".arus-lock");
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        // Created with its content in one step (temp file + link): never seen empty.
        await writeAtomic(nodeFs, lock, String(process.pid), false);
        heldLocks.add(lock);
        this.locked = lock;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        const pid = Number(await fs.readFile(lock, "utf8").catch(() => "0"));
        if (pid > 0 && pid !== process.pid && isAlive(pid)) {
          throw new ArusError(
            "CONCURRENT_QUERY",
            `Checkpoint ${this.dir} is in use by another running query (process ${pid}). Only one query may use a checkpointLocation at a time; stop it or use another location.`,
          );
        }
        // Our pid but not held here: left by an earlier process with the same pid (a restarted
        // container's pid 1), as stale as a dead pid's.
        if (pid === process.pid && heldLocks.has(lock)) {
          throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir} is already used by an active query in this process.`);
        }
        await fs.unlink(lock).catch(() => {});
      }
    }
  }
  async releaseLock(): Promise<void> {
    if (this.locked) {
      heldLocks.delete(this.locked);
      await fs.unlink(this.locked).catch(() => {});
    }
    this.locked = null;
  }
  private locked: string | null = null;

  describe(): string {
    return this.dir ?? "<in memory>";
  }
}
