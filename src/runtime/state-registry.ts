/**
 * One state store provider per (operator, partition, store name), created on first use and
 * kept for the query's life, so the live state stays loaded between batches. The provider
 * class comes from `spark.sql.streaming.stateStore.providerClass` (sticky: the checkpoint's
 * value wins): the in-memory provider (default; Spark's HDFS-backed class name maps to it) or
 * the lmdb one for state larger than memory (Spark's RocksDB class name maps to it). The lmdb
 * module is imported only when that provider is chosen. docs/state.md.
 */

import path from "node:path";
import { localThreads, type RuntimeConfig } from "../common/conf.js";
import { IllegalArgumentException } from "../common/errors.js";
import type { MoveAfter } from "../execution/parallel/state-move.js";
import { StatePartitionThreads } from "../execution/parallel/state-threads.js";
import { type ColumnarSchema, ColumnarStateProvider, type ColumnarStateStore } from "../state/columnar/index.js";
import { DeferredStateWrites } from "../state/deferred-writes.js";
import { queryStateFs, unsyncedQueryStateFs } from "../state/files.js";
import { ColumnarJoinProvider, type ColumnarJoinStore } from "../state/join/index.js";
import { MemoryStateStoreProvider } from "../state/memory-provider.js";
import type { ProviderOptions } from "../state/provider-base.js";
import type { StateStore, StateStoreProvider } from "../state/store.js";
import type { DataType } from "../types/datatypes.js";
import type { CheckpointStore } from "./checkpoint-store.js";

type ProviderKind = "memory" | "lmdb";
const PROVIDERS: Record<string, ProviderKind> = {
  "arus.state.MemoryStateStoreProvider": "memory",
  "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider": "memory",
  "arus.state.LmdbStateStoreProvider": "lmdb",
  "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider": "lmdb",
};
/** Optional: put the lmdb environments under this local directory instead of the checkpoint. */
export const LMDB_LOCAL_DIR_CONF = "arus.state.lmdb.localDir";
/** Keep streaming aggregation state in the columnar store (sticky: the checkpoint's value wins). */
export const COLUMNAR_AGGREGATION_CONF = "arus.state.aggregation.columnar";
/** min / max of a struct of numbers in the columnar aggregation state (sticky: the checkpoint's value wins). */
export const COLUMNAR_STRUCTS_CONF = "arus.state.aggregation.columnarStructs";
/** Keep stream-stream join state in the columnar join tables (sticky: the checkpoint's value wins). */
export const COLUMNAR_JOIN_CONF = "arus.state.join.columnar";
/**
 * Sliding windows of columnar aggregations aggregate per pane before the window expansion
 * (src/execution/stateful/pane-aggregation.ts; same output). "false" expands every row.
 */
export const PANE_AGGREGATION_CONF = "arus.state.aggregation.panes";
/**
 * Threads owning the columnar aggregation and join state partitions (docs/parallel-execution.md):
 * a number (1: the main thread), "local" for the N of `spark.master` local[N], or "auto" (the
 * default): local[N]'s N for a query whose batches are files read on the decode threads (an
 * aggregation's partial aggregation, or a join's JSON scans, run there), where batches are large
 * enough for the threads to pay, else the main thread.
 */
export const STATE_THREADS_CONF = "arus.state.threads";

/**
 * Under `arus.state.threads` = auto, a columnar aggregation or stream-stream join whose state
 * goes to the state threads keeps it on the main thread until it has spent this long on its
 * state work there in a run (a duration; 0: on the threads from the first batch), then moves it
 * (execution/parallel/state-move.ts). Compiling the operator in every thread's isolate costs
 * 0.5–1 s of wall time on two cores, and the threads win ~20 % back once warm: a query that has
 * not run for a few seconds would not get it back (bench/RESULTS.md, "Issue 21, session 26").
 */
export const STATE_MOVE_AFTER_CONF = "arus.state.threads.moveAfter";

/** Tests: move after this many batches on the main thread instead (the same batch every time). */
export const STATE_MOVE_AFTER_BATCHES_CONF = "arus.test.stateMoveAfterBatches";

