/**
 * The streaming file source (Spark's FileStreamSource). Each `latestOffset` lists the directory,
 * picks files it has not handed out before (oldest first, at most maxFilesPerTrigger) and records
 * them durably as the next log offset before returning it. `getBatch(start, end]` reads the
 * files of those log offsets, so a batch replayed after a crash reads exactly the same files
 * whatever the directory holds by then.
 */
import { basename } from "node:path";
import type { Batch } from "../../columnar/batch.js";
import { ArusError } from "../../common/errors.js";
import type { StructType } from "../../types/datatypes.js";
import { readFile } from "../files/index.js";
import type { FileTask, Offset, PreparedFile, ReadLimit, SourceBacklog, SourceContext, StreamSource } from "../source.js";
import { type Cleaner, makeCleaner } from "./cleaner.js";
import { type ListedFile, listSourceFiles } from "./listing.js";
import { fileOffset, logOffsetOf } from "./offset.js";
import { type FileStreamOptions, parseFileStreamOptions, readerOptions } from "./options.js";
import { ReadAhead } from "./read-ahead.js";
import { type FileEntry, FileStreamSourceLog } from "./source-log.js";
import { fromFileUri, toFileUri } from "./uri.js";

/** Spark keeps leftover listed files for the next trigger unless fewer than 20% of a batch remain. */
const DISCARD_UNSEEN_RATIO = 0.2;
const MAX_CACHED_UNSEEN_FILES = 10_000;

export class FileStreamSource implements StreamSource {
  readonly description: string;
  readonly supportsAvailableNow = true;
  private readonly opts: FileStreamOptions;
  private readonly readOpts: Record<string, string>;
  private readonly cleaner: Cleaner | null;
  private logOpen: Promise<FileStreamSourceLog> | null = null;
  /** Files already handed out, by path (or by name with fileNameOnly). */
  private readonly seen = new Set<string>();
  /** AvailableNow: the listing taken at start; later triggers never look past it. */
  private snapshot: ListedFile[] | null = null;
  /** New files listed but not yet taken because of maxFilesPerTrigger (reused before relisting). */
  private unread: ListedFile[] | null = null;
  private lastCleaned: number | null = null;
  /** Files (and bytes) listed but not yet taken, as of the last latestOffset. */
  private behind: SourceBacklog | null = null;
  /** The files the next trigger will most likely take (the head of the unread cache), read early. */
  private readonly ahead = new ReadAhead((path) => this.readOne(path));
  /** With a file task (`useFileTask`): files go through it instead of `readOne`. */
  private task: FileTask | null = null;
  private readonly aheadPrepared = new ReadAhead<PreparedFile>((path) => this.prepareOne(path));

  constructor(
    readonly format: string,
    options: Readonly<Record<string, string>>,
    readonly schema: StructType,
    private readonly ctx: SourceContext,
  ) {
    this.opts = parseFileStreamOptions(options);
    this.readOpts = readerOptions(options, this.opts.path);
    this.cleaner = makeCleaner(this.opts.cleanSource, this.opts.sourceArchiveDir);
    this.description = `FileStreamSource[file:${this.opts.path}]`;
  }

  private key(path: string): string {
    return this.opts.fileNameOnly ? basename(path) : path;
  }

  /** Opens the durable log once; its entries are the files already seen. */
  private log(): Promise<FileStreamSourceLog> {
    this.logOpen ??= FileStreamSourceLog.open(this.ctx.metadataDir).then((log) => {
      for (const e of log.all()) this.seen.add(this.key(fromFileUri(e.path)));
      return log;
    });
    return this.logOpen;
  }

  private async listAll(): Promise<ListedFile[]> {
    const { files, fromManifest } = await listSourceFiles(this.opts.path, this.opts.latestFirst, this.readOpts);
    if (fromManifest && this.cleaner) {
      throw new ArusError(
        "_LEGACY_ERROR_TEMP_2261",
        "Clean up source files is not supported when reading from the output directory of FileStreamSink.",
      );
    }
    return files;
  }

  /** Unseen files in listing order, a file name counted once with fileNameOnly. */
  private unseen(files: readonly ListedFile[]): ListedFile[] {
    const keys = new Set<string>();
    return files.filter((f) => {
      const k = this.key(f.path);
      if (this.seen.has(k) || keys.has(k)) return false;
      keys.add(k);
      return true;
    });
  }

  /** The files of the next log offset under `limit`, keeping Spark's unread-file cache. */
  private select(candidates: ListedFile[], limit: ReadLimit): ListedFile[] {
    this.unread = null;
    if (limit.kind !== "maxFiles" && limit.kind !== "maxBytes") return candidates;
    const count = limit.kind === "maxFiles" ? limit.max : filesWithin(candidates, limit.max);
    const taken = candidates.slice(0, count);
    const rest = candidates.slice(count);
    // latestFirst relists every trigger so newer arrivals jump the queue.
    if (limit.kind === "maxFiles" && !this.opts.latestFirst && rest.length > 0 && rest.length >= limit.max * DISCARD_UNSEEN_RATIO) {
      this.unread = rest.slice(0, MAX_CACHED_UNSEEN_FILES);
    }
    return taken;
  }

