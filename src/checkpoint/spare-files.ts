/**
 * Spare files: empty files made ahead of need, on libuv's thread pool, in the checkpoint folders
 * written every batch (offsets/, commits/, sources/<i>/, a state store's folder), so an atomic
 * write renames a spare to its temp name instead of creating a file on the batch's serial path.
 *
 * Why: creating a file is the one costly step of a small checkpoint write on some file systems.
 * On ext4 without a journal, each new inode is checked against every inode freed in the last
 * ~30 s (the kernel's `recently_deleted`): under a checkpoint's steady create / delete churn a
 * create cost 0.6–1 ms of kernel CPU here against 25 µs in a quiet folder, 5–9 of them a batch
 * (docs/reliability.md, "Spare files"). A rename within a folder
 * costs ~30 µs whatever the churn.
 *
 * A folder gets a spare only from its second write on (one-off writes make none), made one at a
 * time when it has none left. Retention's old files become spares instead of being deleted
 * (`recycle`, up to MAX_READY per folder): in a checkpoint's steady state a write then costs a
 * rename, and nothing is created or deleted. A spare that vanished (a temp sweep took it) is
 * skipped: the write creates its file as before. `drain` deletes a stopped query's spares; one
 * left by a crash is a hidden `.spare.<uuid>.tmp` that nothing reads, deleted when a query next
 * starts on the checkpoint (`sweepLeftSpares` for the log folders, StateFiles' temp sweep for
 * the state folders).
 *
 * One pool per thread (a module instance per worker): each folder is written by one thread.
 */
import { randomUUID } from "node:crypto";
import { promises as fs, renameSync } from "node:fs";
import path from "node:path";

/** A spare's name (also matched by the state folders' temp sweep). */
export const SPARE_NAME_RE = /^\.spare\.[0-9a-f-]+\.tmp$/;

/** Spares a folder keeps at most (more recycled files are deleted). */
const MAX_READY = 2;
/** Spares made at once, all folders together: libuv's pool (4 threads) keeps room for the fdatasyncs. */
const MAX_MAKING = 3;

export class SpareFiles {
  /** Folder → spares ready in it. */
  private readonly ready = new Map<string, string[]>();
  /** Folder → writes seen (a spare is made from the second on). */
  private readonly writes = new Map<string, number>();
  /** Folders whose spare is being made (one at a time). */
  private readonly making = new Set<string>();
  /** Folders that want a spare while MAX_MAKING are being made, in order. */
  private readonly waiting = new Set<string>();
  /** Folder → spares being made or recycled into it (counted against MAX_READY). */
  private readonly incoming = new Map<string, number>();
  /** Every make and recycle in flight, with its folder (drain waits for them). */
  private readonly inflight = new Map<Promise<void>, string>();

  /**
   * Give `tmp` (the path of a temp file about to be written, not existing yet) a spare of its
   * folder: true when `tmp` now exists (empty, or a recycled file's bytes: write it with
   * truncation); false when the caller must create it. Starts making the folder's next spare
   * when none is left.
   */
  claim(tmp: string): boolean {
    const dir = path.dirname(tmp);
    const seen = (this.writes.get(dir) ?? 0) + 1;
    this.writes.set(dir, seen);
    const list = this.ready.get(dir);
    const spare = list?.pop();
    if (seen >= 2 && !list?.length) this.wantSpare(dir);
    if (spare === undefined) return false;
    try {
      renameSync(spare, tmp);
      return true;
    } catch {
      return false; // swept meanwhile: the caller creates its file
    }
  }

  /**
   * Delete `p`, an old checkpoint file (retention) — or keep it as a spare of its folder when
   * that folder is being written and has room: a checkpoint in its steady state then neither
   * creates nor deletes a file per write.
   */
  async recycle(p: string): Promise<void> {
    const dir = path.dirname(p);
    if ((this.writes.get(dir) ?? 0) < 2 || this.room(dir) <= 0 || path.basename(p).startsWith(".")) return fs.unlink(p);
    const spare = path.join(dir, `.spare.${randomUUID()}.tmp`);
    await this.arrive(
      dir,
      fs.rename(p, spare).then(() => spare),
    );
  }

  private room(dir: string): number {
    return MAX_READY - (this.ready.get(dir)?.length ?? 0) - (this.incoming.get(dir) ?? 0);
  }

  /** Make a spare in `dir` now, or once one of the MAX_MAKING being made is done. */
  private wantSpare(dir: string): void {
    if (this.making.has(dir)) return;
    if (this.making.size < MAX_MAKING) this.make(dir);
    else this.waiting.add(dir);
  }

  private make(dir: string): void {
    const spare = path.join(dir, `.spare.${randomUUID()}.tmp`);
    this.making.add(dir);
    const made = fs.open(spare, "wx").then(async (h) => {
      await h.close();
      return spare;
    });
    this.arrive(dir, made)
      .catch(() => {}) // the folder is gone, or full: the next write creates its own file
      .finally(() => {
        this.making.delete(dir);
        const next = this.waiting.values().next();
        if (!next.done) {
          this.waiting.delete(next.value);
          if (!this.ready.get(next.value)?.length) this.wantSpare(next.value);
        }
      });
  }

  /** Count `coming` against the folder's room until it is a spare there; rejects as it does. */
  private async arrive(dir: string, coming: Promise<string>): Promise<void> {
    this.incoming.set(dir, (this.incoming.get(dir) ?? 0) + 1);
    const done = coming.then((spare) => {
      let list = this.ready.get(dir);
      if (!list) this.ready.set(dir, (list = []));
      list.push(spare);
    });
    const tracked = done.catch(() => {});
    this.inflight.set(tracked, dir);
    try {
      await done;
    } finally {
      this.incoming.set(dir, this.incoming.get(dir)! - 1);
      this.inflight.delete(tracked);
    }
  }

  /** Resolves once the spares being made or recycled now are in place (or failed). */
  async made(): Promise<void> {
    await Promise.all(this.inflight.keys());
  }

  /** Is `p` a spare this pool holds ready? */
  holds(p: string): boolean {
    return this.ready.get(path.dirname(p))?.includes(p) ?? false;
  }

  /**
   * Delete the spares in `root` and below (every spare when null), after the ones being made
   * or recycled there; their folders start from no writes seen again.
   */
  async drain(root: string | null = null): Promise<void> {
    const top = root === null ? null : path.resolve(root);
    const within = (dir: string) => {
      const d = path.resolve(dir);
      return top === null || d === top || d.startsWith(top + path.sep);
    };
    for (const dir of [...this.waiting]) if (within(dir)) this.waiting.delete(dir);
    for (;;) {
      const busy = [...this.inflight].filter(([, dir]) => within(dir));
      if (busy.length === 0) break;
      await Promise.all(busy.map(([p]) => p));
    }
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

/**
 * Delete the spares a crashed run left in `dirs` (missing folders are skipped; this thread's
 * own live spares stay). Called with the checkpoint's lock held: no other run writes there.
 */
export async function sweepLeftSpares(dirs: readonly string[]): Promise<void> {
  await Promise.all(
    dirs.map(async (dir) => {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      const left = names.filter((n) => SPARE_NAME_RE.test(n)).map((n) => path.join(dir, n));
      await Promise.all(left.filter((p) => !spareFiles.holds(p)).map((p) => fs.unlink(p).catch(() => {})));
    }),
  );
}
