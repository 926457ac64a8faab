/**
 * The checkpoint of one query: `metadata` (query id), `offsets/`, `commits/`, `sources/<i>/`,
 * `state/`. Without a checkpointLocation the same logs live in memory for the query's life.
 * Sticky confs (shuffle partitions, watermark policy, ...) are frozen at the first batch and
 * re-applied from the latest offsets entry on restart, as Spark does.
 */
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { RuntimeConfig } from "../api/conf.js";
import { nodeFs, writeAtomic } from "../checkpoint/atomic-file.js";
import { CheckpointCorruptError, FileMetadataLog, MemoryMetadataLog, type MetadataLog } from "../checkpoint/metadata-log.js";
import { type CommitMetadata, commitCodec, offsetCodec, type OffsetSeq, STICKY_CONFS } from "../checkpoint/offset-log.js";

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
    for (const k of STICKY_CONFS) {
      const v = frozen[k] ?? conf.getOption(k);
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

  describe(): string {
    return this.dir ?? "<in memory>";
  }
}
