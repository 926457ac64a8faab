/**
 * DataStreamWriter (`df.writeStream`): sink, output mode, trigger, options, then `start()`.
 * Misuse (wrong output mode for the query, memory sink without queryName, file sink without
 * path) fails at start() with a message saying what to change.
 */
import { IllegalArgumentException } from "../../common/errors.js";
import { lookupSink } from "../../connectors/registry.js";
import type { StreamSink } from "../../connectors/sink.js";
import { clusterOptions } from "../../runtime/query-execution.js";
import type { TriggerSpec } from "../../runtime/trigger.js";
import { parseTrigger } from "../../runtime/trigger.js";
import type { DataFrame } from "../dataframe.js";
import { type OptionValue, setOption, setOptions } from "../options.js";
import type { Session } from "../session.js";
import type { Row } from "../values.js";
import { StreamingQuery } from "./query.js";
import { type ForeachBatchFunction, type ForeachWriter, foreachBatchSink, foreachSink, growingTable, memorySink } from "./sinks.js";
import "../../connectors/builtin.js";
import { createTableSync } from "../../connectors/table/index.js";

export type OutputMode = "append" | "update" | "complete";
export type LateRowsHandler = (late: DataFrame, batchId: number) => void | Promise<void>;

export class DataStreamWriter {
  private fmt = "";
  private mode: OutputMode = "append";
  private triggerSpec: TriggerSpec | undefined;
  private readonly opts: Record<string, string> = {};
  private name: string | null = null;
  private partitionCols: string[] = [];
  private batchFn: ForeachBatchFunction | null = null;
  private rowWriter: ForeachWriter | ((row: Row) => unknown) | null = null;
  private lateHandler: LateRowsHandler | null = null;
  private clockOverride: import("../../runtime/clock.js").Clock | null = null;

  /** @internal */
  constructor(private readonly df: DataFrame) {}

  format(source: string): this {
    this.fmt = source.toLowerCase();
    return this;
  }
  outputMode(mode: string): this {
    const m = mode.toLowerCase();
    if (m !== "append" && m !== "update" && m !== "complete") {
      throw new IllegalArgumentException(`Unknown output mode ${mode}. Accepted output modes are 'append', 'complete', 'update'`);
    }
    this.mode = m;
    return this;
  }
  trigger(spec: TriggerSpec): this {
    parseTrigger(spec);
    this.triggerSpec = spec;
    return this;
  }
  option(key: string, value: OptionValue): this {
    setOption(this.opts, key, value);
    return this;
  }
  options(opts: Record<string, OptionValue>): this {
    return setOptions(this, opts);
  }
  queryName(name: string): this {
    this.name = name;
    return this;
  }
  partitionBy(...cols: (string | string[])[]): this {
    this.partitionCols = cols.flat();
    return this;
  }
  /**
   * Call `fn(batchDf, batchId)` for every micro-batch, including empty no-data batches. In group
   * mode (arus.cluster.group) it is called once per task that ran, with a third argument
   * `{ task, worker, group }`: batchId counts that task's batches, and a batch replayed after a
   * failure comes back with the same (ctx.task, batchId) and rows (docs/scale-out.md).
   */
  foreachBatch(fn: ForeachBatchFunction): this {
    this.batchFn = fn;
    this.fmt = "foreachbatch";
    return this;
  }
  /** Call a row function, or an { open, process, close } writer, for every output row. */
  foreach(writer: ForeachWriter | ((row: Row) => unknown)): this {
    this.rowWriter = writer;
    this.fmt = "foreach";
    return this;
  }
  /**
   * arus: receive the input rows that watermarks dropped, with `_late_operator`,
   * `_late_watermark` and `_late_by_ms` columns added. Spark drops them silently.
   */
  onLateRows(handler: LateRowsHandler): this {
    this.lateHandler = handler;
    return this;
  }
  /** @internal test kit: drive triggers with a manual clock. */
  withClock(clock: import("../../runtime/clock.js").Clock): this {
    this.clockOverride = clock;
    return this;
  }

  /** Start the query; `path` is the output directory of file sinks. */
  async start(path?: string): Promise<StreamingQuery> {
    const session = this.df.session as Session;
    const format = this.fmt || "parquet";
    const trigger = parseTrigger(this.triggerSpec);
    const checkpoint = this.opts.checkpointLocation ?? checkpointFromConf(session, this.name);
    const outPath = path ?? this.opts.path ?? null;
    const makeSink = (): StreamSink => {
      if (format === "foreachbatch") return foreachBatchSink(session, this.batchFn!);
      if (format === "foreach") return foreachSink(this.rowWriter!);
      if (format === "memory") {
        if (!this.name) throw new IllegalArgumentException("queryName must be specified for memory sink");
        return memorySink(session, this.name, this.mode, this.df.schema);
      }
      const provider = lookupSink(format);
      const compact = session.conf.getOption("spark.sql.streaming.fileSink.log.compactInterval");
      if (compact !== undefined) this.opts["spark.sql.streaming.fileSink.log.compactInterval"] ??= compact;
      if (!provider.outputModes.includes(this.mode)) {
        throw new IllegalArgumentException(
          `Data source ${format} does not support ${this.mode[0]!.toUpperCase()}${this.mode.slice(1)} output mode; use ${provider.outputModes.join(" or ")}.`,
        );
      }
      return provider.create({
        options: this.opts,
        path: outPath,
        queryName: this.name,
        checkpointDir: checkpoint,
        partitionBy: this.partitionCols,
        timeZone: session.timeZone,
        outputMode: this.mode,
        schema: this.df.schema,
      });
    };
    let lateRows = this.lateHandler;
    const lateTable = this.opts.lateRowsTable;
    if (lateTable) {
      // arus: late rows land in an in-memory table, queryable as session.table(lateTable).
      const table = growingTable(session, lateTable);
      const user = lateRows;
      lateRows = async (df, batchId) => {
        await table.append(df);
        await user?.(df, batchId);
      };
    }
    // arus: group mode, this process one worker of many (docs/scale-out.md).
    const cluster = clusterOptions(this.opts);
    return StreamingQuery.start({
      session,
      df: this.df,
      name: this.name,
      outputMode: this.mode,
      trigger,
      checkpointLocation: checkpoint,
      makeSink,
      lateRows,
      clock: this.clockOverride,
      cluster: cluster ? { options: cluster, sinkFormat: format, sinkOptions: { ...this.opts } } : null,
    });
  }

  /** Write to a table (created if missing) and start. */
  async toTable(name: string): Promise<StreamingQuery> {
    const session = this.df.session as Session;
    createTableSync(session.warehouse, name, this.df.schema, { partitionBy: this.partitionCols, ifNotExists: true });
    this.fmt = "arus-table";
    this.opts.table = name;
    this.opts["spark.sql.warehouse.dir"] = session.warehouse;
    return this.start();
  }
}

function checkpointFromConf(session: Session, name: string | null): string | null {
  const root = session.conf.getOption("spark.sql.streaming.checkpointLocation");
  if (!root) return null;
  return `${root}/${name ?? crypto.randomUUID()}`;
}
