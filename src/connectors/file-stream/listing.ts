/**
 * What a trigger sees in the watched directory: every data file with its modification time,
 * oldest first (newest first with `latestFirst`). A directory written by a
 * file sink is read through its `_spark_metadata` manifest instead, as Spark does, so files of
 * uncommitted (or failed) batches stay invisible.
 */
import { stat } from "node:fs/promises";
import { listStreamInputFilesSync } from "../files/paths.js";
import { hasSinkMetadata, readCommittedEntries } from "./sink-log.js";

export interface ListedFile {
  /** Absolute path. */
  readonly path: string;
  /** Modification time, ms since the epoch. */
  readonly mtime: number;
  /** Bytes. */
  readonly size: number;
}

async function listDirectory(dir: string, options: Readonly<Record<string, string>>): Promise<ListedFile[]> {
  const out: ListedFile[] = [];
  for (const path of listStreamInputFilesSync(dir, options)) {
    // A file may vanish between listing and stat (a writer renaming, a cleaner): skip it.
    const st = await stat(path).catch(() => null);
    if (st?.isFile()) out.push({ path, mtime: Math.floor(st.mtimeMs), size: st.size });
  }
  return out;
}

export async function listSourceFiles(
  dir: string,
  latestFirst: boolean,
  /** The reader's options (`pathGlobFilter`, `recursiveFileLookup`, `basePath`). */
  options: Readonly<Record<string, string>> = {},
): Promise<{ files: ListedFile[]; fromManifest: boolean }> {
  const fromManifest = await hasSinkMetadata(dir);
  const files = fromManifest
    ? (await readCommittedEntries(dir)).map((e) => ({ path: e.path, mtime: e.modificationTime, size: e.size }))
    : await listDirectory(dir, options);
  // Stable sort on mtime alone (as Spark): ties keep listing order, i.e. path order for a
  // directory and commit order for a manifest.
  const dir1 = latestFirst ? -1 : 1;
  files.sort((a, b) => dir1 * (a.mtime - b.mtime));
  return { files, fromManifest };
}