/** How long an operator planned on the state threads works on the main thread first: the conf under "auto", nothing with an explicit thread count. */
export function stateMoveAfter(conf: RuntimeConfig): MoveAfter {
  const ms = conf.getMs(STATE_MOVE_AFTER_CONF);
  if (stateThreadSetting(conf) !== "auto") return { ms: 0 };
  const batches = conf.getOption(STATE_MOVE_AFTER_BATCHES_CONF);
  if (batches === undefined) return { ms };
  const n = Number(batches);
  if (!Number.isInteger(n) || n < 0)
    throw new IllegalArgumentException(`${STATE_MOVE_AFTER_BATCHES_CONF} must be a number of batches, got '${batches}'.`);
  return { batches: n };
}

/** What `arus.state.threads` asks for: a thread count, or "auto" (decided per query by `stateThreadCount`). */
export function stateThreadSetting(conf: RuntimeConfig): number | "auto" {
  const v = conf.get(STATE_THREADS_CONF, "auto").trim().toLowerCase();
  if (v === "auto") return "auto";
  if (v === "local") return localThreads(conf.getOption("spark.master"));
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new IllegalArgumentException(`${STATE_THREADS_CONF} must be a positive integer, 'local' or 'auto', got '${v}'.`);
  return n;
}

/**
 * The state thread count for a query. Under "auto", `filesOnDecodeThreads` says whether the
 * query (planned on the main thread) reads its batches on the decode threads (query-execution.ts
 * `planWithStateThreads`): then local[N]'s N (when N >= 2), else 1. Small batches (memory streams, Kafka, rate) keep
 * their state on the main thread, where a batch costs no round trip to other threads.
 */
export function stateThreadCount(conf: RuntimeConfig, filesOnDecodeThreads: () => boolean = () => false): number {
  const setting = stateThreadSetting(conf);
  if (setting !== "auto") return setting;
  const local = localThreads(conf.getOption("spark.master"));
  return local >= 2 && filesOnDecodeThreads() ? local : 1;
}

/**
 * Does this query keep its aggregation state columnar? The conf as the checkpoint froze it,
 * and only with the in-memory provider (the lmdb provider keeps state larger than memory in
 * the row format). Aggregations the columnar store cannot hold still use the row store.
 */
export function columnarAggregationEnabled(checkpoint: Pick<CheckpointStore, "stickyConf">, conf: RuntimeConfig): boolean {
  return stickyFlag(checkpoint, conf, COLUMNAR_AGGREGATION_CONF) && inMemoryProvider(checkpoint, conf);
}

/** A sticky boolean conf as the checkpoint froze it (the session's value for a fresh one). */
function stickyFlag(checkpoint: Pick<CheckpointStore, "stickyConf">, conf: RuntimeConfig, key: string): boolean {
  return (checkpoint.stickyConf[key] ?? conf.get(key, "false")).trim().toLowerCase() === "true";
}

/** Does the query's state live in the in-memory provider (as the checkpoint froze the provider class)? */
function inMemoryProvider(checkpoint: Pick<CheckpointStore, "stickyConf">, conf: RuntimeConfig): boolean {
  const cls =
    checkpoint.stickyConf["spark.sql.streaming.stateStore.providerClass"] ?? conf.get("spark.sql.streaming.stateStore.providerClass");
  return PROVIDERS[cls] === "memory";
}

/**
 * May a columnar aggregation hold min / max of a struct of numbers (one column per field)? The
 * conf as the checkpoint froze it: a checkpoint from before it kept such an aggregation in the
 * row store, and its state files stay readable only there.
 */
export function columnarStructBuffersEnabled(checkpoint: Pick<CheckpointStore, "stickyConf">, conf: RuntimeConfig): boolean {
  return stickyFlag(checkpoint, conf, COLUMNAR_STRUCTS_CONF);
}

/**
 * Does this query keep its stream-stream join state columnar? The conf as the checkpoint froze
 * it (a checkpoint that predates the conf: no), and only with the in-memory provider.
 */
export function columnarJoinEnabled(checkpoint: Pick<CheckpointStore, "stickyConf">, conf: RuntimeConfig): boolean {
  return stickyFlag(checkpoint, conf, COLUMNAR_JOIN_CONF) && inMemoryProvider(checkpoint, conf);
}

