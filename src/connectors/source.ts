/**
 * The streaming source contract. A source hands out offsets (JSON values, written verbatim
 * into the offset log) and, for a range of offsets, the rows in between. Differences between
 * sources are adapted here, once, so the micro-batch loop never branches on a source's kind.
 *
 * Offsets must be replayable: `getBatch(start, end)` for a range already handed out returns
 * the same rows after a restart (the recovery rule re-runs an uncommitted batch with the same
 * offsets). Sources with partitions (files, Kafka) keep per-partition positions inside their
 * offset JSON, e.g. `{"topic":{"0":42,"1":17}}`.
 */

import type { Offset } from "../checkpoint/offset-log.js";
import type { Batch } from "../columnar/batch.js";
import type { StructType } from "../types/datatypes.js";

// The sink contract has its own module (sink.ts); re-exported so existing imports keep working.
export type { SinkBatch, StreamSink } from "./sink.js";

export type { Offset };

/** Per-trigger read limit (Spark's ReadLimit): all, or at most N rows / files. */
export type ReadLimit =
  | { kind: "all" }
  | { kind: "maxRows"; max: number }
  | { kind: "maxFiles"; max: number }
  /** Files while their sizes add up to at most `max` bytes, at least one (Spark's ReadMaxBytes). */
  | { kind: "maxBytes"; max: number };

export interface SourceContext {
  /** `<checkpoint>/sources/<index>`: where a source keeps its own metadata, if it needs any. */
  readonly metadataDir: string | null;
  readonly timeZone: string;
  /** Wall clock (or the test kit's manual clock), ms. */
  now(): number;
  /** A CSV file source's column pruning: the positions in its schema of the columns to convert (others NULL). */
  readonly convert?: readonly number[];
}

export interface StreamSource {
  /** Spark's toString of the source, shown in progress `sources[i].description`. */
  readonly description: string;
  readonly schema: StructType;
  /** False when AvailableNow must fall back to a single batch (Spark's `rate` source). */
  readonly supportsAvailableNow: boolean;
  /** The read limit the source's options ask for (maxFilesPerTrigger, rowsPerBatch, ...). */
  defaultReadLimit(): ReadLimit;
  /** AvailableNow: fix the end offset now; later `latestOffset` calls never go past it. */
  prepareForAvailableNow(): Promise<void>;
  /**
   * The end offset of the next batch starting at `start` (null start = from the beginning).
   * `exact`: a caller waits for the query to process everything available now
   * (processAllAvailable), so the answer must be the system's as of this call, not one the
   * source kept from earlier (the Kafka source's ends from its own Fetch answers).
   */
  latestOffset(start: Offset | null, limit: ReadLimit, exact?: boolean): Promise<Offset | null>;
  /** Rows in (start, end]. */
  getBatch(start: Offset | null, end: Offset): Promise<Batch[]>;
  /** Everything up to `end` is committed and may be discarded. */
  commit(end: Offset): Promise<void>;
  /**
   * Optional: call `listener` when new data may be available, so an idle query starts its next
   * trigger at once instead of after `spark.sql.streaming.pollingDelay`. Returns the unsubscribe.
   */
  onDataAvailable?(listener: () => void): () => void;
  /**
   * Spark's reportLatestOffset, for a source with admission control (read limits): progress
   * `latestOffset` is its answer, null where Spark's source reports none (the file source,
   * rate-micro-batch). A source without it (memory, rate) reports the batch's end.
   */
  reportLatestOffset?(): Offset | null;
  /** Optional (Spark's ReportsSourceMetrics): progress `sources[i].metrics` for a batch ending at `end`. */
  metrics?(end: Offset | null): Record<string, string> | undefined;
  /** Optional (arus): what is known to be waiting beyond the latest offset, for progress `arus.sourceBacklog`. */
  backlog?(): SourceBacklog | null;
  /**
   * Optional (arus, files): read each file of later batches through `task` instead of decoding
   * it into rows (partial aggregation on the decode threads, execution/partial/). Returns false
   * when the source cannot (then `getBatch` stays the way in).
   */
  useFileTask?(task: FileTask): boolean;
  /** With a file task: what the task made of each file in (start, end], in file order. */
  getPrepared?(start: Offset | null, end: Offset): Promise<PreparedFile[]>;
  stop(): Promise<void>;
}

/** How a file source reads a file (format, schema, reader options, session time zone). */
export interface FileRead {
  readonly format: string;
  readonly schema: StructType;
  readonly options: Readonly<Record<string, string>>;
  readonly timeZone: string;
  /** The file's rows as `getBatch` reads them (its errors name the file, as there). */
  rows(): Promise<Batch[]>;
}

/** What a file task made of one file: the rows it read, and its result (opaque to the source). */
export interface PreparedFile {
  readonly inputRows: number;
  readonly value: unknown;
}

export type FileTask = (file: string, read: FileRead) => Promise<PreparedFile>;

/** arus: input a source has seen but not yet offered to a batch (files listed but not taken, and their bytes). */
export interface SourceBacklog {
  files: number;
  bytes: number;
}

export function sameOffset(a: Offset | null, b: Offset | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
