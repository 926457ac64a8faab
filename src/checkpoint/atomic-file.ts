/**
 * Atomic file writes (Spark's CheckpointFileManager.createAtomic): write a hidden temp file in
 * the target's folder, fsync it, then rename it onto the final name, so readers see the whole
 * file or nothing. `overwrite: false` refuses to replace an existing file.
 */
import { randomUUID } from "node:crypto";
import fsSync, { promises as fs } from "node:fs";
import path from "node:path";
import { withPath } from "../common/errors.js";
import { spareFiles } from "./spare-files.js";

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

/** A CheckpointFs that can fsync several files side by side (syncStaged uses it; others sync one by one). */
interface SyncAll {
  syncAll(ps: readonly string[]): Promise<void>;
  /** The sync it does the work of: an fs copied from this one with its own sync (a test that injects failures) syncs file by file. */
  readonly syncAllFor: CheckpointFs["sync"];
  /**
   * fsync a directory on the thread pool, so the names renamed into it so far survive a power
   * loss (a rename is durable only once its directory is; journaled file systems commit
   * metadata in order, so this also makes every earlier rename durable).
   */
  syncDir(dir: string): Promise<void>;
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
async function syncFile(p: string): Promise<void> {
  const fd = fsSync.openSync(p, "r");
  try {
    // The data and the size are what a reader needs; mtime and friends need not be flushed.
    fsSync.fdatasyncSync(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

export const nodeFs: CheckpointFs & SyncAll = {
  writeFile: async (p, d) => fsSync.writeFileSync(p, d),
  sync: syncFile,
  // The one place the write path uses the thread pool: files of one step (a batch's state
  // writes record and its commits/N) wait for the disk together, not one after the other.
  syncAll: (ps) =>
    Promise.all(
      ps.map((p) => {
        const fd = fsSync.openSync(p, "r");
        return new Promise<void>((resolve, reject) =>
          fsSync.fdatasync(fd, (e) => {
            fsSync.closeSync(fd);
            if (e) reject(e);
            else resolve();
          }),
        );
      }),
    ).then(() => {}),
  syncAllFor: syncFile,
  syncDir: (dir) => {
    const fd = fsSync.openSync(dir, "r");
    return new Promise<void>((resolve, reject) =>
      fsSync.fsync(fd, (e) => {
        fsSync.closeSync(fd);
        if (e) reject(e);
        else resolve();
      }),
    );
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
  // On the thread pool: a purge's unlinks can wait behind a journal commit (an fdatasync in
  // flight) for milliseconds, which a synchronous call would spend blocking the event loop.
  unlink: (p) => fs.unlink(p),
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
const noSync = async () => {};
export const unsyncedFs: CheckpointFs & SyncAll = { ...nodeFs, sync: noSync, syncAll: noSync, syncAllFor: noSync, syncDir: noSync };

/**
 * nodeFs for the checkpoint's own folders, written every batch (offsets/, commits/, a source's
 * log, a state store's writes record): a temp file is a spare made ahead (spare-files.ts) where
 * its folder has one, instead of a file created on the batch's serial path, and retention's old
 * files become spares instead of being deleted.
 */
export const checkpointFs: CheckpointFs & SyncAll = {
  ...nodeFs,
  writeFile: async (p, d) => {
    spareFiles.claim(p);
    fsSync.writeFileSync(p, d); // truncates a recycled spare
  },
  unlink: (p) => spareFiles.recycle(p),
};

/** checkpointFs without the fdatasync (`arus.checkpoint.fsync=false`). */
export const unsyncedCheckpointFs: CheckpointFs & SyncAll = {
  ...unsyncedFs,
  writeFile: checkpointFs.writeFile,
  unlink: checkpointFs.unlink,
};

/** A file written under its temp name, not yet synced nor renamed (stageAtomic). */
export interface StagedFile {
  readonly tmp: string;
  readonly target: string;
}

/**
 * writeAtomic in steps, for several files that must all be durable before the first is
 * renamed: stage each (temp file written), `syncStaged` them together, then `publishStaged`
 * each in order; `discardStaged` removes the temp files after a failure.
 */
export async function stageAtomic(fsys: CheckpointFs, target: string, data: Uint8Array | string): Promise<StagedFile> {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${randomUUID()}.tmp`);
  try {
    try {
      await fsys.writeFile(tmp, data);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await fsys.mkdir(dir);
      await fsys.writeFile(tmp, data);
    }
  } catch (e) {
    await fsys.unlink(tmp).catch(() => {});
    throw withPath(e, "write", target);
  }
  return { tmp, target };
}

/**
 * fdatasync the staged files. `background`: the caller does other work meanwhile, so even a
 * single file goes to the thread pool (otherwise one file is synced on the calling thread,
 * which is quicker when the caller would only wait).
 */
export async function syncStaged(fsys: CheckpointFs, files: readonly StagedFile[], background = false): Promise<void> {
  const { syncAll, syncAllFor } = fsys as Partial<SyncAll>;
  if (syncAll && syncAllFor === fsys.sync && (files.length > 1 || (background && files.length === 1))) {
    await syncAll.call(
      fsys,
      files.map((f) => f.tmp),
    );
    return;
  }
  for (const f of files) await fsys.sync(f.tmp);
}

/** syncDir of the fs when it has one (Node's: on the thread pool; without fsync: nothing); others sync no directory. */
export async function syncDirOf(fsys: CheckpointFs, dir: string): Promise<void> {
  const { syncDir } = fsys as Partial<SyncAll>;
  if (syncDir) await syncDir.call(fsys, dir);
}

export async function publishStaged(fsys: CheckpointFs, f: StagedFile, overwrite: boolean): Promise<void> {
  try {
    await fsys.rename(f.tmp, f.target, overwrite);
  } catch (e) {
    await fsys.unlink(f.tmp).catch(() => {});
    throw (e as NodeJS.ErrnoException).code === "EEXIST" ? e : withPath(e, "write", f.target);
  }
}

export async function discardStaged(fsys: CheckpointFs, files: readonly StagedFile[]): Promise<void> {
  for (const f of files) await fsys.unlink(f.tmp).catch(() => {});
}

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
