/**
 * File sources and sinks: json, csv, text, parquet. One folder per format (`json/`, `csv/`,
 * `parquet/`, `text/`: its schema inference, decoding and writing); what the formats share
 * (paths, partitions, options, datetime text, value builders, line splitting, the decode pool)
 * sits here beside the format-independent `reader.ts` and `writer.ts`.
 *
 *   listInputFiles[Sync](path)                 data files under a path (PATH_NOT_FOUND if missing)
 *   inferFileSchema[Sync](format, files, opts, tz)  Spark-style inference (+ partition columns)
 *   readFile / readFiles(format, ..., schema)  decode into column batches in `schema`'s order
 *   setScanThreads(n)                          local[N]: big JSON-lines files decode on N worker threads
 *   setJsonDecoder("wasm" | "js")              arus.json.decoder: the WASM decoder or the byte scanner alone
 *   writeFiles(format, dir, schema, batches, opts, saveMode, tz, partitionBy?)
 */

export { setScanThreads } from "./decode-pool.js";
export { type FileFormat, fileFormat } from "./format.js";
export { JSON_DECODER_CONF, type JsonDecoder, jsonDecoderOf, setJsonDecoder } from "./json/json-decoder.js";
export { READ_ROOTS_OPTION } from "./partitions.js";
export { listInputFiles, listInputFilesSync, readRoots } from "./paths.js";
export { inferFileSchema, inferFileSchemaSync, readFile, readFiles, withPartitionColumns } from "./reader.js";
export { TEXT_SCHEMA } from "./text/text.js";
export { type SaveMode, writeFiles } from "./writer.js";
