/**
 * Writing files as Spark's FileFormatWriter lays them out: `part-NNNNN-<job uuid>-c000.<ext>`
 * per non-empty input batch (per partition directory with `partitionBy`), then `_SUCCESS`.
 * Each file is written under a hidden name and renamed, so a directory reader (e.g. a streaming
 * file source) never sees half a file.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { type Batch, makeBatch, takeBatch } from "../../columnar/batch.js";
import { getValue } from "../../columnar/vector.js";
import { AnalysisException, IllegalArgumentException, withPath } from "../../common/errors.js";
import { StructOf, type StructType } from "../../types/datatypes.js";
import { csvWriteOptions } from "./csv/csv-options.js";
import { encodeCsv } from "./csv/csv-write.js";
import { dateTimeText } from "./datetime-text.js";
import { checkWritable, type FileFormat, fileFormat } from "./format.js";
import { encodeJsonLines } from "./json/json-write.js";
import { effectiveZone, SourceOptions } from "./options.js";
import { encodeParquet, parquetCodec, parquetExtension } from "./parquet/parquet.js";
import { escapePathName, partitionDirValue } from "./partitions.js";
import { checkTextSchema, encodeText } from "./text/text.js";

export type SaveMode = "append" | "overwrite" | "error" | "errorifexists" | "ignore";

interface Encoder {
  readonly ext: string;
  encode(batch: Batch | null): Uint8Array | string;
}

function textCompression(o: SourceOptions): "gzip" | null {
  const c = (o.get("compression") ?? o.get("codec") ?? "none").toLowerCase();
  if (c === "none" || c === "uncompressed") return null;
  if (c === "gzip") return "gzip";
  throw new IllegalArgumentException(`Codec [${c}] is not available. Known codecs are gzip, none, uncompressed.`);
}

function encoderFor(fmt: FileFormat, schema: StructType, o: SourceOptions, tz: string): Encoder {
  const wrap = (ext: string, enc: (b: Batch | null) => string): Encoder => {
    const gz = textCompression(o) === "gzip";
    return { ext: gz ? `${ext}.gz` : ext, encode: (b) => (gz ? gzipSync(enc(b)) : enc(b)) };
  };
  switch (fmt) {
    case "json": {
      const writeNulls = !o.bool("ignoreNullFields", true);
      const dt = dateTimeText(o, tz);
      const lineSep = o.string("lineSep", "\n");
      return wrap(".json", (b) => (b ? encodeJsonLines(schema, b, dt, writeNulls, lineSep) : ""));
    }
    case "csv": {
      const co = csvWriteOptions(o);
      const none: Batch = makeBatch([], 0);
      const dt = dateTimeText(o, tz);
      return wrap(".csv", (b) => encodeCsv(schema, b ?? none, co, dt, co.header));
    }
    case "text": {
      const sep = o.string("lineSep", "\n");
      return wrap(".txt", (b) => (b ? encodeText(b, sep) : ""));
    }
    case "parquet": {
      const codec = parquetCodec(o.get("compression") ?? o.get("codec"));
      return { ext: parquetExtension(codec), encode: (b) => encodeParquet(schema, b ? [b] : [], codec) };
    }
  }
}

async function pathState(p: string): Promise<"missing" | "empty" | "nonempty"> {
  try {
    const st = await stat(p);
    if (!st.isDirectory()) return "nonempty";
    return (await readdir(p)).length === 0 ? "empty" : "nonempty";
  } catch {
    return "missing";
  }
}

async function writeAtomically(dir: string, name: string, content: Uint8Array | string): Promise<string> {
  const tmp = join(dir, `.${name}.${process.pid}.tmp`);
  const final = join(dir, name);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(tmp, content);
    await rename(tmp, final);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw withPath(e, "write", final);
  }
  return final;
}

function resolvePartitionColumns(schema: StructType, partitionBy: readonly string[]): number[] {
  const idx = partitionBy.map((name) => {
    const i = schema.fields.findIndex((f) => f.name.toLowerCase() === name.toLowerCase());
    if (i < 0) {
      throw new AnalysisException(
        "COLUMN_NOT_FOUND",
        `[COLUMN_NOT_FOUND] The column \`${name}\` cannot be found. Verify the spelling and correctness of the column name according to the SQL config "spark.sql.caseSensitive".`,
      );
    }
    return i;
  });
  if (idx.length > 0 && idx.length === schema.fields.length) {
    throw new AnalysisException(
      "ALL_PARTITION_COLUMNS_NOT_ALLOWED",
      "[ALL_PARTITION_COLUMNS_NOT_ALLOWED] Cannot use all columns for partition columns.",
    );
  }
  return idx;
}

/** Rows of `batch` grouped by their partition directory (`k=v/k2=v2`), in first-seen order. */
function groupByPartition(schema: StructType, batch: Batch, partIdx: readonly number[], tz: string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (let r = 0; r < batch.numRows; r++) {
    let key = "";
    for (const c of partIdx) {
      const f = schema.fields[c]!;
      key += `${key ? "/" : ""}${escapePathName(f.name)}=${partitionDirValue(getValue(batch.columns[c]!, r), f.type, tz)}`;
    }
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}

/** Writes `batches` under `dir`; returns the data files written (absolute paths). */
export async function writeFiles(
  format: string,
  dir: string,
  schema: StructType,
  batches: readonly Batch[],
  options: Readonly<Record<string, string>>,
  saveMode: SaveMode | string,
  timeZone: string,
  partitionBy: readonly string[] = [],
): Promise<string[]> {
  const fmt = fileFormat(format);
  const o = new SourceOptions(options);
  const tz = effectiveZone(o, timeZone);
  const abs = resolve(dir);
  const partIdx = resolvePartitionColumns(schema, partitionBy);
  const dataCols = schema.fields.map((_, i) => i).filter((i) => !partIdx.includes(i));
  const dataSchema = StructOf(dataCols.map((i) => schema.fields[i]!));
  if (fmt === "text") checkTextSchema(dataSchema);
  else checkWritable(fmt, dataSchema);
  const enc = encoderFor(fmt, dataSchema, o, tz);

  const mode = saveMode.toLowerCase();
  const state = await pathState(abs);
  switch (mode) {
    case "error":
    case "errorifexists":
    case "default":
      if (state === "nonempty") {
        throw new AnalysisException(
          "PATH_ALREADY_EXISTS",
          `[PATH_ALREADY_EXISTS] Path file:${abs} already exists. Set mode as "overwrite" to overwrite the existing path.`,
        );
      }
      break;
    case "ignore":
      if (state === "nonempty") return [];
      break;
    case "overwrite":
      if (state !== "missing") await rm(abs, { recursive: true, force: true });
      break;
    case "append":
      break;
    default:
      throw new IllegalArgumentException(
        `Unknown save mode: ${saveMode}. Accepted save modes are 'overwrite', 'append', 'ignore', 'error', 'errorifexists', 'default'.`,
      );
  }
  await mkdir(abs, { recursive: true });

  const job = randomUUID();
  const fileName = (task: number): string => `part-${String(task).padStart(5, "0")}-${job}-c000${enc.ext}`;
  const projectData = (b: Batch): Batch =>
    partIdx.length === 0
      ? b
      : makeBatch(
          dataCols.map((i) => b.columns[i]!),
          b.numRows,
        );
  const written: string[] = [];
  for (let t = 0; t < batches.length; t++) {
    const b = batches[t]!;
    if (b.numRows === 0) continue;
    if (partIdx.length === 0) {
      written.push(await writeAtomically(abs, fileName(t), enc.encode(b)));
      continue;
    }
    for (const [sub, rows] of groupByPartition(schema, b, partIdx, tz)) {
      const part = projectData(takeBatch(b, rows));
      written.push(await writeAtomically(join(abs, sub), fileName(t), enc.encode(part)));
    }
  }
  // Like Spark, an empty unpartitioned write still leaves one file (it carries the schema).
  if (written.length === 0 && partIdx.length === 0) written.push(await writeAtomically(abs, fileName(0), enc.encode(null)));
  // Hadoop's switch for the marker (a streaming sink, which keeps its own log, turns it off).
  if (o.get("mapreduce.fileoutputcommitter.marksuccessfuljobs") !== "false") await writeFile(join(abs, "_SUCCESS"), "");
  return written;
}
