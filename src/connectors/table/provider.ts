/**
 * Streaming over tables, registered as format "arus-table": `readStream.table(name)` is the file
 * source over the table's manifest, and `writeStream.toTable(name)` appends each micro-batch as
 * one table version, idempotently per (checkpoint, batchId). Options: `table` (the name; the
 * sink also accepts the context path) and `spark.sql.warehouse.dir` / `warehouse`.
 */
import { createHash, randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { IllegalArgumentException } from "../../common/errors.js";
import { namedSchema } from "../file-stream/sink.js";
import { FileStreamSource } from "../file-stream/source.js";
import { findOption, type SinkContext, type SinkProvider, type SourceProvider } from "../registry.js";
import type { SinkBatch, StreamSink } from "../sink.js";
import { parseTableName, tableDir, warehouseDir } from "./layout.js";
import { appendToTable, createTableSync, TABLE_FORMAT, tableInfoSync, tableNotFound } from "./table.js";

export const TABLE_SOURCE_FORMAT = "arus-table";

function tableName(options: Readonly<Record<string, string>>, fallback: string | null = null): string {
  const name = findOption(options, "table") ?? fallback;
  if (!name) throw new IllegalArgumentException("'table' is not specified");
  return name;
}

/** Options for the file source: the table's directory instead of its name. */
function sourceOptions(options: Readonly<Record<string, string>>, dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(options))
    if (!["table", "warehouse", "spark.sql.warehouse.dir"].includes(k.toLowerCase())) out[k] = v;
  out.path = dir;
  return out;
}

export const tableSourceProvider: SourceProvider = {
  schema(options, userSchema) {
    if (userSchema) throw new IllegalArgumentException("User specified schema not supported with `table`.");
    const name = tableName(options);
    const t = tableInfoSync(warehouseDir(options), name);
    if (!t) throw tableNotFound(name);
    return t.schema;
  },
  create(options, schema, ctx) {
    const name = tableName(options);
    const t = tableInfoSync(warehouseDir(options), name);
    if (!t) throw tableNotFound(name);
    return new FileStreamSource(TABLE_FORMAT, sourceOptions(options, t.dir), schema, ctx);
  },
};

/** A writer id stable across restarts of the same query: derived from its checkpoint. */
function writerId(ctx: SinkContext): string {
  const basis = ctx.checkpointDir ? resolve(ctx.checkpointDir) : randomUUID();
  return createHash("sha256").update(basis).digest("hex").slice(0, 16);
}

class TableSink implements StreamSink {
  readonly reportsOutputRows = false;
  readonly description: string;
  private readonly warehouse: string;
  private readonly name: string;
  private readonly writer: string;

  constructor(private readonly ctx: SinkContext) {
    this.warehouse = warehouseDir(ctx.options);
    this.name = tableName(ctx.options, ctx.path);
    this.writer = writerId(ctx);
    // Spark's toTable on a file table runs a FileSink over the table's location.
    this.description = `FileSink[file:${tableDir(this.warehouse, parseTableName(this.name))}]`;
  }

  async addBatch(batchId: number, data: SinkBatch): Promise<void> {
    // toTable creates a missing table with the query's schema (normally at start, by the caller).
    createTableSync(this.warehouse, this.name, namedSchema(data), { partitionBy: this.ctx.partitionBy, ifNotExists: true });
    await appendToTable(
      this.warehouse,
      this.name,
      { schema: namedSchema(data), batches: data.batches, timeZone: data.timeZone },
      { txn: { writer: this.writer, batchId }, options: this.ctx.options },
    );
  }
}

export const tableSinkProvider: SinkProvider = {
  outputModes: ["append"],
  create: (ctx) => new TableSink(ctx),
};
