/**
 * Threads that own state partitions (`arus.state.threads` > 1; docs/parallel-execution.md).
 * Thread w owns the partitions p with p mod W = w of every columnar aggregation, keeps their
 * tables in memory across batches and writes their files; the main thread routes each row to
 * the owner of its key's partition (`keyPartitions`, the same hash the files are split by) and
 * merges what the threads answer. Files and versions are laid out exactly as with one thread,
 * so a checkpoint moves between thread counts in both directions.
 *
 * Each thread commits its partitions' state in the request that ran the batch, before the
 * reply: the same point as on the main thread (state before sink, before `commits/N`), so the
 * recovery rule of micro-batch-execution.ts is unchanged. A thread that fails a batch aborts
 * its store before answering; the query then stops with that error.
 */

import { type Batch, makeBatch } from "../../columnar/batch.js";
import { fromPortable, portable, transferListOf } from "../../columnar/transfer.js";
import { scatter, type Vector } from "../../columnar/vector.js";
import { armedCrashPoint } from "../../common/crash-points.js";
import { logWarning } from "../../common/log.js";
import { DedicatedWorker, siblingScript } from "../../common/worker-pool.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import type { ColumnarSchema } from "../../state/columnar/index.js";
import { keyPartitions, ownersOf } from "../../state/columnar/partitioning.js";
import type { ProviderOptions } from "../../state/provider-base.js";
import type { DataType } from "../../types/datatypes.js";
import { type AggregateChunk, type AggregateRunOptions, type AggregateRunResult, aggregateChunk } from "../stateful/aggregation-backend.js";
import type { SideInput } from "../stateful/join-input.js";
import { type JoinOperatorDef, type JoinThreadReply, postRows, type RoutedSide, routeSide } from "./join-routing.js";
import type { JoinRequest } from "./state-thread-join.js";

/** What a thread needs to rebuild a columnar aggregation (plain data: expressions clone). */
/** What a state thread's providers are made with (plain data: it is posted to the thread). */
export interface StateThreadProviderOptions extends Pick<ProviderOptions, "minDeltasForSnapshot" | "minBatchesToRetain"> {
  /** `arus.checkpoint.fsync` (false: the state files are not fdatasynced). */
  readonly fsync?: boolean;
  /**
   * The deltas' fdatasync off the batch's path, as on the main thread (state/deferred-writes.ts):
   * a thread answers once a delta's temp file is written; its sync and rename finish by the
   * `flush` request the loop sends before `commits/N`.
   */
  readonly deferSyncs?: boolean;
}

export interface ColumnarOperatorDef {
  readonly operatorId: number;
  readonly groupingExprs: readonly Expr[];
  readonly aggregateExprs: readonly Expr[];
  readonly childOutput: readonly Attribute[];
  /** `arus.state.aggregation.columnarStructs` as the query planned it (ColumnarPlanOptions). */
  readonly structBuffers: boolean;
  /** Expression ids below this are taken on the main thread (`reserveExprIds`). */
  readonly exprIdsInUse: number;
}

export type StateThreadRequest =
  | {
      readonly kind: "aggregate";
      /** The query run whose state this is (threads are shared by the process's queries). */
      readonly query: string;
      readonly op: ColumnarOperatorDef;
      /** `<ckpt>/state/<op>/<p>` of every partition (null without a checkpoint). */
      readonly dirs: readonly (string | null)[];
      readonly owned: readonly number[];
      readonly providerOptions: StateThreadProviderOptions;
      /** Per partition: the newest version <= `version` the commit log says has a file (0: none known). */
      readonly requiredHeads: readonly number[];
      /** The state version the batch opens (= the batch id). */
      readonly version: number;
      readonly chunks: readonly AggregateChunk[];
      readonly options: AggregateRunOptions;
      /** The crash point armed on the main thread (tests), armed here too. */
      readonly crashPoint: string | undefined;
    }
  | (JoinRequest & {
      readonly kind: "join";
      readonly providerOptions: StateThreadProviderOptions;
      readonly crashPoint: string | undefined;
    })
  | { readonly kind: "maintenance"; readonly query: string; readonly crashPoint: string | undefined }
  /** Every delta of the query written so far synced and under its name (`deferSyncs`). */
  | { readonly kind: "flush"; readonly query: string }
  /** Close the query's providers (the thread stays for other queries). */
  | { readonly kind: "close"; readonly query: string };

