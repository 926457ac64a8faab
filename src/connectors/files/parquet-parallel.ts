/**
 * Parquet files decoded on a worker thread for `local[N]`: a file of at least MIN_SPLIT_BYTES
 * is read and decoded by the decode pool, so the main thread runs operators meanwhile (with the
 * file source's read-ahead, the next trigger's file decodes while this batch runs). A failure
 * there re-reads the file on this thread, which then raises the reader's own error.
 */
import { stat } from "node:fs/promises";
import type { Batch } from "../../columnar/batch.js";
import type { StructType } from "../../types/datatypes.js";
import { decodePool, MIN_SPLIT_BYTES, parallelScanCounters, retypeBatches, scanThreads } from "./decode-pool.js";
import { readParquetFile } from "./parquet.js";

export async function readParquetOffThread(file: string, schema: StructType, minBytes = MIN_SPLIT_BYTES): Promise<Batch[]> {
  if (scanThreads() < 2 || (await stat(file)).size < minBytes) return readParquetFile(file, schema);
  let batches: Batch[];
  try {
    batches = await decodePool().run({ kind: "parquetFile", file, schema });
  } catch {
    parallelScanCounters.fallbacks++;
    return readParquetFile(file, schema);
  }
  parallelScanCounters.ranges++;
  return retypeBatches(batches, schema);
}
