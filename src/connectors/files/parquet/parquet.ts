/**
 * Parquet through parquet-wasm (Rust's arrow-rs parquet crate compiled to WASM).
 *
 * Why parquet-wasm over hyparquet (design/deps.md §5): it both reads and writes (hyparquet is a
 * reader; its separate writer can't do zstd on Node 20), it is ~3× faster each way, supports
 * every codec, and hands back Arrow, which src/columnar/arrow-import.ts and arrow-export.ts already
 * bridge without copying numeric columns. hyparquet stays a dev-time cross-check in the tests.
 * Caveat: the WASM heap only grows, so writes go out in bounded row groups.
 */

import * as arrow from "apache-arrow";
import * as pw from "parquet-wasm";
import { batchToArrow } from "../../../columnar/arrow-export.js";
import { arrowDataToVector } from "../../../columnar/arrow-import.js";
import { fromArrowSchema, fromArrowType, toArrowSchema } from "../../../columnar/arrow-types.js";
import { type Batch, makeBatch } from "../../../columnar/batch.js";
import { decimalToDouble, widenToDecimal } from "../../../columnar/decimal-vector.js";
import { nullVector, type Vector } from "../../../columnar/vector.js";
import { AnalysisException, ArusError } from "../../../common/errors.js";
import { widensNumerically } from "../../../types/coercion.js";
import { ArrayOf, type DataType, field, MapOf, StructOf, type StructType, sqlTypeName, typesEqual } from "../../../types/datatypes.js";
import { readInputBytes, readInputBytesSync } from "../lines.js";

const ROW_GROUP_ROWS = 65_536;

export type ParquetCodec = "snappy" | "zstd" | "gzip" | "brotli" | "lz4" | "uncompressed";

export function parquetCodec(name: string | undefined): ParquetCodec {
  const n = (name ?? "snappy").toLowerCase();
  if (n === "none" || n === "uncompressed") return "uncompressed";
  if (n === "snappy" || n === "zstd" || n === "gzip" || n === "brotli" || n === "lz4") return n;
  throw new AnalysisException(
    "CODEC_NOT_AVAILABLE",
    `Codec [${name}] is not available. Available codecs are brotli, uncompressed, lz4, gzip, snappy, none, zstd.`,
  );
}

/** The `.snappy` part of Spark's `part-...-c000.snappy.parquet`. */
export function parquetExtension(codec: ParquetCodec): string {
  const infix: Record<ParquetCodec, string> = {
    snappy: ".snappy",
    zstd: ".zstd",
    gzip: ".gz",
    brotli: ".br",
    lz4: ".lz4",
    uncompressed: "",
  };
  return `${infix[codec]}.parquet`;
}

const CODECS: Record<ParquetCodec, pw.Compression> = {
  snappy: pw.Compression.SNAPPY,
  zstd: pw.Compression.ZSTD,
  gzip: pw.Compression.GZIP,
  brotli: pw.Compression.BROTLI,
  lz4: pw.Compression.LZ4_RAW,
  uncompressed: pw.Compression.UNCOMPRESSED,
};

export function encodeParquet(schema: StructType, batches: readonly Batch[], codec: ParquetCodec): Uint8Array {
  const rbs = batches.map((b) => batchToArrow(schema, b));
  const table = rbs.length > 0 ? new arrow.Table(rbs) : new arrow.Table(toArrowSchema(schema));
  const wasmTable = pw.Table.fromIPCStream(arrow.tableToIPC(table, "stream"));
  const props = new pw.WriterPropertiesBuilder()
    .setCompression(CODECS[codec])
    .setMaxRowGroupSize(ROW_GROUP_ROWS)
    .setCreatedBy("arus (parquet-wasm)")
    .build();
  return pw.writeParquet(wasmTable, props);
}

/** Spark reads every Parquet column as nullable ("for compatibility reasons"). */
function asNullable(t: DataType): DataType {
  switch (t.kind) {
    case "struct":
      return StructOf(t.fields.map((f) => field(f.name, asNullable(f.type), true, f.metadata as Record<string, unknown> | undefined)));
    case "array":
      return ArrayOf(asNullable(t.elementType), true);
    case "map":
      return MapOf(asNullable(t.keyType), asNullable(t.valueType), true);
    default:
      return t;
  }
}

