/**
 * The test kit's sink: Spark's MemorySink semantics (append/update accumulate, complete keeps
 * only the latest batch, a batch id at or below the last stored one is ignored), but one sink
 * object outlives stop/start, as in Spark's StreamTest, so answers accumulate across restarts
 * and a batch replayed after a restart is visibly ignored. It is registered as a sink format so
 * the query goes through the ordinary `writeStream` path (output-mode checks included).
 */
import { randomUUID } from "node:crypto";
import { batchToRows, type Row } from "../api/values.js";
import { registerSink } from "../connectors/registry.js";
import type { SinkBatch, StreamSink } from "../connectors/sink.js";
import type { StructType } from "../types/datatypes.js";

export const KIT_SINK_FORMAT = "arus-testkit-memory";

/** One batch the sink stored. */
export interface SinkBatchRows {
  readonly batchId: number;
  readonly rows: readonly Row[];
}

export class KitSink implements StreamSink {
  readonly id = randomUUID();
  readonly description = "MemorySink";
  readonly reportsOutputRows = true;
  private readonly stored: SinkBatchRows[] = [];
  private readonly replays: number[] = [];
  private outSchema: StructType | null = null;

  constructor(readonly outputMode: "append" | "update" | "complete") {
    live.set(this.id, this);
  }

  async addBatch(batchId: number, data: SinkBatch): Promise<void> {
    this.outSchema = data.schema;
    const last = this.stored.at(-1)?.batchId ?? -1;
    if (batchId <= last) {
      this.replays.push(batchId);
      return;
    }
    const types = data.schema.fields.map((f) => f.type);
    const rows = data.batches.flatMap((b) => batchToRows(data.names, types, b));
    this.stored.push({ batchId, rows });
  }

  /** Every stored batch, oldest first (empty no-data batches included). */
  get batches(): readonly SinkBatchRows[] {
    return this.stored;
  }
  /** What `session.table(queryName)` of a memory sink would show. */
  get allRows(): Row[] {
    if (this.outputMode === "complete") return [...(this.stored.at(-1)?.rows ?? [])];
    return this.stored.flatMap((b) => b.rows);
  }
  /** The output of the most recent batch (possibly an empty no-data batch). */
  get lastBatch(): SinkBatchRows | null {
    return this.stored.at(-1) ?? null;
  }
  get lastBatchId(): number {
    return this.stored.at(-1)?.batchId ?? -1;
  }
  /** Rows of the batches after `batchId`. */
  rowsAfter(batchId: number): Row[] {
    return this.stored.filter((b) => b.batchId > batchId).flatMap((b) => b.rows);
  }
  /** Batch ids that arrived again (re-executed after a restart) and were ignored. */
  get replayedBatchIds(): readonly number[] {
    return this.replays;
  }
  /** The output schema, once a batch arrived. */
  get schema(): StructType | null {
    return this.outSchema;
  }

  release(): void {
    live.delete(this.id);
  }
}

const live = new Map<string, KitSink>();

registerSink(KIT_SINK_FORMAT, {
  outputModes: ["append", "update", "complete"],
  create(ctx) {
    const sink = live.get(ctx.options.kitSinkId ?? "");
    if (!sink) throw new Error(`The test kit sink ${ctx.options.kitSinkId} is gone (its testStream() call has finished).`);
    return sink;
  },
});
