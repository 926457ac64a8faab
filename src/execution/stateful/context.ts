/**
 * What a streaming operator gets from the micro-batch runtime: the batch's source rows, its
 * state stores, the two watermarks Spark gives each stateful operator, and the batch's
 * `BatchReport` to record metrics, event-time stats, late rows and scan counts in.
 */
import type { Batch } from "../../columnar/batch.js";
import type { PreparedFile } from "../../connectors/source.js";
import type { Attribute } from "../../plan/expressions.js";
import type { ColumnarSchema, ColumnarStateStore } from "../../state/columnar/index.js";
import type { ColumnarJoinStore } from "../../state/join/index.js";
import type { StateStore } from "../../state/store.js";
import type { DataType } from "../../types/datatypes.js";
import type { StatePartitionThreads } from "../parallel/state-threads.js";
import type { BatchReport } from "./batch-report.js";

export interface StateOperatorMetrics {
  operatorName: string;
  numRowsTotal: number;
  numRowsUpdated: number;
  numRowsRemoved: number;
  allUpdatesTimeMs: number;
  allRemovalsTimeMs: number;
  commitTimeMs: number;
  memoryUsedBytes: number;
  numRowsDroppedByWatermark: number;
  /** arus: input rows (not groups) that were late. */
  numLateInputRows: number;
  numShufflePartitions: number;
  numStateStoreInstances: number;
  customMetrics: Record<string, number>;
}

export interface LateRows {
  readonly operatorId: number;
  readonly operatorName: string;
  readonly output: readonly Attribute[];
  readonly batch: Batch;
  /** Watermark the rows were judged against, ms. */
  readonly watermarkMs: number;
  /** Event time (micros) of each late row, to report how late it was. */
  readonly eventTimeMicros: Float64Array;
}

export interface StatefulContext {
  readonly batchId: number;
  readonly outputMode: "append" | "update" | "complete";
  /** W(N): evicts state (emits finished windows). */
  readonly evictionWatermarkMs: number;
  /** W(N-1): drops late input (Spark 3.4+ with allowMultiple=true). */
  readonly lateWatermarkMs: number;
  /**
   * Each stateful operator's own input watermarks, by operator id (watermark-propagation.ts):
   * downstream of a stream-stream join they trail the global ones. Absent: the global ones
   * apply to every operator (allowMultiple=false). Operators read them through `watermarksOf`.
   */
  readonly operatorWatermarks?: ReadonlyMap<number, { readonly evictionMs: number; readonly lateMs: number }>;
  readonly numPartitions: number;
  /** The store of (operator, partition), opened at version batchId. */
  store(operatorId: number, partition: number, storeName?: string): Promise<StateStore>;
  /**
   * arus: the columnar aggregation state of an operator (every partition in one table), opened
   * at version batchId. Absent where the runtime offers no columnar state.
   */
  columnarStore?(operatorId: number, schema: ColumnarSchema): Promise<ColumnarStateStore>;
  /**
   * arus: one side's columnar join state of a stream-stream join in a partition (rows of
   * `types`), opened at version batchId. Absent where the runtime offers no columnar state.
   */
  columnarJoinStore?(operatorId: number, partition: number, side: "left" | "right", types: readonly DataType[]): Promise<ColumnarJoinStore>;
  /**
   * arus: threads that own the state partitions of columnar aggregations (`arus.state.threads`
   * > 1); absent when that state lives on this thread.
   */
  readonly stateThreads?: StatePartitionThreads;
  /**
   * arus: the stores load committed versions from the checkpoint's files (there is a checkpoint
   * directory), so an operator's state can move to the state threads between batches.
   */
  readonly stateInFiles?: boolean;
  /**
   * arus: closes this thread's stores of operator `operatorId`'s columnar state, so the state
   * threads can load its committed version from the files (parallel/state-move.ts); starts the
   * state threads if the query had not (`stateThreads` is set after).
   */
  releaseState?(operatorId: number): Promise<void>;
  /** The rows each source (by source id) contributes to this batch. */
  readonly sourceData: ReadonlyMap<string, readonly Batch[]>;
  /**
   * What a source's file task made of this batch's files, by source id, for the sources read
   * that way (partial aggregation on the decode threads, execution/partial/).
   */
  readonly sourcePrepared?: ReadonlyMap<string, readonly PreparedFile[]>;
  /**
   * What this batch's execution found out: operators record their metrics, event-time stats,
   * late rows and scan counts here; the runtime reads it once the plan has run.
   */
  readonly report: BatchReport;
}

export interface EventTimeStats {
  max: number;
  min: number;
  sum: number;
  count: number;
  /** arus: how far (ms) each row trailed the max event time seen before it, summarized. */
  lateness?: LatenessSamples;
}

/**
 * Lateness (ms) of `count` rows: the largest, and every `step`-th row's (rows 0, step, 2·step…;
 * step = ceil(count / LATENESS_SAMPLES), at least 1), which the percentiles come from (sorting
 * every row's would cost as much as the batch).
 */
export interface LatenessSamples {
  count: number;
  max: number;
  samples: Float64Array;
}

/** At most this many lateness samples per batch and watermark node. */
export const LATENESS_SAMPLES = 16_384;

/** Collects `LatenessSamples` row by row, in row order. */
export class LatenessSampler {
  private readonly step: number;
  private readonly samples: Float64Array;
  private next = 0;
  private row = 0;
  private k = 0;
  private max = 0;
  constructor(private readonly count: number) {
    this.step = Math.max(1, Math.ceil(count / LATENESS_SAMPLES));
    this.samples = new Float64Array(Math.ceil(count / this.step));
  }
  add(lateness: number): void {
    if (lateness > this.max) this.max = lateness;
    if (this.row++ === this.next) {
      this.samples[this.k++] = lateness;
      this.next += this.step;
    }
  }
  result(): LatenessSamples {
    return { count: this.count, max: this.max, samples: this.samples };
  }
}

/** The eviction and late-row watermarks (ms) stateful operator `operatorId` works with in this batch. */
export function watermarksOf(st: StatefulContext, operatorId: number): { evictionMs: number; lateMs: number } {
  const own = st.operatorWatermarks?.get(operatorId);
  return own ? { evictionMs: own.evictionMs, lateMs: own.lateMs } : { evictionMs: st.evictionWatermarkMs, lateMs: st.lateWatermarkMs };
}
