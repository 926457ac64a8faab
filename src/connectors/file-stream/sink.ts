/**
 * The streaming file sink (Spark's FileStreamSink), append mode only. Batch N writes its data
 * files, then commits them by writing `_spark_metadata/N`; a batch whose id is already in the
 * manifest is skipped whole, so replaying a batch after a crash never duplicates output.
 */

import { rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Batch } from "../../columnar/batch.js";
import { crashPoint } from "../../common/crash-points.js";
import { IllegalArgumentException } from "../../common/errors.js";
import { StructOf, type StructType } from "../../types/datatypes.js";
import { writeFiles } from "../files/index.js";
import { intOption, type SinkContext } from "../registry.js";
import type { SinkBatch, StreamSink } from "../sink.js";
import { addEntryFor, DEFAULT_COMPACT_INTERVAL, FileStreamSinkLog, raceError } from "./sink-log.js";

export const COMPACT_INTERVAL_KEY = "spark.sql.streaming.fileSink.log.compactInterval";

/** The batch's schema under the names the query gives its columns. */
export function namedSchema(data: SinkBatch): StructType {
  if (data.names.length !== data.schema.fields.length) return data.schema;
  return StructOf(data.schema.fields.map((f, i) => ({ ...f, name: data.names[i]! })));
}

/**
 * Writes the batch's rows under `dir` (nothing for an empty batch) and returns the new files.
 * The writer's `_SUCCESS` marker means nothing to a manifest reader, so it is not left behind.
 */
export async function writeDataFiles(
  format: string,
  dir: string,
  schema: StructType,
  data: readonly Batch[],
  timeZone: string,
  options: Readonly<Record<string, string>>,
  partitionBy: readonly string[],
): Promise<string[]> {
  const batches = data.filter((b) => b.numRows > 0);
  if (batches.length === 0) return [];
  const marker = join(dir, "_SUCCESS");
  const hadMarker = (await stat(marker).catch(() => null)) !== null;
  const files = await writeFiles(format, dir, schema, batches, options, "append", timeZone, partitionBy);
  if (!hadMarker) await rm(marker, { force: true });
  return files;
}

export class FileStreamSink implements StreamSink {
  readonly description: string;
  readonly reportsOutputRows = false;
  private readonly dir: string;
  private readonly log: FileStreamSinkLog;

  constructor(
    private readonly format: string,
    private readonly ctx: SinkContext,
  ) {
    if (ctx.path === null || ctx.path === "") throw new IllegalArgumentException("'path' is not specified");
    this.dir = resolve(ctx.path);
    this.log = new FileStreamSinkLog(this.dir, intOption(ctx.options, COMPACT_INTERVAL_KEY, DEFAULT_COMPACT_INTERVAL, 1));
    this.description = `FileSink[${ctx.path}]`;
  }

  async addBatch(batchId: number, data: SinkBatch): Promise<void> {
    // "Skipping already committed batch": the manifest, not the checkpoint, decides.
    const latest = await this.log.latestBatchId();
    if (batchId <= latest) {
      await this.log.entries(); // a replay trusts the manifest: check it is whole (names a damaged file)
      return;
    }
    await this.log.checkNext(batchId, latest);
    const files = await writeDataFiles(
      this.format,
      this.dir,
      namedSchema(data),
      data.batches,
      data.timeZone,
      this.ctx.options,
      this.ctx.partitionBy,
    );
    const entries = await Promise.all(files.map((f) => addEntryFor(f)));
    crashPoint("insideSink", batchId);
    if (!(await this.log.add(batchId, entries))) throw raceError(batchId);
  }
}
