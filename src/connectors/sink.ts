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
  addBatch(batchId: number, data: SinkBatch): Promise<void>;
  stop?(): Promise<void>;
}

export interface SinkBatch {
  readonly names: readonly string[];
  readonly schema: StructType;
  readonly batches: readonly Batch[];
  readonly outputMode: "append" | "update" | "complete";
  readonly timeZone: string;
}
