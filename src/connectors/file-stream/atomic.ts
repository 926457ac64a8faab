/**
 * Atomic, durable writes for the file source/sink logs, through the checkpoint's atomic write
 * (temp file in the same folder, fsync, rename without overwrite): a reader never sees half a
 * log file, and a power loss cannot leave an empty one.
 */
import { join } from "node:path";
import { type CheckpointFs, nodeFs, writeAtomic as writeAtomicFile } from "../../checkpoint/atomic-file.js";

/**
 * Writes `dir/name`. Without `overwrite`, an existing file wins and false is returned: logs are
 * append-only, and a second writer for the same id means a concurrent query (or a replay).
 * `fsys`: the source's log, a checkpoint folder, passes checkpointFs (spare files).
 */
export async function writeAtomic(
  dir: string,
  name: string,
  content: string,
  overwrite = false,
  fsys: CheckpointFs = nodeFs,
): Promise<boolean> {
  try {
    await writeAtomicFile(fsys, join(dir, name), content, overwrite);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
}