export interface AggregateThreadReply extends AggregateRunResult {
  /** Distinct event times (micros) of the groups still open, for explainWatermark. */
  readonly openEventTimes: readonly number[];
  /** Partitions whose commit wrote a delta (the commit log lists them). */
  readonly writtenPartitions: readonly number[];
}
export type StateThreadReply = AggregateThreadReply | JoinThreadReply | null;

export interface MergedAggregateResult extends Omit<AggregateRunResult, "output"> {
  /** Output rows, one batch per thread that had any, in thread order. */
  readonly output: Batch[];
  readonly openEventTimes: number[];
}

const SCRIPT = siblingScript(import.meta.url, "state-thread");

type StateThread = DedicatedWorker<StateThreadRequest, StateThreadReply>;
/**
 * The process's state threads, shared by its queries as Spark's executors are: a thread boots
 * (loads the engine) once, and its compiled code stays warm from one query to the next. Idle
 * threads do not keep the process alive. A thread that died is replaced on the next query.
 */
const shared: StateThread[] = [];

function sharedThreads(n: number): StateThread[] {
  for (let i = 0; i < n; i++) {
    if (!shared[i] || shared[i]!.dead) shared[i] = new DedicatedWorker<StateThreadRequest, StateThreadReply>(SCRIPT);
  }
  return shared.slice(0, n);
}

let queries = 0;

/** One query run's use of the state threads. */
export class StatePartitionThreads {
  private readonly threads: StateThread[];
  /** Names this query run's providers on the shared threads. */
  private readonly query = `q${++queries}`;
  /** Batches run on state threads in this process (tests check the setting took effect). */
  static batchesRun = 0;
  /** Chunks that came routed by stage A on the decode threads (tests check they did). */
  static chunksRoutedAhead = 0;
  /** Join sides whose rows came split by owner from the decode threads (tests check they did). */
  static joinSidesRoutedAhead = 0;

  constructor(
    readonly size: number,
    readonly numPartitions: number,
    /** `<ckpt>/state/<op>/<p>[/<store>]` of every partition p (null without a checkpoint). */
    private readonly stateDirs: (operatorId: number, storeName?: string) => (string | null)[],
    private readonly providerOptions: StateThreadProviderOptions,
    /** What the commit log says about state files (runtime/state-heads.ts); the threads get plain data. */
    private readonly heads?: {
      requiredHead(dir: string, version: number): number;
      noteWrite(dir: string, version: number): void;
    },
  ) {
    if (!(size >= 2)) throw new RangeError(`state threads: ${size} (use the main thread for 1)`);
    this.threads = sharedThreads(size);
  }

  /** The partitions thread w owns. */
  owned(w: number): number[] {
    const out: number[] = [];
    for (let p = w; p < this.numPartitions; p += this.size) out.push(p);
    return out;
  }

