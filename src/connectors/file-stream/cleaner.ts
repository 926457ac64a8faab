/**
 * `cleanSource`: what happens to a source file once the batch that read it is committed.
 * `delete` removes it; `archive` moves it to `sourceArchiveDir` + the file's full path (Spark's
 * layout: /data/in/a.json → /archive/data/in/a.json). Failures only warn, as in Spark: a file
 * that cannot be moved must not fail a query whose data is already committed.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join, parse } from "node:path";
import { logWarning } from "../../common/log.js";
import type { CleanSourceMode } from "./options.js";

export type Cleaner = (file: string) => Promise<void>;

function warn(action: string, file: string, e: unknown): void {
  logWarning(
    "FileStreamSource",
    `Fail to ${action} ${file} / skip ${action === "remove" ? "removing" : "moving"} file. ${(e as Error).message ?? e}`,
  );
}

/** Where `archive` puts `file`: the archive dir followed by the file's absolute path. */
export function archivePathOf(archiveDir: string, file: string): string {
  const root = parse(file).root;
  return join(archiveDir, file.slice(root.length));
}

export function makeCleaner(mode: CleanSourceMode, archiveDir: string | null): Cleaner | null {
  switch (mode) {
    case "off":
      return null;
    case "delete":
      return async (file) => {
        // force: a replayed commit finds the file already gone, which is fine.
        await rm(file, { force: true }).catch((e) => warn("remove", file, e));
      };
    case "archive":
      return async (file) => {
        const to = archivePathOf(archiveDir!, file);
        try {
          await mkdir(dirname(to), { recursive: true });
          await rename(file, to);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "ENOENT") warn("move", file, e);
        }
      };
  }
}
