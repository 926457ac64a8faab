/**
 * The file source's seen-file log (Spark's FileStreamSourceLog): log offset N lists the files
 * handed out as part of offset N, so `getBatch` after a restart reads exactly the same files.
 * Kept in `<checkpoint>/sources/<i>/N`; without a checkpoint it lives in memory only.
 */

import { join } from "node:path";
import { checkpointFs } from "../../checkpoint/atomic-file.js";
import { ArusError } from "../../common/errors.js";
import { writeAtomic } from "./atomic.js";
import { listLog, logCorrupt, readLog, serializeLog } from "./metadata-log.js";

/** One line of a log file; `path` is a file URI, `timestamp` the file's mtime in ms. */
export interface FileEntry {
  readonly path: string;
  readonly timestamp: number;
  readonly batchId: number;
}

export class FileStreamSourceLog {
  /** Entries by log offset; on disk the files are the truth and this is a cache. */
  private readonly batches = new Map<number, readonly FileEntry[]>();
  private latest = -1;

  private constructor(private readonly dir: string | null) {}

  /** Opens the log, reading every entry already on disk (they seed the seen-file set). */
  static async open(dir: string | null): Promise<FileStreamSourceLog> {
    const log = new FileStreamSourceLog(dir);
    if (dir) {
      let expected = -1;
      for (const f of await listLog(dir)) {
        // A `.compact` file holds every entry up to its id (written by Spark's own log).
        const entries = await readLog<FileEntry>(dir, f);
        const where = join(dir, f.name);
        // Offsets are contiguous and each file's entries carry its id: a lost, copied or swapped
        // file would silently drop or repeat input files.
        if (expected >= 0 && f.id !== expected && !f.compact) {
          throw logCorrupt(where, `log offset ${expected} has no file (${join(dir, String(expected))} is missing) but ${where} follows it`);
        }
        if (!f.compact && entries.some((e) => typeof e.batchId === "number" && e.batchId !== f.id)) {
          throw logCorrupt(where, `its entries belong to log offset ${entries.find((e) => e.batchId !== f.id)!.batchId}, not ${f.id}`);
        }
        expected = f.id + 1;
        if (!f.compact) log.batches.set(f.id, entries);
        else log.setGrouped(entries);
        log.latest = Math.max(log.latest, f.id);
      }
    }
    return log;
  }

  private setGrouped(entries: readonly FileEntry[]): void {
    const groups = new Map<number, FileEntry[]>();
    for (const e of entries) {
      let g = groups.get(e.batchId);
      if (!g) groups.set(e.batchId, (g = []));
      g.push(e);
    }
    for (const [id, g] of groups) this.batches.set(id, g);
  }

  /** The newest log offset, -1 when nothing was ever handed out. */
  latestOffset(): number {
    return this.latest;
  }

  /** Records `entries` as log offset `id`; ids are contiguous and never rewritten. */
  async add(id: number, entries: readonly FileEntry[]): Promise<void> {
    if (this.dir && !(await writeAtomic(this.dir, String(id), serializeLog(entries), false, checkpointFs))) {
      throw new ArusError(
        "CONCURRENT_STREAM_LOG_UPDATE",
        `[CONCURRENT_STREAM_LOG_UPDATE] Concurrent update to the log. Multiple streaming jobs detected for ${id}. Please make sure only one streaming job runs on a specific checkpoint location at a time.`,
      );
    }
    this.batches.set(id, entries);
    this.latest = Math.max(this.latest, id);
  }

  /**
   * Stop, naming the missing file, if the offset log handed out log offset `offset` but this
   * log does not reach it (its newest file was lost): the offset would be given to other files,
   * which the engine then takes as already processed.
   */
  checkReaches(offset: number): void {
    if (this.dir && offset > this.latest) {
      const missing = join(this.dir, String(this.latest + 1));
      throw logCorrupt(
        missing,
        `the file is missing: the offset log says log offset ${offset} was handed out, but this log ends at ${this.latest < 0 ? "no offset" : `offset ${this.latest}`}`,
      );
    }
  }

  /** Entries of offsets in [from, to], in offset order; an offset with no entries is a lost file. */
  get(from: number, to: number): FileEntry[] {
    const out: FileEntry[] = [];
    for (let id = Math.max(0, from); id <= to; id++) {
      const b = this.batches.get(id);
      if (b === undefined && this.dir) {
        throw logCorrupt(
          join(this.dir, String(id)),
          `the file is missing: log offset ${id} is part of offsets ${from}..${to}, which a batch reads`,
        );
      }
      out.push(...(b ?? []));
    }
    return out;
  }

  all(): FileEntry[] {
    return this.get(0, this.latest);
  }
}