  /**
   * Run one batch of a columnar aggregation: every thread gets a request (its stores advance a
   * version even without rows), with the rows whose keys fall in its partitions.
   */
  async aggregate(
    op: ColumnarOperatorDef,
    schema: ColumnarSchema,
    version: number,
    chunks: readonly AggregateChunk[],
    options: Omit<AggregateRunOptions, "globalRow">,
    globalAggregate: boolean,
  ): Promise<MergedAggregateResult> {
    StatePartitionThreads.batchesRun++;
    const W = this.size;
    const routed = this.route(schema, chunks);
    // A global aggregate's one row lives in the partition of the empty key.
    const globalOwner = globalAggregate ? keyPartitions(schema, [], 1, this.numPartitions)[0]! % W : -1;
    const dirs = this.stateDirs(op.operatorId);
    const replies = await Promise.all(
      this.threads.map((t, w) => {
        const mine = routed[w]!.map(postedChunk);
        const transfer = transferListOf(mine.flatMap((c) => [...c.keys, ...c.inputs.flat()]));
        return t.call(
          {
            kind: "aggregate",
            query: this.query,
            op,
            dirs,
            owned: this.owned(w),
            providerOptions: this.providerOptions,
            requiredHeads: dirs.map((d) => (d && this.heads ? this.heads.requiredHead(d, version) : 0)),
            version,
            chunks: mine,
            options: { ...options, globalRow: w === globalOwner },
            crashPoint: armedCrashPoint(),
          },
          transfer,
        ) as Promise<AggregateThreadReply>;
      }),
    );
    for (const r of replies) for (const p of r.writtenPartitions) if (dirs[p]) this.heads?.noteWrite(dirs[p]!, version + 1);
    return {
      output: replies.flatMap((r) => (r.output ? [r.output] : [])),
      numRowsUpdated: sum(replies, (r) => r.numRowsUpdated),
      numRowsRemoved: sum(replies, (r) => r.numRowsRemoved),
      numRowsTotal: sum(replies, (r) => r.numRowsTotal),
      memoryUsedBytes: sum(replies, (r) => r.memoryUsedBytes),
      // the threads run side by side: the batch waited for the slowest
      allUpdatesTimeMs: Math.max(...replies.map((r) => r.allUpdatesTimeMs)),
      allRemovalsTimeMs: Math.max(...replies.map((r) => r.allRemovalsTimeMs)),
      commitTimeMs: Math.max(...replies.map((r) => r.commitTimeMs)),
      openEventTimes: replies.flatMap((r) => r.openEventTimes),
    };
  }

  /**
   * Run one batch of a stream-stream join (join-routing.ts): every thread gets a request (its
   * partitions' stores advance a version even without rows) with the rows of its partitions;
   * the output comes back one thread after another, as columns of this thread (`types`).
   */
  async join(
    op: JoinOperatorDef,
    version: number,
    left: SideInput | RoutedSide,
    right: SideInput | RoutedSide,
    evictionMs: number,
    evalContext: AggregateRunOptions["eval"],
    types: readonly DataType[],
  ): Promise<Omit<JoinThreadReply, "writtenDirs">> {
    StatePartitionThreads.batchesRun++;
    const W = this.size;
    const post = (side: SideInput | RoutedSide) => {
      if (!("byOwner" in side)) return routeSide(side, W);
      StatePartitionThreads.joinSidesRoutedAhead++;
      return postRows(side.byOwner, { timeCol: side.timeCol, lateMicros: side.lateMicros, numPartitions: this.numPartitions, owners: W });
    };
    const l = post(left);
    const r = post(right);
    const dirs = { left: this.stateDirs(op.operatorId, "left"), right: this.stateDirs(op.operatorId, "right") };
    const headsOf = (ds: readonly (string | null)[]) => ds.map((d) => (d && this.heads ? this.heads.requiredHead(d, version) : 0));
    const requiredHeads = { left: headsOf(dirs.left), right: headsOf(dirs.right) };
    const replies = (await Promise.all(
      this.threads.map((t, w) =>
        t.call(
          {
            kind: "join",
            query: this.query,
            op,
            dirs,
            owned: this.owned(w),
            providerOptions: this.providerOptions,
            requiredHeads,
            version,
            left: l.sides[w]!,
            right: r.sides[w]!,
            evictionMs,
            eval: evalContext,
            crashPoint: armedCrashPoint(),
          },
          [...l.transfer[w]!, ...r.transfer[w]!],
        ),
      ),
    )) as JoinThreadReply[];
    for (const reply of replies) for (const d of reply.writtenDirs) this.heads?.noteWrite(d, version + 1);
    return {
      output: replies.flatMap((reply) =>
        reply.output.map((b) =>
          makeBatch(
            b.columns.map((c, i) => fromPortable(c, types[i]!)),
            b.numRows,
          ),
        ),
      ),
      lateRows: sum(replies, (x) => x.lateRows),
      numRowsUpdated: sum(replies, (x) => x.numRowsUpdated),
      numRowsRemoved: sum(replies, (x) => x.numRowsRemoved),
      numRowsTotal: sum(replies, (x) => x.numRowsTotal),
      memoryUsedBytes: sum(replies, (x) => x.memoryUsedBytes),
    };
  }

