/**
 * One query per checkpoint, across processes: an exclusive `.arus-lock` file in the checkpoint
 * folder holding the owner's pid and start time, created in one step (temp file + link, which
 * fails when the lock exists). A lock whose process is gone (killed) is taken over atomically: it
 * is renamed to a name only this taker uses, and deleted only if that file still holds the stale
 * content that was judged; if another query's fresh lock was moved instead, it is put back and
 * this query stops. Anything unexpected (a lock that cannot be read, a directory at the lock
 * path) stops the query: it never runs without the lock. Used by checkpoint-store.ts.
 */
import { randomUUID } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { nodeFs, writeAtomic } from "../checkpoint/atomic-file.js";
import { ArusError } from "../common/errors.js";

/** Lock files held by queries of this process. */
const heldLocks = new Set<string>();
let lockQueue: Promise<void> = Promise.resolve();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** When this process started (ms since the epoch): with the pid, what a lock names its owner by. */
const PROCESS_START_MS = Math.round(Date.now() - process.uptime() * 1000);
/** This process's lock content: pid and start time, so a reused pid is not taken for the owner. */
const LOCK_TOKEN = `${process.pid} ${PROCESS_START_MS}`;

/**
 * When process `pid` started (ms since the epoch), from Linux's /proc (start ticks after boot at
 * USER_HZ = 100, the boot time in seconds); null where that cannot be read (another OS).
 */
function startMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(btime) ? btime * 1000 + ticks * 10 : null;
  } catch {
    return null;
  }
}

/**
 * Whether the owner a lock names is still running: its pid is alive and, when the lock records
 * a start time and /proc tells the pid's, they agree (a pid reused by another process since,
 * e.g. after a reboot or container restart, is not the owner).
 */
function ownerAlive(pid: number, startMs: number | null): boolean {
  if (!isAlive(pid)) return false;
  if (startMs === null) return true;
  const actual = startMsOf(pid);
  return actual === null || Math.abs(actual - startMs) < 10_000;
}

function lockError(lock: string, why: string): ArusError {
  return new ArusError("CHECKPOINT_LOCK", `Checkpoint lock ${lock}: ${why}. The query does not run without its lock.`);
}

/** The lock of the checkpoint at `dir` (null: a query without a checkpoint location, which takes none). */
export class CheckpointLock {
  private locked: string | null = null;

  constructor(private readonly dir: string | null) {}

  /** Takes the lock, or throws CONCURRENT_QUERY (another query holds it) or CHECKPOINT_LOCK. */
  acquire(): Promise<void> {
    // Queries of this process take locks one at a time (their lock content, the process's token, is the same).
    const run = lockQueue.then(() => this.acquireNow());
    lockQueue = run.catch(() => {});
    return run;
  }

  private async acquireNow(): Promise<void> {
    if (!this.dir) return;
    const lock = path.join(this.dir, ".arus-lock");
    const token = LOCK_TOKEN;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeAtomic(nodeFs, lock, token, false);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "EEXIST") throw lockError(lock, `it cannot be created (${code ?? String(e)})`);
        await this.takeOverStale(lock);
        continue;
      }
      // Verify: a racing taker may only move a lock whose content it judged stale, never ours.
      const now = await fs.readFile(lock, "utf8").catch(() => "");
      if (now !== token) {
        throw new ArusError(
          "CONCURRENT_QUERY",
          `Checkpoint ${this.dir} is in use by another query: its lock ${lock} changed while this query took it.`,
        );
      }
      heldLocks.add(lock);
      this.locked = lock;
      return;
    }
    throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir}: could not take its lock ${lock} (other queries keep taking it).`);
  }

  /** Remove the lock at `lock` if its owner is gone; throw CONCURRENT_QUERY if it is alive. */
  private async takeOverStale(lock: string): Promise<void> {
    const st = await fs.lstat(lock).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw lockError(lock, `it cannot be examined (${e.code})`);
    });
    if (st === null) return; // released meanwhile: try again
    if (!st.isFile()) throw lockError(lock, "it is not a regular file (a directory or other object is in the way); remove it");
    const content = await fs.readFile(lock, "utf8").catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw lockError(lock, `it cannot be read (${e.code})`);
    });
    if (content === null) return;
    const [pidText, startText] = content.trim().split(/\s+/);
    const pid = Number(pidText || "0");
    const startMs = startText !== undefined && /^\d+$/.test(startText) ? Number(startText) : null;
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && ownerAlive(pid, startMs)) {
      throw new ArusError(
        "CONCURRENT_QUERY",
        `Checkpoint ${this.dir} is in use by another running query (process ${pid}, named by its lock ${lock}). Only one query may use a checkpointLocation at a time; stop it or use another location.`,
      );
    }
    // Our pid but not held here: left by an earlier process with the same pid (a restarted
    // container's pid 1), as stale as a dead pid's.
    if (pid === process.pid && heldLocks.has(lock)) {
      throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir} is already used by an active query in this process.`);
    }
    const aside = `${lock}.${randomUUID()}.stale`;
    try {
      await fs.rename(lock, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // another taker removed it first
      throw lockError(lock, `the stale lock cannot be removed (${(e as NodeJS.ErrnoException).code})`);
    }
    const moved = await fs.readFile(aside, "utf8").catch(() => null);
    if (moved === content) {
      await fs.unlink(aside).catch(() => {});
      return;
    }
    // Another query replaced the stale lock between our read and our rename: give it back.
    try {
      await fs.link(aside, lock);
    } finally {
      await fs.unlink(aside).catch(() => {});
    }
    throw new ArusError("CONCURRENT_QUERY", `Checkpoint ${this.dir} is in use by another query that just took its lock ${lock}.`);
  }

  /** Removes the lock if this query still holds it. */
  async release(): Promise<void> {
    if (this.locked) {
      heldLocks.delete(this.locked);
      // Only our own lock is removed (a lock taken over by another process after ours went stale stays).
      const content = await fs.readFile(this.locked, "utf8").catch(() => null);
      if (content === LOCK_TOKEN) await fs.unlink(this.locked).catch(() => {});
    }
    this.locked = null;
  }
}