  defaultReadLimit(): ReadLimit {
    if (this.opts.maxBytesPerTrigger !== null) return { kind: "maxBytes", max: this.opts.maxBytesPerTrigger };
    return this.opts.maxFilesPerTrigger === null ? { kind: "all" } : { kind: "maxFiles", max: this.opts.maxFilesPerTrigger };
  }

  async prepareForAvailableNow(): Promise<void> {
    await this.log();
    this.snapshot = await this.listAll();
    this.unread = null;
  }

  async latestOffset(start: Offset | null, limit: ReadLimit): Promise<Offset | null> {
    const log = await this.log();
    if (start !== null) log.checkReaches(logOffsetOf(start));
    const candidates = this.unread ?? this.unseen(this.snapshot ?? (await this.listAll()));
    const batch = this.select(candidates, limit);
    // What the listing saw beyond this offset (maxFilesPerTrigger leaves it for later triggers).
    const behind = candidates.slice(batch.length);
    this.behind = { files: behind.length, bytes: behind.reduce((n, f) => n + f.size, 0) };
    if (batch.length > 0) {
      const id = log.latestOffset() + 1;
      const entries: FileEntry[] = batch.map((f) => ({ path: toFileUri(f.path), timestamp: f.mtime, batchId: id }));
      // Durable before the offset is returned: the engine writes offsets/N right after.
      await log.add(id, entries);
      for (const f of batch) this.seen.add(this.key(f.path));
    }
    const latest = log.latestOffset();
    return latest < 0 ? null : fileOffset(latest);
  }

  /** Spark's FileStreamSource reports no latest offset: progress `latestOffset` is null. */
  reportLatestOffset(): null {
    return null;
  }

  /** arus: progress `arus.sourceBacklog` (files and bytes listed but not yet in a batch). */
  backlog(): SourceBacklog | null {
    return this.behind;
  }

  async getBatch(start: Offset | null, end: Offset): Promise<Batch[]> {
    return (await this.readFiles(this.ahead, start, end)).flat();
  }

  useFileTask(task: FileTask): boolean {
    this.task = task;
    return true;
  }

  async getPrepared(start: Offset | null, end: Offset): Promise<PreparedFile[]> {
    return this.readFiles(this.aheadPrepared, start, end);
  }

  /** The files of log offsets (start, end] through `ahead`, then the next trigger's files started ahead. */
  private async readFiles<T>(ahead: ReadAhead<T>, start: Offset | null, end: Offset): Promise<T[]> {
    const log = await this.log();
    const from = start === null ? 0 : logOffsetOf(start) + 1;
    const paths = log.get(from, logOffsetOf(end)).map((e) => fromFileUri(e.path));
    const max = this.opts.maxFilesPerTrigger;
    const next = this.unread && max !== null ? this.unread.slice(0, max).map((f) => f.path) : null;
    // When this batch's files are being read already, the next trigger's queue up behind them
    // now, so the decode threads go on from one batch to the next without waiting for this one
    // to be handed over; otherwise they start after it, never ahead of this batch's own reads.
    const early = next !== null && ahead.covers(paths);
    const reading = ahead.readAll(paths);
    if (early) ahead.start(next);
    const out = await reading;
    if (next !== null && !early) ahead.start(next);
    return out;
  }

  private readOne(file: string): Promise<Batch[]> {
    return this.failingWithFile(file, () =>
      readFile(this.format, file, this.schema, this.readOpts, this.ctx.timeZone, this.ctx.convert ? { convertOnly: this.ctx.convert } : {}),
    );
  }

  /** Through the file task: its own errors (an expression's, say) go on as they are, as from `getBatch`'s plan. */
  private prepareOne(file: string): Promise<PreparedFile> {
    const read = {
      format: this.format,
      schema: this.schema,
      options: this.readOpts,
      timeZone: this.ctx.timeZone,
      rows: () => this.readOne(file),
    };
    return this.task!(file, read);
  }

  private async failingWithFile<T>(file: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      // The reader's own errors usually name the file; make sure every failure does.
      if (e instanceof Error && e.message.includes(file)) throw e;
      throw new ArusError(
        "FAILED_READ_FILE.NO_HINT",
        `[FAILED_READ_FILE.NO_HINT] Encountered error while reading file file:${file}. ${(e as Error)?.message ?? e}`,
        {
          cause: e,
        },
      );
    }
  }

  async commit(end: Offset): Promise<void> {
    if (!this.cleaner) return;
    const log = await this.log();
    const to = logOffsetOf(end);
    // Everything since the last commit we saw (Spark cleans only `end`'s own entry; after a
    // restart between log write and offset write, one batch can span two log offsets).
    const from = this.lastCleaned === null ? to : this.lastCleaned + 1;
    for (const e of log.get(from, to)) await this.cleaner(fromFileUri(e.path));
    this.lastCleaned = Math.max(this.lastCleaned ?? -1, to);
  }

  async stop(): Promise<void> {
    this.ahead.clear();
    this.aheadPrepared.clear();
  }
}

/** How many of `files`, in order, fit in `maxBytes` (at least one: a larger file goes alone). */
function filesWithin(files: readonly ListedFile[], maxBytes: number): number {
  let total = 0;
  let n = 0;
  for (const f of files) {
    total += f.size;
    if (n > 0 && total > maxBytes) break;
    n++;
  }
  return n;
}
