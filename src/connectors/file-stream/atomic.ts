/**
 * Atomic writes for metadata logs (Spark's CheckpointFileManager.createAtomic): the content goes
 * to a hidden temp file in the same directory, then appears under its final name in one step,
 * so a reader never sees half a log file.
 */
import { randomUUID } from "node:crypto";
import { link, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Writes `dir/name`. Without `overwrite`, an existing file wins and false is returned: logs are
 * append-only, and a second writer for the same id means a concurrent query (or a replay).
 */
export async function writeAtomic(dir: string, name: string, content: string, overwrite = false): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${name}.${randomUUID()}.tmp`);
  const final = join(dir, name);
  await writeFile(tmp, content);
  try {
    if (overwrite) {
      await rename(tmp, final);
      return true;
    }
    // link() fails with EEXIST instead of replacing: a rename that never overwrites.
    await link(tmp, final);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    await rm(tmp, { force: true });
  }
}
