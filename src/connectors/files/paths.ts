/**
 * Input listing: a file path is read as-is; a directory is walked recursively, skipping
 * Spark's hidden names (`_x`, `.x`, `x._COPYING_`) but keeping `_k=v` partition directories.
 * Synchronous at heart because `session.read...load()` must resolve a schema synchronously.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnalysisException } from "../../common/errors.js";

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

/** Absolute paths of the data files under `path`, sorted by path. */
export function listInputFilesSync(path: string): string[] {
  const abs = resolve(path);
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st) throw pathNotFound(abs);
  if (!st.isDirectory()) return [abs];
  const out: string[] = [];
  walk(abs, out);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export async function listInputFiles(path: string): Promise<string[]> {
  return listInputFilesSync(path);
}
