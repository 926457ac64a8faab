/**
 * Spare files: empty files made ahead of need, on libuv's thread pool, in the checkpoint folders
 * written every batch (offsets/, commits/, sources/<i>/, a state store's folder), so an atomic
 * write renames a spare to its temp name instead of creating a file on the batch's serial path.
 *
 * Why: creating a file is the one costly step of a small checkpoint write on some file systems.
 * On ext4 without a journal, each new inode is checked against every inode freed in the last
 * ~30 s (the kernel's `recently_deleted`): under a checkpoint's steady create / delete churn a
 * create cost 0.6–1 ms of kernel CPU here against 25 µs in a quiet folder, 5–9 of them a batch
 * (docs/reliability.md, "What a batch writes, and what it costs"). A rename within a folder
 * costs ~30 µs whatever the churn.
 *
 * A folder gets a spare only from its second write on (one-off writes make none), at most one
 * at a time. A spare that vanished (a temp sweep took it) is skipped: the write creates its file
 * as before. `drain` deletes a stopped query's spares; one left by a crash is an empty hidden
 * `.spare.<uuid>.tmp` that nothing reads (state folders sweep theirs, StateFiles).
 *
 * One pool per thread (a module instance per worker): each folder is written by one thread.
 */
import { randomUUID } from "node:crypto";
import { promises as fs, renameSync } from "node:fs";
import path from "node:path";

/** A spare's name (also matched by the state folders' temp sweep). */
export const SPARE_NAME_RE = /^\.spare\.[0-9a-f-]+\.tmp$/;

export class SpareFiles {
  /** Folder → spares ready in it. */
  private readonly ready = new Map<string, string[]>();
  /** Folder → writes seen (a spare is made from the second on). */
  private readonly writes = new Map<string, number>();
  /** Folder → its spare being made. */
  private readonly making = new Map<string, Promise<void>>();

  /**
   * Give `tmp` (the path of a temp file about to be written, not existing yet) a spare of its
   * folder: true when `tmp` now exists, empty; false when the caller must create it. Starts
   * making the folder's next spare either way.
   */
  claim(tmp: string): boolean {
    const dir = path.dirname(tmp);
    const seen = (this.writes.get(dir) ?? 0) + 1;
    this.writes.set(dir, seen);
    const spare = this.ready.get(dir)?.pop();
    if (seen >= 2 && !this.making.has(dir)) this.make(dir);
    if (spare === undefined) return false;
    try {
      renameSync(spare, tmp);
      return true;
    } catch {
      return false; // swept meanwhile: the caller creates its file
    }
  }

  private make(dir: string): void {
    const spare = path.join(dir, `.spare.${randomUUID()}.tmp`);
    const made = fs
      .open(spare, "wx")
      .then((h) => h.close())
      .then(
        () => {
          let list = this.ready.get(dir);
          if (!list) this.ready.set(dir, (list = []));
          list.push(spare);
        },
        () => {}, // the folder is gone, or full: the next write creates its own file
      )
      .finally(() => this.making.delete(dir));
    this.making.set(dir, made);
  }

  /** Resolves once the spares being made now are made (or failed). */
  async made(): Promise<void> {
    await Promise.all(this.making.values());
  }

  /** Is `p` a spare this pool holds ready? */
  holds(p: string): boolean {
    return this.ready.get(path.dirname(p))?.includes(p) ?? false;
  }

  /**
   * Delete the spares in `root` and below (every spare when null), after the ones being made
   * there; their folders start from no writes seen again.
   */
  async drain(root: string | null = null): Promise<void> {
    const top = root === null ? null : path.resolve(root);
    const within = (dir: string) => {
      const d = path.resolve(dir);
      return top === null || d === top || d.startsWith(top + path.sep);
    };
    await Promise.all([...this.making].filter(([dir]) => within(dir)).map(([, made]) => made));
    const doomed: string[] = [];
    for (const [dir, list] of this.ready) {
      if (!within(dir)) continue;
      doomed.push(...list);
      this.ready.delete(dir);
    }
    for (const dir of [...this.writes.keys()]) if (within(dir)) this.writes.delete(dir);
    await Promise.all(doomed.map((p) => fs.unlink(p).catch(() => {})));
  }
}

/** This thread's pool. */
export const spareFiles = new SpareFiles();
