/**
 * DataFrameWriter (`df.write`): json / csv / parquet / text files with Spark's save modes.
 */

import { IllegalArgumentException } from "../common/errors.js";
import "../connectors/builtin.js";
import { writeFiles } from "../connectors/files/index.js";
import { lookupBatchSink } from "../connectors/registry.js";
import { saveAsTable } from "../connectors/table/index.js";
import type { DataFrame } from "./dataframe.js";
import { type OptionValue, setOption, setOptions } from "./options.js";
import { checkFormat } from "./reader.js";
import type { Session } from "./session.js";

const MODES = ["append", "overwrite", "error", "errorifexists", "ignore"] as const;
type SaveMode = (typeof MODES)[number];

export class DataFrameWriter {
  private fmt = "parquet";
  private saveMode: SaveMode = "errorifexists";
  private readonly opts: Record<string, string> = {};
  private partitionCols: string[] = [];
  /** @internal */
  constructor(private readonly df: DataFrame) {}

  format(source: string): this {
    this.fmt = source.toLowerCase();
    return this;
  }
  mode(mode: string): this {
    const m = mode.toLowerCase() as SaveMode;
    if (!MODES.includes(m)) {
      throw new IllegalArgumentException(
        `Unknown save mode: ${mode}. Accepted save modes are 'overwrite', 'append', 'ignore', 'error', 'errorifexists', 'default'.`,
      );
    }
    this.saveMode = m;
    return this;
  }
  option(key: string, value: OptionValue): this {
    setOption(this.opts, key, value);
    return this;
  }
  options(opts: Record<string, OptionValue>): this {
    return setOptions(this, opts);
  }
  partitionBy(...cols: (string | string[])[]): this {
    this.partitionCols = cols.flat();
    return this;
  }
  async save(path?: string): Promise<void> {
    const external = lookupBatchSink(this.fmt);
    if (external) {
      const batches = await this.df.executeBatches();
      const schema = this.df.schema;
      await external.write(
        this.opts,
        schema.fields.map((f) => f.name),
        schema,
        batches,
        this.saveMode,
      );
      return;
    }
    const p = path ?? this.opts.path;
    if (!p) throw new IllegalArgumentException("'path' is not specified: save() needs a path.");
    const format = checkFormat(this.fmt);
    const batches = await this.df.executeBatches();
    await writeFiles(format, p, this.df.schema, batches, this.opts, this.saveMode, this.df.session.timeZone, this.partitionCols);
  }
  /** Save as a named table in the warehouse (readable with `session.table(name)`). */
  async saveAsTable(name: string): Promise<void> {
    const session = this.df.session as Session;
    const batches = await this.df.executeBatches();
    await saveAsTable(
      session.warehouse,
      name,
      { schema: this.df.schema, batches, timeZone: session.timeZone },
      this.saveMode,
      this.partitionCols,
    );
  }
  json(path: string): Promise<void> {
    return this.format("json").save(path);
  }
  csv(path: string): Promise<void> {
    return this.format("csv").save(path);
  }
  parquet(path: string): Promise<void> {
    return this.format("parquet").save(path);
  }
  text(path: string): Promise<void> {
    return this.format("text").save(path);
  }
}
