/**
 * The `StatefulContext` of one micro-batch: the batch's source rows and watermarks, its state
 * stores opened at version batchId through the query's state registry (each one remembered, so
 * a failed batch aborts them all), and the `BatchReport` the operators fill in.
 */
import type { Batch } from "../columnar/batch.js";
import type { PreparedFile } from "../connectors/source.js";
import type { PhysicalOperator } from "../execution/operator.js";
import type { StatePartitionThreads } from "../execution/parallel/state-threads.js";
import { BatchReport } from "../execution/stateful/batch-report.js";
import type { StatefulContext } from "../execution/stateful/context.js";
import type { ColumnarSchema, ColumnarStateStore } from "../state/columnar/index.js";
import type { ColumnarJoinStore } from "../state/join/index.js";
import type { StateStore } from "../state/store.js";
import type { DataType } from "../types/datatypes.js";
import type { StateStoreRegistry } from "./state-registry.js";

export interface BatchStateSpec {
  readonly batchId: number;
  readonly outputMode: "append" | "update" | "complete";
  readonly evictionWatermarkMs: number;
  readonly lateWatermarkMs: number;
  readonly operatorWatermarks?: ReadonlyMap<number, { readonly evictionMs: number; readonly lateMs: number }>;
  readonly numPartitions: number;
  readonly sourceData: ReadonlyMap<string, readonly Batch[]>;
  readonly sourcePrepared?: ReadonlyMap<string, readonly PreparedFile[]>;
  readonly physical: PhysicalOperator;
}

export class MicroBatchState implements StatefulContext {
  readonly batchId: number;
  readonly outputMode: "append" | "update" | "complete";
  readonly evictionWatermarkMs: number;
  readonly lateWatermarkMs: number;
  readonly operatorWatermarks?: ReadonlyMap<number, { readonly evictionMs: number; readonly lateMs: number }>;
  readonly numPartitions: number;
  readonly sourceData: ReadonlyMap<string, readonly Batch[]>;
  readonly sourcePrepared?: ReadonlyMap<string, readonly PreparedFile[]>;
  readonly report: BatchReport;
  stateThreads?: StatePartitionThreads;
  readonly stateInFiles: boolean;
  private readonly opened: Pick<StateStore, "abort">[] = [];

  constructor(
    spec: BatchStateSpec,
    private readonly states: StateStoreRegistry,
  ) {
    this.batchId = spec.batchId;
    this.outputMode = spec.outputMode;
    this.evictionWatermarkMs = spec.evictionWatermarkMs;
    this.lateWatermarkMs = spec.lateWatermarkMs;
    if (spec.operatorWatermarks) this.operatorWatermarks = spec.operatorWatermarks;
    this.numPartitions = spec.numPartitions;
    this.sourceData = spec.sourceData;
    if (spec.sourcePrepared) this.sourcePrepared = spec.sourcePrepared;
    this.report = new BatchReport(spec.batchId, spec.physical);
    const threads = states.startedThreads;
    if (threads) this.stateThreads = threads;
    this.stateInFiles = states.stateInFiles;
  }

  async store(operatorId: number, partition: number, storeName?: string): Promise<StateStore> {
    const s = await this.states.store(operatorId, partition, storeName, this.batchId);
    this.opened.push(s);
    return s;
  }

  async columnarStore(operatorId: number, schema: ColumnarSchema): Promise<ColumnarStateStore> {
    const s = await this.states.columnar(operatorId, schema, this.batchId);
    this.opened.push(s);
    return s;
  }

  async columnarJoinStore(
    operatorId: number,
    partition: number,
    side: "left" | "right",
    types: readonly DataType[],
  ): Promise<ColumnarJoinStore> {
    const s = await this.states.columnarJoin(operatorId, partition, side, types, this.batchId);
    this.opened.push(s);
    return s;
  }

  /** Moves operator `operatorId`'s state off this thread; the state threads start if they had not. */
  async releaseState(operatorId: number): Promise<void> {
    await this.states.releaseState(operatorId);
    this.stateThreads ??= this.states.threads();
  }

  /** The batch failed: drop what every store opened for it had written. */
  abortAll(): void {
    for (const s of this.opened) s.abort();
  }
}
