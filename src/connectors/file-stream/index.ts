/**
 * Streaming file connectors: `readStream.format("json"|"csv"|"parquet"|"text")` over a
 * directory and `writeStream.format(...)` into one, with Spark's on-disk logs. Importing this
 * module registers them.
 *
 *   FileStreamSource / fileStreamSchema   the source and its schema resolution
 *   FileStreamSink                        the sink with its `_spark_metadata` manifest
 *   readCommittedFiles[Sync](path)        a sink's committed files (null: not a sink's output)
 */
import { registerSink, registerSource, type SinkProvider, type SourceProvider } from "../registry.js";
import { fileStreamSchema } from "./schema.js";
import { FileStreamSink } from "./sink.js";
import { FileStreamSource } from "./source.js";

export { FileStreamSource } from "./source.js";
export { fileStreamSchema } from "./schema.js";
export { FileStreamSink, COMPACT_INTERVAL_KEY } from "./sink.js";
export {
  FileStreamSinkLog,
  type SinkFileStatus,
  type CommittedFile,
  hasSinkMetadata,
  hasSinkMetadataSync,
  readCommittedFiles,
  readCommittedFilesSync,
  readCommittedEntries,
  SINK_METADATA_DIR,
} from "./sink-log.js";
export { FileStreamSourceLog, type FileEntry } from "./source-log.js";
export { parseFileStreamOptions, type FileStreamOptions } from "./options.js";

export const FILE_STREAM_FORMATS = ["json", "csv", "parquet", "text"] as const;

function sourceProvider(format: string): SourceProvider {
  return {
    schema: (options, userSchema, timeZone) => fileStreamSchema(format, options, userSchema, timeZone),
    create: (options, schema, ctx) => new FileStreamSource(format, options, schema, ctx),
  };
}

function sinkProvider(format: string): SinkProvider {
  return { outputModes: ["append"], create: (ctx) => new FileStreamSink(format, ctx) };
}

/** Idempotent; the import already did it. */
export function registerFileStreamConnectors(): void {
  for (const f of FILE_STREAM_FORMATS) {
    registerSource(f, sourceProvider(f));
    registerSink(f, sinkProvider(f));
  }
}

registerFileStreamConnectors();
