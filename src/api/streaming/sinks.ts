/**
 * Sinks that need the session: memory (results as a table), foreachBatch (a DataFrame per
 * batch) and foreach (a row writer).
 */

import type { Batch } from "../../columnar/batch.js";
import type { SinkBatch, SinkTaskContext, StreamSink } from "../../connectors/sink.js";
import { attribute } from "../../plan/expressions.js";
import { type LogicalPlan, Plans } from "../../plan/logical.js";
import { DataFrame } from "../dataframe.js";
import type { Session } from "../session.js";
import { batchToRows, type Row } from "../values.js";

function batchDataFrame(session: Session, data: SinkBatch): DataFrame {
  const output = data.schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
  return new DataFrame(session, Plans.localRelation(output, data.batches));
}

/** Per session: memory-sink table name (lower case) -> the newest sink's rows as a relation. */
const memoryTables = new WeakMap<Session, Map<string, () => LogicalPlan | undefined>>();

/**
 * Results kept in memory and visible as `session.table(queryName)` from start (empty until the
 * first batch); replayed batch ids are ignored. A new query under the same name replaces the
 * table, as Spark's createOrReplaceTempView does.
 */
export function memorySink(
  session: Session,
  name: string,
  mode: "append" | "update" | "complete",
  outputSchema?: SinkBatch["schema"],
): StreamSink {
  let batches: Batch[] = [];
  let schema: SinkBatch["schema"] | null = outputSchema ?? null;
  let lastBatchId = -1;
  let tables = memoryTables.get(session);
  if (!tables) {
    const byName = new Map<string, () => LogicalPlan | undefined>();
    session.catalog.addTempViewSource({
      names: () => [...byName.keys()],
      lookup: (n) => byName.get(n)?.(),
      drop: (n) => byName.delete(n),
    });
    memoryTables.set(session, (tables = byName));
  }
  tables.set(name.toLowerCase(), () =>
    schema
      ? Plans.localRelation(
          schema.fields.map((f) => attribute(f.name, f.type, f.nullable)),
          batches,
        )
      : undefined,
  );
  return {
    description: "MemorySink",
    reportsOutputRows: true,
    async addBatch(batchId, data) {
      schema = data.schema;
      if (batchId <= lastBatchId) return;
      lastBatchId = batchId;
      batches = mode === "complete" ? [...data.batches] : [...batches, ...data.batches];
    },
  };
}

/**
 * arus: an in-memory table that only grows (late rows): every `append` adds its rows, and the
 * table is readable as `session.table(name)`. Unlike the memory sink it takes several appends
 * per batch id.
 */
export function growingTable(session: Session, name: string): { append(df: DataFrame): Promise<void> } {
  let batches: Batch[] = [];
  let schema: SinkBatch["schema"] | null = null;
  session.catalog.addResolver((n) =>
    n.toLowerCase() === name.toLowerCase() && schema
      ? Plans.localRelation(
          schema.fields.map((f) => attribute(f.name, f.type, f.nullable)),
          batches,
        )
      : undefined,
  );
  return {
    async append(df) {
      schema = df.schema;
      batches = [...batches, ...(await df.executeBatches())];
    },
  };
}

/**
 * foreachBatch's function: Spark's two arguments, and in group mode (arus.cluster.group) a third,
 * `{ task, worker, group }` — there `batchId` counts the task's batches and (ctx.task, batchId)
 * is the idempotency key (docs/scale-out.md, "foreachBatch in group mode").
 */
export type ForeachBatchFunction = (df: DataFrame, batchId: number, ctx?: SinkTaskContext) => unknown;

export function foreachBatchSink(session: Session, fn: ForeachBatchFunction): StreamSink {
  return {
    description: "ForeachBatchSink",
    reportsOutputRows: false,
    async addBatch(batchId, data, task) {
      const df = batchDataFrame(session, data);
      await (task ? fn(df, batchId, { task: task.task, worker: task.worker, group: task.group }) : fn(df, batchId));
    },
  };
}

export interface ForeachWriter {
  open?(partitionId: number, epochId: number): boolean | Promise<boolean>;
  process(row: Row): unknown;
  close?(error: Error | null): unknown;
}

export function foreachSink(w: ForeachWriter | ((row: Row) => unknown)): StreamSink {
  const writer: ForeachWriter = typeof w === "function" ? { process: w } : w;
  return {
    description: "ForeachSink",
    reportsOutputRows: false,
    async addBatch(batchId, data) {
      const open = writer.open ? await writer.open(0, batchId) : true;
      let error: Error | null = null;
      try {
        if (open) {
          for (const b of data.batches) {
            for (const row of batchToRows(
              data.names,
              data.schema.fields.map((f) => f.type),
              b,
            ))
              await writer.process(row);
          }
        }
      } catch (e) {
        error = e as Error;
      }
      await writer.close?.(error);
      if (error) throw error;
    },
  };
}
