/**
 * Input listing, as Spark's InMemoryFileIndex finds a read's files: a load path may be a glob
 * (glob.ts: each match is a root); a file root is read as-is; a directory root is walked,
 * skipping Spark's hidden names (`_x`, `.x`, `x._COPYING_`) but keeping `_k=v` partition
 * directories. Files in subdirectories are read only when the directories are `k=v`
 * partitions or `recursiveFileLookup` is set (Spark's PartitioningAwareFileIndex.allFiles:
 * without partition columns, a root's own files only). `pathGlobFilter` keeps the files whose
 * name matches it. Synchronous at heart because `session.read...load()` must resolve a schema
 * synchronously.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { AnalysisException } from "../../common/errors.js";
import { expandGlob, globMatcher, hasGlob } from "./glob.js";
import { SourceOptions } from "./options.js";
import { partitionSpecOf } from "./partitions.js";

export function isHiddenName(name: string): boolean {
  return (name.startsWith("_") && !name.includes("=")) || name.startsWith(".") || name.endsWith("._COPYING_");
}

export function pathNotFound(absPath: string): AnalysisException {
  return new AnalysisException("PATH_NOT_FOUND", `[PATH_NOT_FOUND] Path does not exist: file:${absPath}.`);
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (isHiddenName(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isSymbolicLink()) {
      if (statSync(p, { throwIfNoEntry: false })?.isDirectory()) walk(p, out);
      else out.push(p);
    } else if (e.isFile()) out.push(p);
  }
}

/** The roots a load path names: its glob's matches, or itself (PATH_NOT_FOUND when nothing is there). */
function rootsOf(path: string): string[] {
  if (hasGlob(path)) {
    const found = expandGlob(path);
    if (found.length === 0) throw pathNotFound(resolve(path));
    return found;
  }
  const abs = resolve(path);
  if (!statSync(abs, { throwIfNoEntry: false })) throw pathNotFound(abs);
  return [abs];
}

/**
 * The directories partitions are found below when a read has no `basePath`: each load path's
 * roots (a glob's matches), a file's parent.
 */
export function readRoots(paths: readonly string[]): string[] {
  return [...new Set(paths.flatMap((p) => rootsOf(p).map((r) => (statSync(r).isDirectory() ? r : dirname(r)))))];
}

/**
 * Absolute paths of the data files a load path reads (`options`: the reader's), sorted by path.
 * `scan`: a batch read's files (Spark's listFiles: beside partition directories, the root's own
 * files are left out); otherwise every file the index holds (allFiles: what the file stream
 * source takes, the root's files too).
 */
export function listInputFilesSync(path: string, options: Readonly<Record<string, string>> = {}, scan = false): string[] {
  const o = new SourceOptions(options);
  const recursive = o.bool("recursiveFileLookup", false);
  const out: string[] = [];
  for (const root of rootsOf(path)) {
    if (!statSync(root).isDirectory()) {
      // a hidden file is no data file, even named directly or matched by a glob (Spark's file index)
      if (!isHiddenName(root.slice(root.lastIndexOf("/") + 1))) out.push(root);
      continue;
    }
    const below: string[] = [];
    walk(root, below);
    if (recursive) {
      out.push(...below);
      continue;
    }
    // With partition directories, every file (a scan: the partitions' files only); else the
    // root's own files only.
    const base = o.get("basePath") ?? root;
    const inPartition = below.map((f) => partitionSpecOf(f, base).length > 0);
    const partitioned = inPartition.some(Boolean);
    below.forEach((f, i) => {
      if (partitioned ? !scan || inPartition[i] : dirname(f) === root) out.push(f);
    });
  }
  const filter = o.get("pathGlobFilter");
  const keep = filter === undefined ? null : globMatcher(filter);
  const files = keep ? out.filter((f) => keep(f.slice(f.lastIndexOf("/") + 1))) : out;
  return [...new Set(files)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a stream over `path` lists now: as listInputFilesSync, but nothing while a glob matches nothing (files may come). */
export function listStreamInputFilesSync(path: string, options: Readonly<Record<string, string>>): string[] {
  return hasGlob(path) && expandGlob(path).length === 0 ? [] : listInputFilesSync(path, options);
}

export async function listInputFiles(path: string, options: Readonly<Record<string, string>> = {}, scan = false): Promise<string[]> {
  return listInputFilesSync(path, options, scan);
}
