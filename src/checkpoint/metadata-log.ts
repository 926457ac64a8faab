/**
 * A small generic write-ahead log (Spark's HDFSMetadataLog): one file per batch id, named by
 * the decimal id, each starting with a version line (the layout the file stream logs share:
 * common/metadata-log-file.ts). Entries are written atomically and never
 * overwritten; reading validates the version and names the file on any problem.
 */
import path from "node:path";
import { ArusError } from "../common/errors.js";
import { parseLogFileName, splitVersionLine } from "../common/metadata-log-file.js";
import { type CheckpointFs, nodeFs, publishStaged, type StagedFile, stageAtomic, writeAtomic } from "./atomic-file.js";

export class CheckpointCorruptError extends ArusError {
  constructor(file: string, problem: string) {
    super(
      "CHECKPOINT_CORRUPT",
      `Checkpoint file ${file} is unusable: ${problem}. Nothing was skipped or overwritten; restore the file or start the query with a new checkpointLocation.`,
    );
  }
}

export class ConcurrentUpdateError extends ArusError {
  constructor(file: string) {
    super(
      "CONCURRENT_QUERY",
      `Multiple streaming queries are concurrently using the same checkpoint: ${file} was written by another run. Make sure only one query runs per checkpointLocation.`,
    );
  }
}

/** How entries are turned into text and back; `version` is the first line. */
export interface LogCodec<T> {
  readonly version: number;
  serialize(entry: T): string;
  deserialize(body: string, file: string): T;
}

export interface MetadataLog<T> {
  add(batchId: number, entry: T): Promise<void>;
  get(batchId: number): Promise<T | undefined>;
  latest(): Promise<{ batchId: number; entry: T } | undefined>;
  /** Ids present, ascending. */
  ids(): Promise<number[]>;
  /** Delete entries with id < threshold. */
  purge(threshold: number): Promise<void>;
}

export class FileMetadataLog<T> implements MetadataLog<T> {
  constructor(
    readonly dir: string,
    private readonly codec: LogCodec<T>,
    private readonly fsys: CheckpointFs = nodeFs,
  ) {}

  private file(id: number): string {
    return path.join(this.dir, String(id));
  }

  async add(batchId: number, entry: T): Promise<void> {
    try {
      await writeAtomic(this.fsys, this.file(batchId), this.text(entry), false);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new ConcurrentUpdateError(this.file(batchId));
      throw e;
    }
  }

  private text(entry: T): string {
    return `v${this.codec.version}\n${this.codec.serialize(entry)}`;
  }

  /** add() in steps (atomic-file.ts stageAtomic): the entry written under its temp name. */
  stage(batchId: number, entry: T): Promise<StagedFile> {
    return stageAtomic(this.fsys, this.file(batchId), this.text(entry));
  }

  /** The staged entry, synced, under its name (never over an existing one: CONCURRENT_QUERY). */
  async publish(f: StagedFile): Promise<void> {
    try {
      await publishStaged(this.fsys, f, false);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new ConcurrentUpdateError(f.target);
      throw e;
    }
  }

  async get(batchId: number): Promise<T | undefined> {
    const f = this.file(batchId);
    if (!(await this.fsys.exists(f))) return undefined;
    const text = (await this.fsys.readFile(f)).toString("utf8");
    if (text.length === 0) throw new CheckpointCorruptError(f, "the file is empty");
    const { firstLine, version: v, body } = splitVersionLine(text);
    if (v === null)
      throw new CheckpointCorruptError(
        f,
        `the first line should be a version like "v${this.codec.version}", found "${firstLine.slice(0, 40)}"`,
      );
    if (v > this.codec.version) {
      throw new CheckpointCorruptError(
        f,
        `it was written by a newer version of the log format (v${v}; this arus reads up to v${this.codec.version})`,
      );
    }
    if (body === null) throw new CheckpointCorruptError(f, "the file ends after the version line (truncated)");
    try {
      return this.codec.deserialize(body, f);
    } catch (e) {
      if (e instanceof CheckpointCorruptError) throw e;
      throw new CheckpointCorruptError(f, `its content cannot be parsed (${(e as Error).message})`);
    }
  }

  async ids(): Promise<number[]> {
    return (await this.fsys.readdir(this.dir))
      .map(parseLogFileName)
      .flatMap((n) => (n && !n.compact ? [n.id] : []))
      .sort((a, b) => a - b);
  }

  async latest(): Promise<{ batchId: number; entry: T } | undefined> {
    const ids = await this.ids();
    const last = ids.at(-1);
    if (last === undefined) return undefined;
    return { batchId: last, entry: (await this.get(last))! };
  }

  /**
   * Ids below this were deleted by an earlier purge of this object (null: none yet). Entries
   * are only ever added at the end, so later purges delete [purgedBelow, threshold) without
   * listing the folder (Spark lists it on every purge).
   */
  private purgedBelow: number | null = null;

  async purge(threshold: number): Promise<void> {
    const ids: number[] = [];
    if (this.purgedBelow === null) {
      for (const id of await this.ids()) if (id < threshold) ids.push(id);
    } else {
      for (let id = this.purgedBelow; id < threshold; id++) ids.push(id);
    }
    // Side by side: each may wait on the disk's journal, none depends on another.
    await Promise.all(ids.map((id) => this.fsys.unlink(this.file(id)).catch(() => {})));
    this.purgedBelow = Math.max(this.purgedBelow ?? 0, threshold);
  }
}

/** The same log without a checkpoint location: entries live in memory. */
export class MemoryMetadataLog<T> implements MetadataLog<T> {
  private readonly entries = new Map<number, T>();
  async add(batchId: number, entry: T): Promise<void> {
    if (this.entries.has(batchId)) throw new ConcurrentUpdateError(`<memory>/${batchId}`);
    this.entries.set(batchId, entry);
  }
  async get(batchId: number): Promise<T | undefined> {
    return this.entries.get(batchId);
  }
  async ids(): Promise<number[]> {
    return [...this.entries.keys()].sort((a, b) => a - b);
  }
  async latest(): Promise<{ batchId: number; entry: T } | undefined> {
    const last = (await this.ids()).at(-1);
    return last === undefined ? undefined : { batchId: last, entry: this.entries.get(last)! };
  }
  async purge(threshold: number): Promise<void> {
    for (const id of [...this.entries.keys()]) if (id < threshold) this.entries.delete(id);
  }
}
