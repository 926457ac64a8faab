/**
 * Reading the next trigger's files while the current batch runs. A file read ahead is used only
 * if its mtime and size are still those seen before the read started; otherwise it is read
 * again, as without read-ahead. Files read ahead but not asked for by the next batch are dropped.
 */
import { stat } from "node:fs/promises";
import type { Batch } from "../../columnar/batch.js";

type Read<T> = (path: string) => Promise<T>;

interface Pending<T> {
  /** mtime and size before the read started (null if the file was gone). */
  readonly version: Promise<string | null>;
  readonly batches: Promise<T>;
}

async function fileVersion(path: string): Promise<string | null> {
  const st = await stat(path).catch(() => null);
  return st ? `${st.mtimeMs}:${st.size}` : null;
}

/** `T`: what one file reads as (its batches, or what a file task made of it). */
export class ReadAhead<T = Batch[]> {
  private pending = new Map<string, Pending<T>>();

  constructor(private readonly read: Read<T>) {}

  /** Starts reading `paths`; a failure is reported only if and when a batch asks for the file. */
  start(paths: readonly string[]): void {
    for (const path of paths) {
      const version = fileVersion(path);
      const batches = version.then(() => this.read(path));
      batches.catch(() => {});
      this.pending.set(path, { version, batches });
    }
  }

  /** Is every one of `paths` being read ahead already? */
  covers(paths: readonly string[]): boolean {
    return paths.every((p) => this.pending.has(p));
  }

  /**
   * What each of `paths` reads as, in order, from the reads started ahead where still valid.
   * Takes the pending reads at the call (reads started after it are kept for the next call).
   */
  async readAll(paths: readonly string[]): Promise<T[]> {
    const ahead = this.pending;
    this.pending = new Map();
    const out: T[] = [];
    for (const path of paths) out.push(await this.readOne(ahead.get(path), path));
    return out;
  }

  clear(): void {
    this.pending = new Map();
  }

  private async readOne(hit: Pending<T> | undefined, path: string): Promise<T> {
    if (hit) {
      const [before, now] = await Promise.all([hit.version, fileVersion(path)]);
      if (before !== null && before === now) return hit.batches;
    }
    return this.read(path);
  }
}
