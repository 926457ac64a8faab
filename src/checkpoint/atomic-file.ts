/**
 * Atomic file writes (Spark's CheckpointFileManager.createAtomic): write a hidden temp file in
 * the target's folder, fsync it, then rename it onto the final name, so readers see the whole
 * file or nothing. `overwrite: false` refuses to replace an existing file.
 */
import { randomUUID } from "node:crypto";
import fsSync, { promises as fs } from "node:fs";
import path from "node:path";
import { withPath } from "../common/errors.js";

/** File-system calls the log uses; tests inject failures through this seam. */
export interface CheckpointFs {
  writeFile(p: string, data: Uint8Array | string): Promise<void>;
  /** fsync an already written file. */
  sync(p: string): Promise<void>;
  /** Create `to` from `from`; with overwrite false, fail with EEXIST when `to` exists. */
  rename(from: string, to: string, overwrite: boolean): Promise<void>;
  readFile(p: string): Promise<Buffer>;
  readdir(p: string): Promise<string[]>;
  unlink(p: string): Promise<void>;
  mkdir(p: string): Promise<void>;
  exists(p: string): Promise<boolean>;
}

function isNotFound(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === "ENOENT";
}

/**
 * Node's file system. The write-side calls are synchronous on purpose: checkpoint writes sit
 * on the micro-batch's serial path (the batch waits for them either way), and every promise
 * call is a round trip through libuv's thread pool and back through the event loop. Measured
 * on the per-batch log writes: about half the time of the same calls through fs.promises, and
 * a much shorter tail under load (docs/reliability.md, "What a batch writes, and what it costs").
 */
export const nodeFs: CheckpointFs = {
  writeFile: async (p, d) => fsSync.writeFileSync(p, d),
  async sync(p) {
    const fd = fsSync.openSync(p, "r");
    try {
      // The data and the size are what a reader needs; mtime and friends need not be flushed.
      fsSync.fdatasyncSync(fd);
    } finally {
      fsSync.closeSync(fd);
    }
  },
  async rename(from, to, overwrite) {
    if (overwrite) return fsSync.renameSync(from, to);
    // link() fails with EEXIST instead of replacing: a no-overwrite rename.
    fsSync.linkSync(from, to);
    fsSync.unlinkSync(from);
  },
  readFile: (p) => fs.readFile(p),
  readdir: async (p) => {
    try {
      return await fs.readdir(p);
    } catch (e) {
      if (isNotFound(e)) return [];
      throw e;
    }
  },
  unlink: async (p) => fsSync.unlinkSync(p),
  mkdir: async (p) => {
    fsSync.mkdirSync(p, { recursive: true });
  },
  exists: async (p) => fsSync.existsSync(p),
};

/**
 * Node's file system without the fdatasync (`arus.checkpoint.fsync=false`): Spark's behaviour on
 * a local file system (its CheckpointFileManager writes a temp file, closes it and renames it;
 * nothing forces it to disk). A killed process loses nothing (the page cache survives it); a
 * power loss or an OS crash can leave the newest files empty or missing.
 */
export const unsyncedFs: CheckpointFs = { ...nodeFs, sync: async () => {} };

export async function writeAtomic(fsys: CheckpointFs, target: string, data: Uint8Array | string, overwrite: boolean): Promise<void> {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${randomUUID()}.tmp`);
  try {
    try {
      await fsys.writeFile(tmp, data);
    } catch (e) {
      // The folder is created when the first write finds it missing, not before every write.
      if (!isNotFound(e)) throw e;
      await fsys.mkdir(dir);
      await fsys.writeFile(tmp, data);
    }
    await fsys.sync(tmp);
    await fsys.rename(tmp, target, overwrite);
  } catch (e) {
    await fsys.unlink(tmp).catch(() => {});
    throw (e as NodeJS.ErrnoException).code === "EEXIST" ? e : withPath(e, "write", target);
  }
}