export class StateStoreRegistry {
  private readonly providers = new Map<string, StateStoreProvider | ColumnarStateProvider | ColumnarJoinProvider>();
  private batchesSinceMaintenance = 0;
  private readonly kind: ProviderKind;
  private stateThreads: StatePartitionThreads | null = null;
  /** Default fsync mode, with a checkpoint: the deltas' syncs and renames, awaited by flushWrites. */
  private readonly deferred: DeferredStateWrites | null;

  constructor(
    private readonly checkpoint: CheckpointStore,
    private readonly conf: RuntimeConfig,
    /** Threads for the columnar aggregation state (1: this thread). */
    private readonly threadCount = 1,
  ) {
    const cls =
      checkpoint.stickyConf["spark.sql.streaming.stateStore.providerClass"] ?? conf.get("spark.sql.streaming.stateStore.providerClass");
    const kind = PROVIDERS[cls];
    if (!kind) {
      throw new IllegalArgumentException(`Unknown state store provider '${cls}'. Available: ${Object.keys(PROVIDERS).join(", ")}.`);
    }
    this.kind = kind;
    this.deferred = checkpoint.fsync && checkpoint.dir ? new DeferredStateWrites(queryStateFs) : null;
  }

  /**
   * The state deltas this batch wrote, synced and under their names (the loop calls this before
   * `commits/N`; until then their fdatasync runs beside the sink).
   */
  async flushWrites(): Promise<void> {
    await Promise.all([this.deferred?.flush(), this.stateThreads?.flush()]);
  }

  /** The deltas written from now on start their fdatasync once `p` resolves (DeferredStateWrites.gate). */
  gateSyncs(p: Promise<void>): void {
    this.deferred?.gate(p);
  }

  private async create(op: number, partition: number, name: string | undefined): Promise<StateStoreProvider> {
    const dir = this.checkpoint.stateDir(op, partition, name);
    const opts: ProviderOptions = { ...this.retention(), ...this.fs(), ...this.heads() };
    if (this.kind === "memory") return new MemoryStateStoreProvider(dir, opts);
    const { LmdbStateStoreProvider } = await import("../state/lmdb-provider.js");
    const local = this.conf.get(LMDB_LOCAL_DIR_CONF, "");
    const parts = [String(op), String(partition), ...(name && name !== "default" ? [name] : [])];
    // Without a checkpoint the provider uses a temp dir it deletes on close.
    const lmdbDir = local && dir ? path.join(local, this.checkpoint.queryId, ...parts) : undefined;
    return new LmdbStateStoreProvider(dir, { ...opts, lmdbDir });
  }

  async store(op: number, partition: number, name: string | undefined, version: number): Promise<StateStore> {
    const key = `${op}/${partition}/${name ?? "default"}`;
    let p = this.providers.get(key);
    if (!p) {
      p = await this.create(op, partition, name);
      this.providers.set(key, p);
    }
    if (p instanceof ColumnarStateProvider || p instanceof ColumnarJoinProvider)
      throw new Error(`state of operator ${op} is columnar, not a row store`);
    return p.getStore(version);
  }

  /** One side's columnar join state of operator `op` in `partition`, opened at `version`. */
  async columnarJoin(op: number, partition: number, side: string, types: readonly DataType[], version: number): Promise<ColumnarJoinStore> {
    const key = `${op}/${partition}/${side}`;
    let p = this.providers.get(key);
    if (!p) {
      p = new ColumnarJoinProvider(this.checkpoint.stateDir(op, partition, side), types, {
        ...this.retention(),
        ...this.fs(),
        ...this.heads(),
      });
      this.providers.set(key, p);
    }
    if (!(p instanceof ColumnarJoinProvider)) throw new Error(`state of operator ${op} is a row store, not columnar join state`);
    return p.getStore(version);
  }

