/**
 * File sources and sinks: json, csv, text, parquet.
 *
 *   listInputFiles[Sync](path)                 data files under a path (PATH_NOT_FOUND if missing)
 *   inferFileSchema[Sync](format, files, opts, tz)  Spark-style inference (+ partition columns)
 *   readFile / readFiles(format, ..., schema)  decode into column batches in `schema`'s order
 *   setScanThreads(n)                          local[N]: big JSON-lines files decode on N worker threads
 *   writeFiles(format, dir, schema, batches, opts, saveMode, tz, partitionBy?)
 */

export { setScanThreads } from "./decode-pool.js";
export { type FileFormat, fileFormat } from "./format.js";
export { listInputFiles, listInputFilesSync } from "./paths.js";
export { inferFileSchema, inferFileSchemaSync, readFile, readFiles } from "./reader.js";
export { type SaveMode, writeFiles } from "./writer.js";
