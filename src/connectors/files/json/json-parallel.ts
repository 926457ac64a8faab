/**
 * JSON-lines files decoded on several threads, as Spark splits a file into tasks for
 * `local[N]`. A file of at least MIN_SPLIT_BYTES is read into shared memory, cut into N ranges
 * at line boundaries, and each range is decoded by `readJsonBytes` in a worker thread; the
 * batches come back in file order, so the rows are exactly those of a one-thread read. Any
 * failure in a range (a FAILFAST record, say) re-reads the whole file on this thread, which
 * then reports it with its true line number.
 */
import { open, stat } from "node:fs/promises";
import type { Batch } from "../../../columnar/batch.js";
import { utf8Strings } from "../../../columnar/utf8-conf.js";
import { WorkerCrashError } from "../../../common/worker-pool.js";
import type { StructType } from "../../../types/datatypes.js";
import { asBytes } from "../byte-values.js";
import { decodePool, MIN_SPLIT_BYTES, parallelScanCounters, retypeBatches, scanThreads, setScanThreads } from "../decode-pool.js";
import { jsonDecoder } from "./json-decoder.js";
import type { JsonReadSettings } from "./json-read.js";
import { hasLoneCarriageReturn, readJsonBytes } from "./json-scan.js";

/** `parts` ranges of whole lines covering `bytes` (fewer when lines are long). */
export function lineAlignedRanges(bytes: Uint8Array, parts: number): [number, number][] {
  const n = bytes.length;
  const buf = asBytes(bytes); // Buffer's indexOf is a native memchr
  const out: [number, number][] = [];
  let start = 0;
  for (let k = 1; k <= parts && start < n; k++) {
    let end = k === parts ? n : Math.max(start, Math.floor((n * k) / parts));
    if (end < n) {
      const nl = buf.indexOf(0x0a, end === 0 ? 0 : end - 1);
      end = nl < 0 ? n : nl + 1;
    }
    if (end > start) out.push([start, end]);
    start = end;
  }
  return out;
}

export async function readShared(file: string): Promise<SharedArrayBuffer> {
  const fh = await open(file, "r");
  try {
    const { size } = await fh.stat();
    const sab = new SharedArrayBuffer(size);
    const view = new Uint8Array(sab);
    let off = 0;
    while (off < size) {
      const { bytesRead } = await fh.read(view, off, size - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return off === size ? sab : sab.slice(0, off);
  } finally {
    await fh.close();
  }
}

/** Decodes `bytes` (shared) in `parts` ranges on the worker threads. */
export async function readJsonRanges(
  file: string,
  bytes: SharedArrayBuffer,
  schema: StructType,
  options: Record<string, string>,
  zone: string,
  settings: JsonReadSettings,
  parts: number,
): Promise<Batch[]> {
  const whole = new Uint8Array(bytes);
  // Lone `\r` line ends and custom separators cannot be split on `\n`.
  if (parts < 2 || settings.lineSep !== undefined || hasLoneCarriageReturn(whole)) return readJsonBytes(file, whole, schema, settings);
  const p = decodePool();
  const ranges = lineAlignedRanges(whole, parts);
  let results: Batch[][];
  try {
    results = await Promise.all(
      ranges.map(
        ([start, end]) =>
          p.run({
            kind: "jsonRange",
            file,
            bytes,
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
    return readJsonBytes(file, whole, schema, settings);
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
  if ((await stat(file)).size < MIN_SPLIT_BYTES) return null;
  return readJsonRanges(file, await readShared(file), schema, options, zone, settings, threads);
}