  /** Split each chunk's rows by the thread owning their key's partition (fresh copies: they move to the threads). */
  private route(schema: ColumnarSchema, chunks: readonly AggregateChunk[]): AggregateChunk[][] {
    const W = this.size;
    const out: AggregateChunk[][] = Array.from({ length: W }, () => []);
    for (const c of chunks) {
      const n = c.n;
      if (n === 0) continue;
      // routed by stage A on the decode threads (its arrays are this batch's own: they can move)
      if (c.owner !== undefined && c.owners === W) {
        StatePartitionThreads.chunksRoutedAhead++;
        out[c.owner]!.push(c);
        continue;
      }
      const { owner, counts } = ownersOf(keyPartitions(schema, c.keys, n, this.numPartitions), n, W);
      const keys = c.keys.map((k) => scatter(k, owner, counts));
      const inputs = c.inputs.map((vs) => vs.map((v) => scatter(v, owner, counts)));
      for (let w = 0; w < W; w++) {
        if (counts[w] === 0) continue;
        out[w]!.push({ ...c, keys: keys.map((k) => k[w]!), inputs: inputs.map((vs) => vs.map((v) => v[w]!)), n: counts[w]! });
      }
    }
    return out;
  }

  /** Every delta the threads wrote for this query synced and renamed; throws a thread's first failure. */
  async flush(): Promise<void> {
    if (!this.providerOptions.deferSyncs) return;
    await Promise.all(this.threads.map((t) => t.call({ kind: "flush", query: this.query })));
  }

  /** Snapshots and retention on every thread (the registry's maintenance turn). */
  async maintenance(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.call({ kind: "maintenance", query: this.query, crashPoint: armedCrashPoint() })));
  }

  /** Close this query's state on every thread; the threads stay for the next query. */
  async close(): Promise<void> {
    await Promise.all(
      this.threads.map((t) =>
        t.dead
          ? undefined
          : t
              .call({ kind: "close", query: this.query })
              .catch((e: Error) => logWarning("StateStore", `closing the query's state on a state thread: ${e.message}`)),
      ),
    );
  }
}

/**
 * A chunk ready to post: UTF-8 STRING vectors as their bytes and offsets (moved), not as the JS
 * strings a structured clone would decode every row to (`arrivedChunk` on the thread undoes it).
 */
function postedChunk(c: AggregateChunk): AggregateChunk {
  return { ...c, keys: c.keys.map(portable), inputs: c.inputs.map((vs) => vs.map(portable)) };
}

/** A posted chunk as vectors of this thread (`postedChunk`'s inverse). */
export function arrivedChunk(c: AggregateChunk): AggregateChunk {
  const back = (v: Vector) => fromPortable(v, v.type);
  return aggregateChunk(
    c.keys.map(back),
    c.inputs.map((vs) => vs.map(back)),
    c.n,
    c.partial,
    c.rows,
    c.owner,
    c.owners,
  );
}

function sum<T>(xs: readonly T[], f: (x: T) => number): number {
  let s = 0;
  for (const x of xs) s += f(x);
  return s;
}