/** The file's schema, from its footer only (synchronous: schema inference is). */
export function parquetFileSchema(file: string): StructType {
  const bytes = readInputBytesSync(file);
  const ipc = decoding(file, () => pw.readSchema(bytes).intoIPCStream());
  return asNullable(fromArrowSchema(arrow.tableFromIPC(ipc).schema)) as StructType;
}

/** Run a Parquet decoder call; its failure (a corrupt footer, a bad page) names the file, as Spark's FAILED_READ_FILE does. */
function decoding<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const cause = e instanceof Error ? e.message : String(e);
    throw new ArusError("FAILED_READ_FILE", `[FAILED_READ_FILE.NO_HINT] Error while reading file file:${file}: ${cause}`, { cause: e });
  }
}

function findField(s: arrow.Schema, name: string): number {
  const exact = s.fields.findIndex((f) => f.name === name);
  if (exact >= 0) return exact;
  const lower = name.toLowerCase();
  return s.fields.findIndex((f) => f.name.toLowerCase() === lower);
}

/** Widening Spark's Parquet reader allows (tinyint → smallint → int → bigint/double, bigint → double, decimals). */
function widen(v: Vector, to: DataType): Vector {
  if (to.kind === "decimal") return typesEqual(v.type, to) ? v : widenToDecimal(v, to);
  if (v.type.kind === "decimal") return decimalToDouble(v, to);
  if (to.kind === "bigint" && v.type.kind === "bigint") return { ...v, type: to }; // either lane (columnar/int64.ts)
  if (to.kind === "bigint" || to.kind === "double" || to.kind === "float") {
    const src = v.values as ArrayLike<number> | BigInt64Array;
    return { ...v, type: to, values: src instanceof BigInt64Array ? Float64Array.from(src, Number) : Float64Array.from(src) };
  }
  return { ...v, type: to }; // TINYINT/SMALLINT → a wider 32-bit integer type: same values
}

function compatible(from: DataType, to: DataType): boolean {
  return typesEqual(from, to) || from.kind === "null" || widensNumerically(from, to);
}

/** Reads one file; columns follow `schema` by name (case-insensitive fallback), missing → NULL. */
export async function readParquetFile(file: string, schema: StructType): Promise<Batch[]> {
  const bytes = await readInputBytes(file);
  const fileSchema = arrow.tableFromIPC(decoding(file, () => pw.readSchema(bytes).intoIPCStream())).schema;
  const wanted = schema.fields.map((f) => findField(fileSchema, f.name));
  const columns = [...new Set(wanted.filter((i) => i >= 0))].map((i) => fileSchema.fields[i]!.name);
  const table = arrow.tableFromIPC(decoding(file, () => pw.readParquet(bytes, { columns, batchSize: ROW_GROUP_ROWS }).intoIPCStream()));
  const out: Batch[] = [];
  for (const rb of table.batches) {
    if (rb.numRows === 0) continue;
    const cols = schema.fields.map((f) => {
      const idx = findField(rb.schema, f.name);
      if (idx < 0) return nullVector(f.type, rb.numRows);
      const data = rb.data.children[idx]!;
      const from = fromArrowType(data.type);
      if (!compatible(from, f.type)) {
        throw new AnalysisException(
          "PARQUET_COLUMN_DATA_TYPE_MISMATCH",
          `[FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH] Error while reading file file:${file}. Data type mismatches when reading Parquet column ${f.name}. Expected Spark type ${sqlTypeName(f.type)}, actual Parquet type ${sqlTypeName(from)}.`,
        );
      }
      if (from.kind === "null") return nullVector(f.type, rb.numRows);
      const v = arrowDataToVector(data, from);
      return typesEqual(from, f.type) ? v : widen(v, f.type);
    });
    out.push(makeBatch(cols, rb.numRows));
  }
  return out;
}
