/**
 * The state deltas' fdatasync off the batch's path (default `arus.checkpoint.fsync` mode): a
 * StateFs for the providers whose delta writes return once the temp file is written. Its
 * fdatasync runs on the thread pool, and only when it is done is the file closed and renamed
 * to `<v>.delta`; `flush()` waits for all of that. The loop flushes before it writes
 * `commits/N`, so the sink's round trip overlaps the disk and `commits/N` still never exists
 * without the state files it vouches for (docs/reliability.md, "What is durable before what").
 *
 * Only deltas are deferred: snapshots are written by maintenance's files half (beside the next
 * batch, provider-base.ts), right before the retention that sweeps temp files.
 */
import { withPath } from "../common/errors.js";
import { nodeStateFs, type StateFs } from "./files.js";

export class DeferredStateWrites {
  /** Temp file → its fdatasync and close, started by the writer's sync(). */
  private readonly synced = new Map<string, Promise<void>>();
  /** Renames waiting for their file's sync. */
  private pending: Promise<void>[] = [];
  /** The deltas' fdatasyncs start once this resolves (gate). */
  private gated: Promise<void> = Promise.resolve();
  readonly fs: StateFs;

  constructor(base: StateFs = nodeStateFs) {
    const openWrite = base.openWrite;
    if (!openWrite) throw new Error("DeferredStateWrites needs a StateFs that streams writes (openWrite)");
    this.fs = {
      ...base,
      openWrite: async (p) => {
        const out = await openWrite.call(base, p);
        if (!isDeltaTemp(p)) return out;
        let syncing: Promise<void> | null = null;
        return {
          write: (b) => out.write(b),
          sync: async () => {
            syncing = this.gated.then(() => out.sync());
            syncing.catch(() => {});
          },
          close: async () => {
            if (!syncing) return out.close();
            // The descriptor stays open until its fdatasync is done, whatever the outcome.
            const done = syncing.finally(() => out.close());
            done.catch(() => {});
            this.synced.set(p, done);
          },
        };
      },
      rename: async (from, to, overwrite) => {
        const synced = this.synced.get(from);
        if (!synced) return base.rename(from, to, overwrite);
        this.synced.delete(from);
        const done = synced.then(
          () => base.rename(from, to, overwrite),
          async (e) => {
            await base.unlink(from).catch(() => {});
            throw withPath(e, "write", to);
          },
        );
        done.catch(() => {});
        this.pending.push(done);
      },
    };
  }

  /**
   * Start the next deltas' fdatasyncs only once `p` resolves (the loop passes "offsets/N is
   * named"): they are then issued beside the offsets folder's fsync, and a journaled file
   * system commits them together, one disk wait instead of two.
   */
  gate(p: Promise<void>): void {
    this.gated = p;
  }

  /** Every delta written so far synced and under its name; throws the first failure. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const all = this.pending;
    this.pending = [];
    const failed = (await Promise.allSettled(all)).find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
}

/** A delta's temp file as StateFiles names it: `.<version>.delta.<uuid>.tmp`. */
function isDeltaTemp(p: string): boolean {
  return /[/\\]\.\d+\.delta\.[^/\\]+\.tmp$/.test(p);
}
