/**
 * The file sink's manifest (Spark's FileStreamSinkLog) in `<output>/_spark_metadata`: batch N
 * lists the data files it committed. Readers trust only files listed here, which is what makes
 * the sink exactly-once: data files of a failed attempt exist on disk but are never listed.
 * Every `compactInterval` batches, `N.compact` holds all live entries so readers open one file
 * plus a few deltas instead of the whole history.
 */
import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { ArusError } from "../../common/errors.js";
import { writeAtomic } from "./atomic.js";
import { type LogFileName, listLog, listLogSync, logCorrupt, readLog, readLogSync, serializeLog } from "./metadata-log.js";
import { fromFileUri, toFileUri } from "./uri.js";

export const SINK_METADATA_DIR = "_spark_metadata";
/** `spark.sql.streaming.fileSink.log.compactInterval`. */
export const DEFAULT_COMPACT_INTERVAL = 10;
/** Hadoop's local file system reports 32 MiB blocks; Spark copies the value into each entry. */
const BLOCK_SIZE = 33_554_432;

/** One manifest line (Spark's SinkFileStatus); `txn` is arus's table-writer marker, ignored by Spark. */
export interface SinkFileStatus {
  readonly path: string;
  readonly size: number;
  readonly isDir: boolean;
  readonly modificationTime: number;
  readonly blockReplication: number;
  readonly blockSize: number;
  readonly action: "add" | "delete";
  readonly txn?: string;
}

/** A live (added, not deleted) file: absolute path plus its manifest data. */
export interface CommittedFile {
  readonly path: string;
  readonly size: number;
  readonly modificationTime: number;
  readonly txn: string | undefined;
}

export function sinkMetadataDir(outputDir: string): string {
  return join(outputDir, SINK_METADATA_DIR);
}

export async function addEntryFor(file: string, txn?: string): Promise<SinkFileStatus> {
  const st = await stat(file);
  const e: SinkFileStatus = {
    path: toFileUri(file),
    size: st.size,
    isDir: false,
    modificationTime: Math.floor(st.mtimeMs),
    blockReplication: 1,
    blockSize: BLOCK_SIZE,
    action: "add",
  };
  return txn === undefined ? e : { ...e, txn };
}

export function deleteEntryFor(f: CommittedFile): SinkFileStatus {
  return {
    path: toFileUri(f.path),
    size: f.size,
    isDir: false,
    modificationTime: f.modificationTime,
    blockReplication: 1,
    blockSize: BLOCK_SIZE,
    action: "delete",
  };
}

/**
 * The files a reader must open: the newest `.compact` (if any) and every batch after it. Their
 * ids must be contiguous (from 0 when there is no compact file): a missing batch file would
 * silently drop that batch's output from every reader and every later compaction.
 */
function liveFiles(dir: string, files: readonly LogFileName[]): LogFileName[] {
  let from = 0;
  files.forEach((f, i) => {
    if (f.compact) from = i;
  });
  const live = files.slice(from);
  let expected = live[0]?.compact ? live[0].id : 0;
  for (const f of live) {
    if (f.id > expected) throw missingManifest(dir, expected, f.name);
    expected = f.id + 1;
  }
  return live;
}

function missingManifest(dir: string, id: number, next: string): ArusError {
  return logCorrupt(
    join(dir, String(id)),
    `the file is missing (nor is there ${join(dir, `${id}.compact`)}), but ${join(dir, next)} follows it: batch ${id}'s committed output would be lost`,
  );
}

/** The files `checkedLiveEntries` reads: from the compact file before the newest one on. */
function neededFiles(all: readonly LogFileName[]): LogFileName[] {
  const compacts = all.filter((f) => f.compact);
  const prev = compacts.length >= 2 ? compacts[compacts.length - 2]!.id : -1;
  return all.filter((f) => f.id > prev && (!f.compact || f === compacts[compacts.length - 1]));
}

/**
 * What the live files say, checked: an added path appears once (a batch file holding entries
 * the compact file already has was copied or swapped), and the newest compact file holds every
 * add of the batch files since the compact before it (a compact file copied from an older one,
 * or swapped with one, would drop them).
 */
function checkedLiveEntries(
  dir: string,
  all: readonly LogFileName[],
  live: readonly LogFileName[],
  read: (f: LogFileName) => SinkFileStatus[],
): SinkFileStatus[] {
  const entries: SinkFileStatus[] = [];
  const added = new Map<string, string>();
  for (const f of live) {
    for (const e of read(f)) {
      if (e.action === "add") {
        const first = added.get(e.path);
        if (first !== undefined) {
          throw logCorrupt(
            join(dir, f.name),
            `it adds ${e.path}, which ${join(dir, first)} already added (the file was copied or swapped)`,
          );
        }
        added.set(e.path, f.name);
      }
      entries.push(e);
    }
  }
  const compact = live[0]?.compact ? live[0] : null;
  if (compact) {
    let prev = -1;
    for (const f of all) if (f.compact && f.id < compact.id) prev = f.id;
    const kept = new Set(liveEntries(entries).map((e) => e.path));
    const deleted = new Set(entries.filter((e) => e.action === "delete").map((e) => e.path));
    for (const f of all) {
      if (f.compact || f.id <= prev || f.id >= compact.id) continue;
      for (const e of read(f)) {
        if (e.action === "add" && !kept.has(e.path) && !deleted.has(e.path)) {
          throw logCorrupt(
            join(dir, compact.name),
            `it lacks ${e.path}, which ${join(dir, f.name)} added before it (the compact file is not the one compaction wrote)`,
          );
        }
      }
    }
  }
  return entries;
}

