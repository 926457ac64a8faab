/**
 * DataStreamReader (`session.readStream`): a streaming DataFrame over a source from the
 * connector registry (rate, rate-micro-batch, json/csv/parquet/text directories, tables).
 */
import { randomUUID } from "node:crypto";
import { lookupSource } from "../../connectors/registry.js";
import { attribute } from "../../plan/expressions.js";
import { Plans } from "../../plan/logical.js";
import { parseSchema } from "../../sql/index.js";
import type { StructType } from "../../types/datatypes.js";
import { DataFrame } from "../dataframe.js";
import { type OptionValue, setOption, setOptions } from "../options.js";
import type { Session } from "../session.js";
import "../../connectors/builtin.js";

export class DataStreamReader {
  private fmt = "";
  private userSchema: StructType | null = null;
  private readonly opts: Record<string, string> = {};
  /** @internal */
  constructor(private readonly session: Session) {}

  format(source: string): this {
    this.fmt = source;
    return this;
  }
  schema(schema: string | StructType): this {
    this.userSchema = typeof schema === "string" ? parseSchema(schema) : schema;
    return this;
  }
  option(key: string, value: OptionValue): this {
    setOption(this.opts, key, value);
    return this;
  }
  options(opts: Record<string, OptionValue>): this {
    return setOptions(this, opts);
  }
  load(path?: string): DataFrame {
    const options = path === undefined ? { ...this.opts } : { ...this.opts, path };
    const provider = lookupSource(this.fmt || "parquet");
    const inference = this.session.conf.getBool("spark.sql.streaming.schemaInference");
    const schema = provider.schema(options, this.userSchema, this.session.timeZone, inference);
    const output = schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
    return new DataFrame(this.session, Plans.streamingRelation(randomUUID(), this.fmt.toLowerCase(), options, output));
  }
  json(path: string): DataFrame {
    return this.format("json").load(path);
  }
  csv(path: string): DataFrame {
    return this.format("csv").load(path);
  }
  parquet(path: string): DataFrame {
    return this.format("parquet").load(path);
  }
  text(path: string): DataFrame {
    return this.format("text").load(path);
  }
  /** A streaming read of a table written by `writeStream.toTable` or `saveAsTable`. */
  table(name: string): DataFrame {
    return this.format("arus-table")
      .option("table", name)
      .option("spark.sql.warehouse.dir", (this.session as Session).warehouse)
      .load();
  }
}
