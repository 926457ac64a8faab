/**
 * Atomic file writes (Spark's CheckpointFileManager.createAtomic): write a hidden temp file in
 * the target's folder, fsync it, then rename it onto the final name, so readers see the whole
 * file or nothing. `overwrite: false` refuses to replace an existing file.
 */
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

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

export const nodeFs: CheckpointFs = {
  writeFile: (p, d) => fs.writeFile(p, d),
  async sync(p) {
    const h = await fs.open(p, "r+");
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  },
  async rename(from, to, overwrite) {
    if (overwrite) return fs.rename(from, to);
    // link() fails with EEXIST instead of replacing: a no-overwrite rename.
    await fs.link(from, to);
    await fs.unlink(from);
  },
  readFile: (p) => fs.readFile(p),
  readdir: async (p) => {
    try {
      return await fs.readdir(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
  },
  unlink: (p) => fs.unlink(p),
  mkdir: async (p) => {
    await fs.mkdir(p, { recursive: true });
  },
  exists: async (p) => {
    try {
      await fs.access(p);
      return true;
    } catch {
      return false;
    }
  },
};

export async function writeAtomic(fsys: CheckpointFs, target: string, data: Uint8Array | string, overwrite: boolean): Promise<void> {
  const dir = path.dirname(target);
  await fsys.mkdir(dir);
  const tmp = path.join(dir, `.${path.basename(target)}.${randomUUID()}.tmp`);
  try {
    await fsys.writeFile(tmp, data);
    await fsys.sync(tmp);
    await fsys.rename(tmp, target, overwrite);
  } catch (e) {
    await fsys.unlink(tmp).catch(() => {});
    throw e;
  }
}
