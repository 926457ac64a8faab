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

export { type FileStreamOptions, parseFileStreamOptions } from "./options.js";
export { fileStreamSchema } from "./schema.js";
export { COMPACT_INTERVAL_KEY, FileStreamSink } from "./sink.js";
export {
  type CommittedFile,
  FileStreamSinkLog,
  hasSinkMetadata,
  hasSinkMetadataSync,
  readCommittedEntries,
  readCommittedFiles,
  readCommittedFilesSync,
  SINK_METADATA_DIR,
  type SinkFileStatus,
} from "./sink-log.js";
export { FileStreamSource } from "./source.js";
export { type FileEntry, FileStreamSourceLog } from "./source-log.js";

export const FILE_STREAM_FORMATS = ["json", "csv", "parquet", "text"] as const;

function sourceProvider(format: string): SourceProvider {
  return {
    schema: (options, userSchema, timeZone, schemaInference) => fileStreamSchema(format, options, userSchema, timeZone, schemaInference),
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
