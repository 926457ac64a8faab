/**
 * The threads that decode files for `local[N]` (json-parallel.ts: ranges of a JSON-lines file,
 * each read by its thread).
 * One pool of N worker threads runs decode-worker.ts; results come back as batches whose typed
 * arrays were moved, not copied. Parquet stays on the calling thread: decoding a whole file on
 * a worker and copying its string columns back measured slower than decoding it in place (q0
 * on the Parquet bench data: 1.6 M → 0.5 M events per CPU second).
 */

import { type Batch, makeBatch } from "../../columnar/batch.js";
import { fromPortable } from "../../columnar/transfer.js";
import { siblingScript, WorkerPool } from "../../common/worker-pool.js";
import type { StructType } from "../../types/datatypes.js";
import type { JsonDecoder } from "./json/json-decoder.js";

/** Below this a file is decoded on the calling thread (a worker round trip costs ~1 ms). */
export const MIN_SPLIT_BYTES = 4 << 20;

export type DecodeRequest = JsonRangeRequest | ModuleTaskRequest;

/**
 * A task of a layer above the connectors, run on the decode threads (the stage A of a streaming
 * aggregation, execution/partial/): the thread imports `module` (a URL) once and calls its
 * `runDecodeTask(request)`, which answers with its result and transfer list. The threads stay
 * one pool, warm for both kinds of work.
 */
export interface ModuleTaskRequest {
  readonly kind: "module";
  readonly module: string;
  readonly request: unknown;
}

export interface JsonRangeRequest {
  readonly kind: "jsonRange";
  readonly file: string;
  /** The file's size when it was listed: nothing after it is read. */
  readonly size: number;
  /** Nominal byte range: the thread decodes the lines that start in it (line-range.ts). */
  readonly start: number;
  readonly end: number;
  readonly schema: StructType;
  readonly options: Record<string, string>;
  readonly zone: string;
  /** `arus.json.decoder` of the calling thread. */
  readonly decoder: JsonDecoder;
  /** `arus.columnar.utf8Strings` of the calling thread. */
  readonly utf8Strings: boolean;
}

/** What the decode threads did in this process (tasks run on workers, re-reads on this thread). */
export const parallelScanCounters = { ranges: 0, fallbacks: 0 };

let threads = 1;
let pool: WorkerPool<DecodeRequest, unknown> | null = null;

/** Threads for file decoding (`local[N]` → N); 1 turns parallel decoding off. */
export function setScanThreads(n: number): void {
  const next = Math.max(1, Math.floor(n));
  if (next === threads) return;
  threads = next;
  const old = pool;
  pool = null;
  void old?.close();
}

export function scanThreads(): number {
  return threads;
}

export function decodePool(): WorkerPool<DecodeRequest, unknown> {
  pool ??= new WorkerPool(siblingScript(import.meta.url, "decode-worker"), threads);
  return pool;
}

/**
 * Gives posted vectors this thread's type objects back (a clone is equal, not identical) and
 * UTF-8 STRING vectors their form (columnar/transfer.ts).
 */
export function retypeBatches(batches: readonly Batch[], schema: StructType): Batch[] {
  const types = schema.fields.map((f) => f.type);
  return batches.map((b) =>
    makeBatch(
      b.columns.map((c, i) => fromPortable(c, types[i]!)),
      b.numRows,
    ),
  );
}
