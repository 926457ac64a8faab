/**
 * JSON-lines files decoded on several threads, as Spark splits a file into tasks for
 * `local[N]`. A file of at least MIN_SPLIT_BYTES is cut into N byte ranges; each thread reads
 * the lines that start in its range itself (line-range.ts) and decodes them with
 * `readJsonBytes`; the batches come back in file order, so the rows are exactly those of a
 * one-thread read. Any failure in a range (a FAILFAST record, a lone `\r` line end, which
 * cannot be split on `\n`) re-reads the whole file on this thread, which then reports it with
 * its true line number.
 */
import { stat } from "node:fs/promises";
import type { Batch } from "../../../columnar/batch.js";
import { utf8Strings } from "../../../columnar/utf8-conf.js";
import { WorkerCrashError } from "../../../common/worker-pool.js";
import type { StructType } from "../../../types/datatypes.js";
import { decodePool, MIN_SPLIT_BYTES, parallelScanCounters, retypeBatches, scanThreads, setScanThreads } from "../decode-pool.js";
import { nominalRanges } from "../line-range.js";
import { readInputBytes } from "../lines.js";
import { jsonDecoder } from "./json-decoder.js";
import type { JsonReadSettings } from "./json-read.js";
import { readJsonBytes } from "./json-scan.js";

/** Decodes the `size`-byte `file` in `parts` ranges on the worker threads. */
export async function readJsonRanges(
  file: string,
  size: number,
  schema: StructType,
  options: Record<string, string>,
  zone: string,
  settings: JsonReadSettings,
  parts: number,
): Promise<Batch[]> {
  // Custom separators cannot be split on `\n`.
  if (parts < 2 || settings.lineSep !== undefined) return readJsonBytes(file, await readInputBytes(file), schema, settings);
  const p = decodePool();
  const ranges = nominalRanges(size, parts);
  let results: Batch[][];
  try {
    results = await Promise.all(
      ranges.map(
        ([start, end]) =>
          p.run({
            kind: "jsonRange",
            file,
            size,
            start,
            end,
            schema,
            options,
            zone,
            decoder: jsonDecoder(),
            utf8Strings: utf8Strings(),
          }) as Promise<Batch[]>,
      ),
    );
  } catch (e) {
    parallelScanCounters.fallbacks++;
    // A thread that cannot run (a bundle without the worker file, say) would fail every file:
    // decode on this thread from now on.
    if (e instanceof WorkerCrashError) setScanThreads(1);
    return readJsonBytes(file, await readInputBytes(file), schema, settings);
  }
  parallelScanCounters.ranges += ranges.length;
  return retypeBatches(results.flat(), schema);
}

/** A big uncompressed file on several threads; null when it is not worth it (caller reads it). */
export async function readJsonFileParallel(
  file: string,
  schema: StructType,
  options: Record<string, string>,
  zone: string,
  settings: JsonReadSettings,
): Promise<Batch[] | null> {
  const threads = scanThreads();
  if (threads < 2 || file.endsWith(".gz") || settings.lineSep !== undefined) return null;
  const { size } = await stat(file);
  if (size < MIN_SPLIT_BYTES) return null;
  return readJsonRanges(file, size, schema, options, zone, settings, threads);
}