  /** The columnar aggregation state of operator `op` (all its partitions), opened at `version`. */
  async columnar(op: number, schema: ColumnarSchema, version: number): Promise<ColumnarStateStore> {
    const key = `${op}/columnar`;
    let p = this.providers.get(key);
    if (!p) {
      const dirs = Array.from({ length: this.checkpoint.numShufflePartitions }, (_, i) => this.checkpoint.stateDir(op, i));
      p = new ColumnarStateProvider(dirs, schema, { ...this.retention(), ...this.fs(), ...this.heads() });
      this.providers.set(key, p);
    }
    if (!(p instanceof ColumnarStateProvider)) throw new Error(`state of operator ${op} is a row store, not columnar`);
    return p.getStore(version);
  }

  /** Does the state live in the checkpoint's files (another thread can load a committed version)? */
  get stateInFiles(): boolean {
    return this.checkpoint.dir !== null;
  }

  /**
   * Closes this thread's providers of operator `op`'s columnar state (its state moving to the
   * state threads, which load its committed version from the files: the last commit's deltas
   * are synced and named, and close waits for a maintenance's snapshot).
   */
  async releaseState(op: number): Promise<void> {
    for (const [key, p] of [...this.providers]) {
      if (!(p instanceof ColumnarJoinProvider || p instanceof ColumnarStateProvider) || !key.startsWith(`${op}/`)) continue;
      this.providers.delete(key);
      await p.close();
    }
  }

  /** The threads owning columnar aggregation and join state, started on first use; undefined with one thread. */
  threads(): StatePartitionThreads | undefined {
    if (this.threadCount <= 1) return undefined;
    this.stateThreads ??= new StatePartitionThreads(
      this.threadCount,
      this.checkpoint.numShufflePartitions,
      (op, name) => Array.from({ length: this.checkpoint.numShufflePartitions }, (_, i) => this.checkpoint.stateDir(op, i, name)),
      { ...this.retention(), fsync: this.checkpoint.fsync, deferSyncs: this.deferred !== null },
      this.checkpoint.stateHeads ?? undefined,
    );
    return this.stateThreads;
  }

  /** The state threads if `threads()` started them (the query does, for a plan with columnar aggregations). */
  get startedThreads(): StatePartitionThreads | undefined {
    return this.stateThreads ?? undefined;
  }

  private retention(): Pick<ProviderOptions, "minDeltasForSnapshot" | "minBatchesToRetain"> {
    return {
      minDeltasForSnapshot: this.conf.getInt("spark.sql.streaming.stateStore.minDeltasForSnapshot"),
      minBatchesToRetain: this.conf.getInt("spark.sql.streaming.minBatchesToRetain"),
    };
  }

  /** The state files' file system (with spare files): without fdatasync under `arus.checkpoint.fsync=false`. */
  private fs(): Pick<ProviderOptions, "fs"> {
    if (!this.checkpoint.fsync) return { fs: unsyncedQueryStateFs };
    return { fs: this.deferred ? this.deferred.fs : queryStateFs };
  }

  /** The commit log's word on which state files exist, and the hook that tells it of new ones. */
  private heads(): Pick<ProviderOptions, "requiredHead" | "onDeltaWritten"> {
    const h = this.checkpoint.stateHeads;
    return h ? { requiredHead: h.requiredHead, onDeltaWritten: h.noteWrite } : {};
  }

  /**
   * Snapshot and clean up every few batches (Spark runs this on a 60 s timer, in a thread beside
   * the batches). Resolves once each store has captured its committed state; the files are
   * written and old ones deleted beside the next batch.
   */
  async maintenance(): Promise<void> {
    if (++this.batchesSinceMaintenance < 10) return;
    this.batchesSinceMaintenance = 0;
    for (const p of this.providers.values()) await (p.startMaintenance ? p.startMaintenance() : p.doMaintenance());
    await this.stateThreads?.maintenance();
  }

  async close(): Promise<void> {
    // A failed batch may leave delta renames in flight: let them finish before the stores go.
    await this.deferred?.flush().catch(() => {});
    const threads = this.stateThreads;
    this.stateThreads = null;
    try {
      // Every store closes even if one throws (a failed last maintenance): the first error after.
      const closed = await Promise.allSettled([...this.providers.values()].map((p) => p.close()));
      const failed = closed.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    } finally {
      this.providers.clear();
      await threads?.close(); // the shared threads drop this query's state even if a provider failed
    }
  }
}
