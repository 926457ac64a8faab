/**
 * The streaming sink contract. The micro-batch loop hands a sink each batch's rows once per
 * batch id, and again with the same id and rows when a batch is replayed after a restart; a sink
 * either ignores the replay (memory, file, table sinks: exactly-once output) or delivers it again
 * (console, foreachBatch, foreach: at-least-once, the batch id lets the user deduplicate).
 * Every built-in sink passes test/connectors/conformance/sink-suite.ts.
 */
import type { Batch } from "../columnar/batch.js";
import type { StructType } from "../types/datatypes.js";

export interface StreamSink {
  /** Progress `sink.description`. */
  readonly description: string;
  /** V1 sinks (foreachBatch, file sink, foreach) report numOutputRows = -1, as in Spark. */
  readonly reportsOutputRows: boolean;
  /**
   * `task`: group mode (foreachBatch only, runtime/cluster/task-batch-sink.ts) calls once per
   * task, and `batchId` is then the task's own batch id; (task.task, batchId) is the key a
   * replayed batch comes back under.
   */
  addBatch(batchId: number, data: SinkBatch, task?: SinkTaskContext): Promise<void>;
  stop?(): Promise<void>;
}

/** arus, group mode: which task of which worker of which group a batch belongs to. */
export interface SinkTaskContext {
  readonly task: number;
  readonly worker: string;
  readonly group: string;
}

export interface SinkBatch {
  readonly names: readonly string[];
  readonly schema: StructType;
  readonly batches: readonly Batch[];
  readonly outputMode: "append" | "update" | "complete";
  readonly timeZone: string;
}
