/**
 * Streaming connector registry: format name → provider. `readStream.format(x)` and
 * `writeStream.format(x)` look providers up here, so a new connector is one registration.
 */

import type { Batch } from "../columnar/batch.js";
import { IllegalArgumentException } from "../common/errors.js";
import type { StructType } from "../types/datatypes.js";
import type { StreamSink } from "./sink.js";
import type { SourceContext, StreamSource } from "./source.js";

export interface SourceProvider {
  /** The schema when the user gives none (fixed for rate; inferred for files). */
  /** `schemaInference`: `spark.sql.streaming.schemaInference` (file sources infer only when true). */
  schema(options: Readonly<Record<string, string>>, userSchema: StructType | null, timeZone: string, schemaInference?: boolean): StructType;
  create(options: Readonly<Record<string, string>>, schema: StructType, ctx: SourceContext): StreamSource;
}

export interface SinkContext {
  readonly options: Readonly<Record<string, string>>;
  readonly path: string | null;
  readonly queryName: string | null;
  readonly checkpointDir: string | null;
  readonly partitionBy: readonly string[];
  readonly timeZone: string;
  readonly outputMode: "append" | "update" | "complete";
  /** The query's output schema, for sinks that check columns at start() (kafka). */
  readonly schema?: StructType;
}

export interface SinkProvider {
  /** Output modes this sink accepts (file sinks: append only). */
  readonly outputModes: readonly ("append" | "update" | "complete")[];
  create(ctx: SinkContext): StreamSink;
}

/** A connector that batch `read.format(x)` / `write.format(x)` reach besides files (kafka). */
export interface BatchSourceProvider {
  schema(options: Readonly<Record<string, string>>, userSchema: StructType | null): StructType;
  read(options: Readonly<Record<string, string>>, schema: StructType, timeZone: string): Promise<Batch[]>;
}
export interface BatchSinkProvider {
  write(
    options: Readonly<Record<string, string>>,
    names: readonly string[],
    schema: StructType,
    batches: readonly Batch[],
    saveMode: string,
  ): Promise<void>;
}

const sources = new Map<string, SourceProvider>();
const batchSources = new Map<string, BatchSourceProvider>();
const batchSinks = new Map<string, BatchSinkProvider>();
export function registerBatchSource(format: string, p: BatchSourceProvider): void {
  batchSources.set(format.toLowerCase(), p);
}
export function registerBatchSink(format: string, p: BatchSinkProvider): void {
  batchSinks.set(format.toLowerCase(), p);
}
export function lookupBatchSource(format: string): BatchSourceProvider | undefined {
  return batchSources.get(format.toLowerCase());
}
export function lookupBatchSink(format: string): BatchSinkProvider | undefined {
  return batchSinks.get(format.toLowerCase());
}
const sinks = new Map<string, SinkProvider>();

export function registerSource(format: string, p: SourceProvider): void {
  sources.set(format.toLowerCase(), p);
}
export function registerSink(format: string, p: SinkProvider): void {
  sinks.set(format.toLowerCase(), p);
}
export function lookupSource(format: string): SourceProvider {
  const p = sources.get(format.toLowerCase());
  if (!p) {
    throw new IllegalArgumentException(
      `[DATA_SOURCE_NOT_FOUND] Failed to find the data source: ${format}. Streaming sources: ${[...sources.keys()].sort().join(", ")}.`,
    );
  }
  return p;
}
export function lookupSink(format: string): SinkProvider {
  const p = sinks.get(format.toLowerCase());
  if (!p) {
    throw new IllegalArgumentException(
      `[DATA_SOURCE_NOT_FOUND] Failed to find the data source: ${format}. Streaming sinks: ${[...sinks.keys()].sort().join(", ")}.`,
    );
  }
  return p;
}

/** Option helpers with errors that name the option. */
export function intOption(
  options: Readonly<Record<string, string>>,
  key: string,
  fallback: number,
  min = Number.NEGATIVE_INFINITY,
): number {
  const raw = findOption(options, key);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v)) throw new IllegalArgumentException(`Invalid value '${raw}' for option '${key}': must be an integer.`);
  if (v < min) throw new IllegalArgumentException(`Invalid value '${raw}' for option '${key}': must be >= ${min}.`);
  return v;
}
/** Options are case-insensitive, as in Spark. */
export function findOption(options: Readonly<Record<string, string>>, key: string): string | undefined {
  const k = key.toLowerCase();
  for (const [name, v] of Object.entries(options)) if (name.toLowerCase() === k) return v;
  return undefined;
}