/** Each manifest line must be an entry with a path and an add/delete action. */
function checkEntries(dir: string, file: LogFileName, entries: SinkFileStatus[]): SinkFileStatus[] {
  entries.forEach((e, i) => {
    if (typeof e.path !== "string" || (e.action !== "add" && e.action !== "delete")) {
      throw logCorrupt(join(dir, file.name), `line ${i + 2} is not a file entry (it needs "path" and "action": "add" or "delete")`);
    }
  });
  return entries;
}

/** Applies `delete` actions: a deleted path is gone however often it was added. */
function liveEntries(entries: readonly SinkFileStatus[]): SinkFileStatus[] {
  const deleted = new Set(entries.filter((e) => e.action === "delete").map((e) => e.path));
  return entries.filter((e) => e.action === "add" && !deleted.has(e.path));
}

function committed(e: SinkFileStatus): CommittedFile {
  return { path: fromFileUri(e.path), size: e.size, modificationTime: e.modificationTime, txn: e.txn };
}

export class FileStreamSinkLog {
  readonly dir: string;

  constructor(
    outputDir: string,
    readonly compactInterval = DEFAULT_COMPACT_INTERVAL,
  ) {
    this.dir = sinkMetadataDir(outputDir);
  }

  async latestBatchId(): Promise<number> {
    const files = await listLog(this.dir);
    return files.length === 0 ? -1 : files[files.length - 1]!.id;
  }

  /**
   * Before committing `batchId`: the manifest must end at batchId - 1 (or be empty). A newer
   * batch after a gap means a committed batch's manifest file was lost.
   */
  async checkNext(batchId: number, latest: number): Promise<void> {
    if (latest >= 0 && latest < batchId - 1) {
      const id = batchId - 1;
      throw logCorrupt(
        join(this.dir, this.isCompactionBatch(id) ? `${id}.compact` : String(id)),
        `the file is missing: the query committed batch ${id}, but the manifest ends at batch ${latest}, so batch ${id}'s output would be lost`,
      );
    }
  }

  /** Live entries after every committed batch. */
  async entries(): Promise<SinkFileStatus[]> {
    const files = await listLog(this.dir);
    const cache = new Map<string, SinkFileStatus[]>();
    for (const f of neededFiles(files)) cache.set(f.name, checkEntries(this.dir, f, await readLog<SinkFileStatus>(this.dir, f)));
    return liveEntries(checkedLiveEntries(this.dir, files, liveFiles(this.dir, files), (f) => cache.get(f.name) ?? []));
  }

  isCompactionBatch(batchId: number): boolean {
    return (batchId + 1) % this.compactInterval === 0;
  }

  /**
   * Commits batch `batchId`. False when that id already exists (another writer, or a replay that
   * raced us); the caller decides whether that is an error.
   */
  async add(batchId: number, entries: readonly SinkFileStatus[]): Promise<boolean> {
    if (!this.isCompactionBatch(batchId)) return writeAtomic(this.dir, String(batchId), serializeLog(entries));
    const all = liveEntries([...(await this.entries()), ...entries]);
    return writeAtomic(this.dir, `${batchId}.compact`, serializeLog(all));
  }
}

export async function hasSinkMetadata(outputDir: string): Promise<boolean> {
  return (await stat(sinkMetadataDir(outputDir)).catch(() => null))?.isDirectory() ?? false;
}

export function hasSinkMetadataSync(outputDir: string): boolean {
  try {
    return statSync(sinkMetadataDir(outputDir), { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    // ENOTDIR: the path is a file, which has no manifest.
    return false;
  }
}

/** Live files of a sink's output directory, in manifest order. */
export async function readCommittedEntries(outputDir: string): Promise<CommittedFile[]> {
  return (await new FileStreamSinkLog(outputDir).entries()).map(committed);
}

/**
 * The data files a file sink committed under `path` (absolute paths), or null when `path` has no
 * `_spark_metadata` directory. Batch readers use this so a sink's output shows committed files only.
 */
export async function readCommittedFiles(path: string): Promise<string[] | null> {
  if (!(await hasSinkMetadata(path))) return null;
  return (await readCommittedEntries(path)).map((e) => e.path);
}

export function readCommittedFilesSync(path: string): string[] | null {
  if (!hasSinkMetadataSync(path)) return null;
  const dir = sinkMetadataDir(path);
  const files = listLogSync(dir);
  const cache = new Map<string, SinkFileStatus[]>();
  const read = (f: LogFileName): SinkFileStatus[] => {
    let v = cache.get(f.name);
    if (!v) cache.set(f.name, (v = checkEntries(dir, f, readLogSync<SinkFileStatus>(dir, f))));
    return v;
  };
  return liveEntries(checkedLiveEntries(dir, files, liveFiles(dir, files), read)).map((e) => committed(e).path);
}

export function raceError(batchId: number): ArusError {
  return new ArusError("CONCURRENT_STREAM_LOG_UPDATE", `Race while writing batch ${batchId}`);
}
