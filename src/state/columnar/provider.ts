/**
 * The columnar aggregation state of one stateful operator: one `ColumnarTable` in memory for
 * all its partitions (or those a state thread owns: `owned`), and the usual versioned files per partition
 * (`<ckpt>/state/<op>/<partition>/<v>.delta|snapshot`, format 3, files.ts + format.ts).
 *
 * An entry's partition is a hash of its key values, so each partition's files hold a disjoint
 * set of keys, as with the row store; it is computed when files are written, never per update.
 *
 * Versions follow the row providers (provider-base.ts): batch N opens version N and commits
 * N+1; a commit supersedes every file of versions >= N+1 in every partition, then writes one
 * delta per partition that changed (removes first, then puts); abort restores the table to
 * version N (undo log, table.ts); loading version v reads, per partition, the newest snapshot
 * <= v and the deltas after it, checking the `prev` chain; maintenance writes a partition's
 * snapshot once `minDeltasForSnapshot` deltas piled up, then applies retention.
 */
import { crashPoint } from "../../common/crash-points.js";
import { COLUMNAR_FORMAT_VERSION } from "../codec.js";
import { nodeStateFs, StateFiles } from "../files.js";
import { type ProviderOptions, StateStoreClosedError, snapshotVersion, VersionedProvider } from "../provider-base.js";
import type { StateStoreMetrics } from "../store.js";
import { distinctEventTimes } from "./event-time.js";
import { type ChunkSource, type ColumnarChunk, ENTRIES_PER_CHUNK, encodeColumnarFile, readColumnarFile } from "./format.js";
import type { ColumnarSchema } from "./schema.js";
import { ColumnarTable } from "./table.js";

const OPEN = 0;
const COMMITTED = 1;
const ABORTED = 2;

function* chunksOf(table: ColumnarTable, kind: "puts" | "removes", ids: Int32Array): Generator<ChunkSource> {
  for (let o = 0; o < ids.length; o += ENTRIES_PER_CHUNK) {
    const part = ids.subarray(o, Math.min(ids.length, o + ENTRIES_PER_CHUNK));
    yield { kind, n: part.length, keys: () => table.keyVectors(part), buffers: () => table.bufferVectors(part) };
  }
}

/** Split ids by partition, keeping their order. */
function byPartition(table: ColumnarTable, ids: Int32Array, numPartitions: number): Int32Array[] {
  if (numPartitions === 1) return [ids];
  const parts = table.partitionsOf(ids, numPartitions);
  const counts = countPerPartition(parts, ids.length, numPartitions);
  const out = Array.from({ length: numPartitions }, (_, p) => new Int32Array(counts[p]!));
  scatterIds(ids, parts, out);
  return out;
}

// byPartition's loops, each a function of its own (docs/architecture.md, "Hot path rules").
function countPerPartition(parts: Int32Array, n: number, numPartitions: number): Int32Array {
  const counts = new Int32Array(numPartitions);
  for (let i = 0; i < n; i++) counts[parts[i]!]!++;
  return counts;
}

function scatterIds(ids: Int32Array, parts: Int32Array, out: Int32Array[]): void {
  const filled = new Int32Array(out.length);
  for (let i = 0; i < ids.length; i++) {
    const p = parts[i]!;
    out[p]![filled[p]!++] = ids[i]!;
  }
}

/** Versions, the open store, serialisation and close come from `VersionedProvider` (provider-base.ts). */
export class ColumnarStateProvider extends VersionedProvider<ColumnarStateStore> {
  private table: ColumnarTable;
  /** The files of each owned partition, in partition order; null without a checkpoint. */
  private readonly files: { readonly partition: number; readonly files: StateFiles }[] | null;

  constructor(
    /** `<ckpt>/state/<op>/<partition>` per partition; null entries (no checkpoint) keep no files. */
    readonly dirs: readonly (string | null)[],
    readonly schema: ColumnarSchema,
    private readonly opts: ProviderOptions,
    /**
     * The partitions this provider holds (default: all). A thread that owns some partitions
     * (docs/parallel-execution.md) loads and writes only theirs; its table must only ever
     * receive keys of those partitions (`keyPartitions`, partitioning.ts).
     */
    readonly owned: readonly number[] = dirs.map((_, p) => p),
  ) {
    super();
    if (dirs.length === 0) throw new RangeError("a columnar state provider needs at least one partition");
    if (owned.some((p) => !(Number.isInteger(p) && p >= 0 && p < dirs.length)) || new Set(owned).size !== owned.length) {
      throw new RangeError(`owned partitions [${owned.join(", ")}]: distinct integers in 0..${dirs.length - 1} expected`);
    }
    this.files = dirs.every((d) => d !== null)
      ? owned.map((p) => ({ partition: p, files: new StateFiles(dirs[p]!, opts.fs ?? nodeStateFs) }))
      : null;
    this.table = new ColumnarTable(schema);
  }

