/**
 * The schema of a streaming file source when the query is defined (synchronously, like
 * `readStream...load()`): the user's; else, as in Spark, an error unless
 * `spark.sql.streaming.schemaInference` is true, and then inferred from the files present right
 * now. `text` always has one: `value STRING` (plus any `k=v` partition columns of files already there).
 */
import { statSync } from "node:fs";
import { AnalysisException, IllegalArgumentException } from "../../common/errors.js";
import type { StructType } from "../../types/datatypes.js";
import { hasGlob } from "../files/glob.js";
import { inferFileSchemaSync, TEXT_SCHEMA, withPartitionColumns } from "../files/index.js";
import { listStreamInputFilesSync } from "../files/paths.js";
import { parseFileStreamOptions, readerOptions } from "./options.js";
import { readCommittedFilesSync } from "./sink-log.js";

export function fileStreamSchema(
  format: string,
  options: Readonly<Record<string, string>>,
  userSchema: StructType | null,
  timeZone: string,
  schemaInference = false,
): StructType {
  const { path } = parseFileStreamOptions(options);
  // Spark checks the directory exists when the stream is defined, schema or not (a glob may match nothing yet).
  if (!hasGlob(path) && !statSync(path, { throwIfNoEntry: false })) {
    throw new AnalysisException("PATH_NOT_FOUND", `[PATH_NOT_FOUND] Path does not exist: file:${path}.`);
  }
  const readOpts = readerOptions(options, path);
  const files = () => readCommittedFilesSync(path) ?? listStreamInputFilesSync(path, readOpts);
  // partition columns the user's schema leaves out are added, as Spark's DataSource does
  if (userSchema) return withPartitionColumns(userSchema, files(), readOpts, timeZone);
  const fmt = format.toLowerCase();
  if (!schemaInference && fmt !== "text") throw schemaRequired();
  const present = files();
  if (present.length === 0) {
    if (fmt === "text") return withPartitionColumns(TEXT_SCHEMA, present, readOpts, timeZone);
    throw schemaRequired();
  }
  return inferFileSchemaSync(fmt, present, readOpts, timeZone);
}

/** Spark's createStreamingSourceNotSpecifySchemaError, with the two ways out. */
function schemaRequired(): IllegalArgumentException {
  return new IllegalArgumentException(
    "Schema must be specified when creating a streaming source DataFrame. If some files already exist in the directory, then depending on the file format you may be able to create a static DataFrame on that directory with 'spark.read.load(directory)' and infer schema from it. " +
      '(Pass readStream.schema("..."), or set spark.sql.streaming.schemaInference to true to infer it from the files present when the query is defined.)',
  );
}
