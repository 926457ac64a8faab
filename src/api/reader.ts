/**
 * DataFrameReader (`session.read`): json / csv / parquet / text files and tables. With no
 * schema given, the schema is inferred from the files right away (as Spark does), so `load`
 * returns a DataFrame synchronously.
 */

import { statSync } from "node:fs";
import { IllegalArgumentException } from "../common/errors.js";
import "../connectors/builtin.js";
import { readCommittedFilesSync } from "../connectors/file-stream/index.js";
import { inferFileSchemaSync, listInputFilesSync, READ_ROOTS_OPTION, readRoots, withPartitionColumns } from "../connectors/files/index.js";
import { findOption, lookupBatchSource } from "../connectors/registry.js";
import { attribute } from "../plan/expressions.js";
import { Plans } from "../plan/logical.js";
import { parseSchema } from "../sql/index.js";
import type { StructType } from "../types/datatypes.js";
import { DataFrame } from "./dataframe.js";
import { type OptionValue, setOption, setOptions } from "./options.js";
import type { Session } from "./session.js";

export const FILE_FORMATS = ["json", "csv", "parquet", "text"];

export function checkFormat(format: string): string {
  const f = format.toLowerCase();
  if (!FILE_FORMATS.includes(f)) {
    throw new IllegalArgumentException(
      `[DATA_SOURCE_NOT_FOUND] Failed to find the data source: ${format}. Supported formats: ${FILE_FORMATS.join(", ")}.`,
    );
  }
  return f;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export class DataFrameReader {
  private fmt = "parquet";
  private userSchema: StructType | null = null;
  private readonly opts: Record<string, string> = {};
  /** @internal */
  constructor(private readonly session: Session) {}

  format(source: string): this {
    this.fmt = source.toLowerCase();
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
  load(...paths: string[]): DataFrame {
    const external = lookupBatchSource(this.fmt);
    if (external) {
      const opts = { ...this.opts };
      const schema = external.schema(opts, this.userSchema);
      const output = schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
      return new DataFrame(this.session, Plans.fileRelation(this.fmt, paths, opts, output));
    }
    const format = checkFormat(this.fmt);
    if (paths.length === 0) throw new IllegalArgumentException("'path' is not specified: load() needs at least one path.");
    const opts = { ...this.opts };
    // Loading one directory: partition columns are discovered below it, not above.
    if (paths.length === 1 && findOption(opts, "basePath") === undefined && isDirectory(paths[0]!)) opts.basePath = paths[0]!;
    // Several paths, a glob, a file: partitions below each root only (Spark's base paths).
    else if (findOption(opts, "basePath") === undefined) opts[READ_ROOTS_OPTION] = JSON.stringify(readRoots(paths));
    const files = () =>
      (paths.length === 1 ? readCommittedFilesSync(paths[0]!) : null) ?? paths.flatMap((p) => listInputFilesSync(p, opts, true));
    const tz = this.session.timeZone;
    const schema = this.userSchema
      ? withPartitionColumns(this.userSchema, files(), opts, tz)
      : inferFileSchemaSync(format, files(), opts, tz);
    const output = schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
    return new DataFrame(this.session, Plans.fileRelation(format, paths, opts, output));
  }
  json(...paths: string[]): DataFrame {
    return this.format("json").load(...paths);
  }
  csv(...paths: string[]): DataFrame {
    return this.format("csv").load(...paths);
  }
  parquet(...paths: string[]): DataFrame {
    return this.format("parquet").load(...paths);
  }
  text(...paths: string[]): DataFrame {
    return this.format("text").load(...paths);
  }
  table(name: string): DataFrame {
    return this.session.table(name);
  }
}