  get numPartitions(): number {
    return this.dirs.length;
  }

  protected newStore(version: number): ColumnarStateStore {
    this.table.beginBatch();
    return new ColumnarStateStore(this, version, this.table);
  }

  protected async load(version: number): Promise<void> {
    const hadState = this.version > 0;
    this.table = new ColumnarTable(this.schema);
    this.version = -1;
    if (version === 0) {
      this.version = 0;
      return;
    }
    if (!this.files) {
      if (hadState) throw new Error(`state version ${version} is not available: there is no checkpoint location to load it from`);
      this.version = version;
      return;
    }
    const table = this.table;
    const apply = (c: ColumnarChunk) => {
      if (c.kind === "puts") {
        const ids = table.lookupOrInsert(c.keys, c.n);
        table.setBuffers(
          ids,
          c.n,
          c.buffers.map((b) => b.values as Float64Array | BigInt64Array),
          c.buffers.map((b) => b.validity),
        );
      } else {
        const ids = table.lookup(c.keys, c.n);
        table.remove(ids.filter((e) => e >= 0));
      }
    };
    const decode = (src: Parameters<typeof readColumnarFile>[0], file: string, onHeader: Parameters<typeof readColumnarFile>[3]) =>
      readColumnarFile(src, file, this.schema, onHeader);
    for (const { files } of this.files) {
      const plan = await files.plan(version, this.opts.requiredHead?.(files.dir, version) ?? 0);
      if (plan.snapshot > 0) for await (const c of files.readWith(plan.snapshot, "snapshot", decode)) apply(c);
      for (const d of plan.deltas) for await (const c of files.readWith(d, "delta", decode)) apply(c);
    }
    this.version = version;
  }

  /** @internal the store's commit: files first, then the table forgets the batch's undo log. */
  commitStore(store: ColumnarStateStore): Promise<number> {
    return this.serial(async () => {
      this.assertCurrent(store);
      const next = store.version + 1;
      this.lastCommitFileBytes = 0;
      const table = this.table;
      const partOnly = this.owned.length < this.numPartitions;
      if (this.files || partOnly) {
        const puts = byPartition(table, table.changedIds(), this.numPartitions);
        const removes = byPartition(table, table.removedIds(), this.numPartitions);
        // checked with or without files: a key in two threads' tables would split its group
        if (partOnly) this.checkOwned(puts, removes);
        // The partitions' deltas are written side by side: each waits for its fdatasync on the
        // thread pool while the next is encoded and written, and the disk flushes them together.
        const writes = (this.files ?? []).map(async ({ partition: p, files }) => {
          await files.supersede(next);
          if (puts[p]!.length === 0 && removes[p]!.length === 0) return;
          const chunks = function* () {
            yield* chunksOf(table, "removes", removes[p]!);
            yield* chunksOf(table, "puts", puts[p]!);
          };
          await files.writeEncoded(
            next,
            "delta",
            (prev, fileId) => encodeColumnarFile(this.schema, "delta", next, prev, fileId, chunks()),
            {},
            COLUMNAR_FORMAT_VERSION,
          );
          this.lastCommitFileBytes += files.lastWriteBytes;
          this.opts.onDeltaWritten?.(files.dir, next);
        });
        const failed = (await Promise.allSettled(writes)).find((r) => r.status === "rejected");
        if (failed) throw failed.reason;
      }
      this.table.commitBatch();
      this.version = next;
      this.released(store);
      return next;
    });
  }

  /** Keys of a partition this provider does not own would never reach a file: refuse the commit. */
  private checkOwned(puts: readonly Int32Array[], removes: readonly Int32Array[]): void {
    const mine = new Set(this.owned);
    for (let p = 0; p < this.numPartitions; p++) {
      if (!mine.has(p) && puts[p]!.length + removes[p]!.length > 0) {
        throw new Error(`state of partition ${p} reached the provider of partitions [${this.owned.join(", ")}] (${this.dirs[p]})`);
      }
    }
  }

  /** @internal */
  abortStore(store: ColumnarStateStore): void {
    this.table.abortBatch();
    this.released(store);
  }

