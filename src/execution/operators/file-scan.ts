/**
 * Batch scan of json / csv / parquet / text files through the file connectors.
 */
import type { Batch } from "../../columnar/batch.js";
import { readCommittedFiles } from "../../connectors/file-stream/index.js";
import { listInputFiles, readFiles } from "../../connectors/files/index.js";
import { lookupBatchSource } from "../../connectors/registry.js";
import type { Attribute } from "../../plan/expressions.js";
import { field, StructOf } from "../../types/datatypes.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

export class FileScanExec implements PhysicalOperator {
  readonly name = "FileScan";
  readonly children = [];
  constructor(
    readonly format: string,
    readonly paths: readonly string[],
    readonly options: Readonly<Record<string, string>>,
    readonly output: readonly Attribute[],
  ) {}
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const schema = StructOf(this.output.map((a) => field(a.name, a.type, a.nullable)));
    const external = lookupBatchSource(this.format);
    if (external) return external.read(this.options, schema, ctx.eval.timeZone);
    // A single directory written by a streaming file sink is read through its manifest, so
    // files of uncommitted (or failed) batches stay invisible, as in Spark.
    const committed = this.paths.length === 1 ? await readCommittedFiles(this.paths[0]!) : null;
    const files = committed ?? (await Promise.all(this.paths.map((p) => listInputFiles(p)))).flat();
    return readFiles(this.format, files, schema, { ...this.options }, ctx.eval.timeZone);
  }
  describe(): string {
    return `${this.format} [${this.output.map((a) => `${a.name}#${a.exprId}`).join(", ")}] Location: [${this.paths.join(", ")}]`;
  }
}
