/**
 * Batch scan of json / csv / parquet / text files through the file connectors.
 */
import type { Batch } from "../../columnar/batch.js";
import { AnalysisException } from "../../common/errors.js";
import { readCommittedFiles } from "../../connectors/file-stream/index.js";
import { listInputFiles, readFiles } from "../../connectors/files/index.js";
import { corruptColumnName, SourceOptions } from "../../connectors/files/options.js";
import { partitionSpecFor } from "../../connectors/files/partitions.js";
import { lookupBatchSource } from "../../connectors/registry.js";
import type { Attribute } from "../../plan/expressions.js";
import { field, StructOf } from "../../types/datatypes.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

/**
 * Spark refuses a scan of a raw JSON or CSV file that reads nothing but the corrupt-record column
 * (its value depends on which other columns are parsed, and none would be), partition columns
 * (from the files' `k=v` directories) aside.
 */
function refuseOnlyCorruptColumn(
  format: string,
  options: Readonly<Record<string, string>>,
  output: readonly Attribute[],
  files: readonly string[],
): void {
  if (format !== "json" && format !== "csv") return;
  const o = new SourceOptions(options);
  const parts = new Set(files.flatMap((f) => partitionSpecFor(f, o).map(([k]) => k.toLowerCase())));
  const data = output.filter((a) => !parts.has(a.name.toLowerCase()));
  if (data.length !== 1 || data[0]!.name !== corruptColumnName(o)) return;
  throw new AnalysisException(
    "UNSUPPORTED_FEATURE.QUERY_ONLY_CORRUPT_RECORD_COLUMN",
    "[UNSUPPORTED_FEATURE.QUERY_ONLY_CORRUPT_RECORD_COLUMN] The feature is not supported: Queries from raw JSON/CSV/XML files are disallowed when the\n" +
      "referenced columns only include the internal corrupt record column\n" +
      "(named `_corrupt_record` by default). For example:\n" +
      '`spark.read.schema(schema).json(file).filter($"_corrupt_record".isNotNull).count()`\n' +
      'and `spark.read.schema(schema).json(file).select("_corrupt_record").show()`.\n' +
      "Instead, you can cache or save the parsed results and then send the same query.\n" +
      "For example, `val df = spark.read.schema(schema).json(file).cache()` and then\n" +
      '`df.filter($"_corrupt_record".isNotNull).count()`.',
  );
}

function positionIn(all: readonly Attribute[], a: Attribute): number {
  const i = all.findIndex((d) => d.exprId === a.exprId);
  if (i < 0) throw new Error(`FileScan: column ${a.name}#${a.exprId} is not among the files' columns`);
  return i;
}

export class FileScanExec implements PhysicalOperator {
  readonly name = "FileScan";
  readonly children = [];
  constructor(
    readonly format: string,
    readonly paths: readonly string[],
    readonly options: Readonly<Record<string, string>>,
    readonly output: readonly Attribute[],
    /** A pruned CSV scan: the files' columns, of which `output` is a subset (logical.ts FileRelation). */
    readonly dataOutput?: readonly Attribute[],
  ) {}
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const all = this.dataOutput ?? this.output;
    const schema = StructOf(all.map((a) => field(a.name, a.type, a.nullable)));
    const external = lookupBatchSource(this.format);
    if (external) return external.read(this.options, schema, ctx.eval.timeZone);
    // A single directory written by a streaming file sink is read through its manifest, so
    // files of uncommitted (or failed) batches stay invisible, as in Spark.
    const committed = this.paths.length === 1 ? await readCommittedFiles(this.paths[0]!) : null;
    const files = committed ?? (await Promise.all(this.paths.map((p) => listInputFiles(p, this.options, true)))).flat();
    refuseOnlyCorruptColumn(this.format, this.options, this.output, files);
    const read = this.dataOutput ? this.output.map((a) => positionIn(all, a)) : undefined;
    return readFiles(this.format, files, schema, { ...this.options }, ctx.eval.timeZone, read);
  }
  describe(): string {
    return `${this.format} [${this.output.map((a) => `${a.name}#${a.exprId}`).join(", ")}] Location: [${this.paths.join(", ")}]`;
  }
}