  /**
   * Snapshot the partitions with enough deltas since their last snapshot (encoded now, from the
   * committed table), then retention; the partitions' files side by side, so their fdatasyncs
   * overlap instead of queueing.
   */
  protected async captureMaintenance(): Promise<(() => Promise<void>) | null> {
    const all = this.files;
    if (!all || this.version <= 0) return null;
    const v = this.version;
    const busy = this.openStore?.hasChanges() ?? false;
    const table = this.table;
    let live: Int32Array[] | null = null;
    const writes = await Promise.all(
      all.map(async ({ partition: p, files }) => {
        await files.scan();
        await files.sweepTemps();
        const at = snapshotVersion(files, v, busy, this.opts.minDeltasForSnapshot);
        if (at === 0) return null;
        live ??= byPartition(table, table.liveIds(), this.numPartitions);
        const ids = live[p]!;
        return files.encodeForLater(
          at,
          "snapshot",
          (prev, fileId) => encodeColumnarFile(this.schema, "snapshot", at, prev, fileId, chunksOf(table, "puts", ids)),
          COLUMNAR_FORMAT_VERSION,
        );
      }),
    );
    return async () => {
      // Done only when every partition is; the first failure is thrown then.
      const settled = await Promise.allSettled(
        all.map(async ({ files }, i) => {
          await writes[i]?.({ afterFirstChunk: () => crashPoint("insideStateSnapshot", v - 1) });
          await files.retain(v, this.opts.minBatchesToRetain);
        }),
      );
      const failed = settled.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    };
  }

  protected async closeLive(): Promise<void> {
    this.table = new ColumnarTable(this.schema);
  }

  /** The distinct event times of the live entries (cheap for window keys: their dictionary). */
  distinctEventTimes(col: number): number[] {
    return distinctEventTimes(this.table, col);
  }

  /** @internal */
  metricsOf(): Record<string, number> {
    return {
      ...this.providerMetrics(),
      stateOnCurrentVersionSizeBytes: this.table.bytes(),
      lastCommitFileBytes: this.lastCommitFileBytes,
    };
  }
}

/**
 * One batch's view of the columnar state: lookups insert and mark entries (the aggregation
 * then merges into `table.bv` at those ids), removals, commit, abort. After commit or abort it
 * refuses changes; reads still show the live table.
 */
export class ColumnarStateStore {
  private state = OPEN;
  private updated = 0;
  private removedCount = 0;

  constructor(
    private readonly provider: ColumnarStateProvider,
    /** The version this store was loaded at. */
    readonly version: number,
    readonly table: ColumnarTable,
  ) {}

  private checkOpen(): void {
    if (this.state !== OPEN) throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
  }

  /**
   * Entry ids of the rows' keys, inserting new ones; the entries count as updated by this
   * batch. `ordinals` receives each row's batch-local group id (table.ts `lookupOrInsert`).
   */
  lookupOrInsert(keys: Parameters<ColumnarTable["lookupOrInsert"]>[0], n: number, out?: Int32Array, ordinals?: Int32Array): Int32Array {
    this.checkOpen();
    return this.table.lookupOrInsert(keys, n, out, ordinals);
  }

  remove(ids: ArrayLike<number>, n: number = ids.length): void {
    this.checkOpen();
    const before = this.table.numLive;
    this.table.remove(ids, n);
    this.removedCount += before - this.table.numLive;
  }

  get numKeys(): number {
    return this.table.numLive;
  }

  hasChanges(): boolean {
    return this.state === OPEN && this.table.hasChanges();
  }

  async commit(): Promise<number> {
    this.checkOpen();
    this.updated = this.table.touchedIds().length;
    let v: number;
    try {
      v = await this.provider.commitStore(this);
    } catch (e) {
      // A failed write leaves no new version: the table goes back to exactly `version`.
      this.abort();
      throw e;
    }
    this.state = COMMITTED;
    return v;
  }

  abort(): void {
    if (this.state !== OPEN) return;
    this.state = ABORTED;
    this.updated = 0;
    this.removedCount = 0;
    this.provider.abortStore(this);
  }

  /** Exact bytes of the table's typed arrays and dictionaries. */
  memoryUsedBytes(): number {
    return this.table.bytes();
  }

  metrics(): StateStoreMetrics {
    return {
      numKeys: this.table.numLive,
      numUpdatedKeys: this.state === OPEN ? this.table.touchedIds().length : this.updated,
      numRemovedKeys: this.removedCount,
      memoryUsedBytes: this.table.bytes(),
      customMetrics: this.provider.metricsOf(),
    };
  }
}
