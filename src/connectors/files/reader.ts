/**
 * Reading files: per-format dispatch, partition columns filled from `k=v` directories, and
 * schema inference over a list of files (synchronous, because `load()` returns a DataFrame
 * with its schema right away; `inferFileSchema` is the promise-returning form).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { tagInputFile } from "../../columnar/input-file.js";
import { constantVector, nullVector } from "../../columnar/vector.js";
import { AnalysisException } from "../../common/errors.js";
import { type StructField, StructOf, type StructType } from "../../types/datatypes.js";
import { decodeCharset, jsonCharset, readCharset } from "./charset.js";
import { checkCsvHeader, HEADER_PREFIX } from "./csv/csv-header-check.js";
import { inferCsvSchema } from "./csv/csv-infer.js";
import { csvReadOptions } from "./csv/csv-options.js";
import { readCsvBytes } from "./csv/csv-scan.js";
import { type DateTimeText, dateTimeText } from "./datetime-text.js";
import { type FileFormat, fileFormat } from "./format.js";
import { inferJsonSchema } from "./json/json-infer.js";
import { readJsonFileParallel } from "./json/json-parallel.js";
import { readJsonText } from "./json/json-read.js";
import { readJsonBytes } from "./json/json-scan.js";
import { jsonReadSettings } from "./json/json-settings.js";
import { jsonFeatures } from "./json/json-text.js";
import { decodeText, readInputBytes, readInputBytesSync, readInputText } from "./lines.js";
import { corruptColumnName, effectiveZone, parseMode, SourceOptions } from "./options.js";
import { parquetFileSchema, readParquetFile } from "./parquet/parquet.js";
import { inferPartitionFields, partitionSpecFor, partitionValue } from "./partitions.js";
import { readTextContent, TEXT_SCHEMA } from "./text/text.js";

const DISPLAY: Record<FileFormat, string> = { json: "JSON", csv: "CSV", text: "Text", parquet: "Parquet" };

/** JSON's `inferTimestamp`: a string the read's timestampFormat (or the cast rules) accepts. */
const timestampTest = (dt: DateTimeText) => (s: string) => dt.parseTimestamp(s) !== null;

function inferDataSchema(fmt: FileFormat, files: readonly string[], o: SourceOptions, tz: string): StructType {
  switch (fmt) {
    case "json": {
      const cs = jsonCharset(o);
      const inputs = files.map((file) => ({ file, text: decodeCharset(readInputBytesSync(file), cs) }));
      const how = {
        lineSep: o.get("lineSep"),
        multiLine: o.bool("multiLine", false),
        prefersDecimal: o.bool("prefersDecimal", false),
        primitivesAsString: o.bool("primitivesAsString", false),
        dropFieldIfAllNull: o.bool("dropFieldIfAllNull", false),
        isTimestamp: o.bool("inferTimestamp", false) ? timestampTest(dateTimeText(o, tz)) : undefined,
      };
      return inferJsonSchema(inputs, parseMode(o), corruptColumnName(o), how, jsonFeatures(o));
    }
    case "csv": {
      const cs = readCharset(o, "CSVOptions");
      const texts = files.map((f) => decodeCharset(readInputBytesSync(f), cs));
      return inferCsvSchema(texts, csvReadOptions(o), o.bool("inferSchema", false), dateTimeText(o, tz));
    }
    case "text":
      return TEXT_SCHEMA;
    case "parquet": {
      // Spark takes one file's footer unless mergeSchema is set (then: union by name).
      if (!o.bool("mergeSchema", false)) return parquetFileSchema(files[0]!);
      const byName = new Map<string, StructField>();
      for (const f of files) for (const fld of parquetFileSchema(f).fields) if (!byName.has(fld.name)) byName.set(fld.name, fld);
      return StructOf([...byName.values()]);
    }
  }
}

/** The schema of `files`: the format's data columns, then any partition columns. */
export function inferFileSchemaSync(
  format: string,
  files: readonly string[],
  options: Readonly<Record<string, string>>,
  timeZone: string,
): StructType {
  const fmt = fileFormat(format);
  const o = new SourceOptions(options);
  const tz = effectiveZone(o, timeZone);
  if (files.length === 0) {
    throw new AnalysisException(
      "UNABLE_TO_INFER_SCHEMA",
      `[UNABLE_TO_INFER_SCHEMA] Unable to infer schema for ${DISPLAY[fmt]}. It must be specified manually.`,
    );
  }
  const data = inferDataSchema(fmt, files, o, tz);
  const parts = inferPartitionFields(files, tz, (f) => partitionSpecFor(f, o));
  const have = new Set(data.fields.map((f) => f.name.toLowerCase()));
  return StructOf([...data.fields, ...parts.filter((p) => !have.has(p.name.toLowerCase()))]);
}

/**
 * A user-specified schema over partitioned files, as Spark's DataSource makes it: the data
 * columns in the user's order, then the partition columns in directory order — the user's
 * field where the schema names one (its type), else the inferred one (so a schema without
 * `date` still reads `date=2024-01-01/` directories' `date`).
 */
export function withPartitionColumns(
  user: StructType,
  files: readonly string[],
  options: Readonly<Record<string, string>>,
  timeZone: string,
): StructType {
  const o = new SourceOptions(options);
  const parts = inferPartitionFields(files, effectiveZone(o, timeZone), (f) => partitionSpecFor(f, o));
  if (parts.length === 0) return user;
  const named = new Map(user.fields.map((f) => [f.name.toLowerCase(), f]));
  const isPart = new Set(parts.map((p) => p.name.toLowerCase()));
  return StructOf([
    ...user.fields.filter((f) => !isPart.has(f.name.toLowerCase())),
    ...parts.map((p) => named.get(p.name.toLowerCase()) ?? p),
  ]);
}

export async function inferFileSchema(
  format: string,
  files: readonly string[],
  options: Readonly<Record<string, string>>,
  timeZone: string,
): Promise<StructType> {
  return inferFileSchemaSync(format, files, options, timeZone);
}

/** `convert`: the data columns a pruned CSV scan converts (null: all). */
async function readData(
  fmt: FileFormat,
  file: string,
  schema: StructType,
  o: SourceOptions,
  tz: string,
  convert: ReadonlySet<number> | null,
): Promise<Batch[]> {
  switch (fmt) {
    case "json": {
      const settings = jsonReadSettings(o, tz);
      // a file that is one document, or not UTF-8, is read whole as text: no ranges, no line scanner
      const cs = jsonCharset(o);
      if (settings.multiLine || cs !== null) return readJsonText(file, decodeCharset(await readInputBytes(file), cs), schema, settings);
      const parallel = await readJsonFileParallel(file, schema, o.toRecord(), tz, settings);
      return parallel ?? readJsonBytes(file, await readInputBytes(file), schema, settings);
    }
    case "csv": {
      const cs = readCharset(o, "CSVOptions");
      const bytes = await readInputBytes(file);
      // the byte scanner reads UTF-8: another charset is decoded, then given to it as UTF-8
      const utf8 = cs === null ? bytes : Buffer.from(decodeCharset(bytes, cs), "utf8");
      const csv = csvReadOptions(o);
      if (csv.header && !o.bool("enforceSchema", true)) {
        // pruned, only the read columns' names are checked (in multiLine mode Spark checks them all)
        const read = csv.syntax.multiLine === true ? null : convert;
        checkCsvHeader(file, decodeText(utf8.subarray(0, HEADER_PREFIX)), schema, csv, read);
      }
      return readCsvBytes(file, utf8, schema, csv, dateTimeText(o, tz), convert);
    }
    case "text":
      return readTextContent(await readInputText(file), schema, o.bool("wholetext", false), o.get("lineSep"));
    case "parquet":
      return readParquetFile(file, schema);
  }
}

/**
 * CSV column pruning (positions in the read's `schema`): `read`, a pruned batch scan, returns
 * those columns only; `convertOnly`, a pruned stream, keeps every column but converts only
 * those (the others NULL). Either way the other columns are tokenized, not converted.
 */
export interface ColumnSelection {
  readonly read?: readonly number[];
  readonly convertOnly?: readonly number[];
}

/** One file → batches whose columns follow `schema` (partition columns from its directories), narrowed by `columns`. */
export async function readFile(
  format: string,
  file: string,
  schema: StructType,
  options: Readonly<Record<string, string>>,
  timeZone: string,
  columns: ColumnSelection = {},
): Promise<Batch[]> {
  const { read, convertOnly } = columns;
  const fmt = fileFormat(format);
  const o = new SourceOptions(options);
  const tz = effectiveZone(o, timeZone);
  const spec = new Map(partitionSpecFor(file, o).map(([k, v]) => [k.toLowerCase(), v]));
  const isPart = schema.fields.map((f) => spec.has(f.name.toLowerCase()));
  const dataSchema = isPart.some(Boolean) ? StructOf(schema.fields.filter((_, i) => !isPart[i])) : schema;
  const uri = pathToFileURL(resolve(file)).href; // input_file_name(): Spark's URL-encoded file URI
  let convert: Set<number> | null = null;
  const converted = read ?? convertOnly;
  if (converted) {
    const dataPos = schema.fields.map((_, i) => (isPart[i] ? -1 : i - isPart.slice(0, i).filter(Boolean).length));
    convert = new Set(converted.map((i) => dataPos[i]!).filter((d) => d >= 0));
  }
  const all = await readAll(fmt, file, schema, dataSchema, isPart, spec, o, tz, uri, convert);
  if (!read) return all;
  return all.map((b) =>
    tagInputFile(
      makeBatch(
        read.map((i) => b.columns[i]!),
        b.numRows,
      ),
      uri,
    ),
  );
}

/** readFile's batches with every column of `schema`. */
async function readAll(
  fmt: FileFormat,
  file: string,
  schema: StructType,
  dataSchema: StructType,
  isPart: readonly boolean[],
  spec: ReadonlyMap<string, string>,
  o: SourceOptions,
  tz: string,
  uri: string,
  convert: ReadonlySet<number> | null,
): Promise<Batch[]> {
  let batches = (await readData(fmt, file, dataSchema, o, tz, convert)).map((b) => tagInputFile(b, uri));
  if (batches.length === 0)
    batches = [
      makeBatch(
        dataSchema.fields.map((f) => nullVector(f.type, 0)),
        0,
      ),
    ];

  if (dataSchema === schema) return batches;
  const values = schema.fields.map((f, i) => (isPart[i] ? partitionValue(spec.get(f.name.toLowerCase())!, f.type, tz) : null));
  return batches.map((b) => {
    let d = 0;
    const cols = schema.fields.map((f, i) => (isPart[i] ? constantVector(f.type, values[i], b.numRows) : b.columns[d++]!));
    return tagInputFile(makeBatch(cols, b.numRows), uri);
  });
}

export async function readFiles(
  format: string,
  files: readonly string[],
  schema: StructType,
  options: Readonly<Record<string, string>>,
  timeZone: string,
  /** A pruned CSV scan: the positions in `schema` of the columns to convert and return (readFile). */
  read?: readonly number[],
): Promise<Batch[]> {
  const out: Batch[] = [];
  // Sequential on purpose: two cores, and the WASM Parquet heap grows with concurrent files.
  for (const f of files) out.push(...(await readFile(format, f, schema, options, timeZone, read ? { read } : {})));
  return out;
}
