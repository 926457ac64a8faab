/**
 * The file a batch's rows were read from, for `input_file_name()`: file readers tag each batch
 * with the file's URI, Filter and Project carry the tag to the batches they make and, while they
 * evaluate a tagged batch, make its file the current one (Spark's InputFileBlockHolder, a
 * thread-local set by the scan; here evaluation of a batch is synchronous). As in Spark, the
 * name is known only in the operators of the scan's own stage; after a join or an aggregation
 * it is "". A WeakMap, so batches stay plain objects.
 */
import type { Batch } from "./batch.js";

const files = new WeakMap<Batch, string>();
let current = "";

/** Tags `batch` (returned) with the URI of the file its rows came from. */
export function tagInputFile(batch: Batch, uri: string): Batch {
  files.set(batch, uri);
  return batch;
}

/** `to` (returned) tagged with `from`'s file, if it has one. */
export function carryInputFile(from: Batch, to: Batch): Batch {
  const uri = files.get(from);
  if (uri !== undefined && from !== to) files.set(to, uri);
  return to;
}

/** `evaluate()` with `batch`'s file as the current one (for input_file_name()). */
export function withInputFileOf<T>(batch: Batch, evaluate: () => T): T {
  const uri = files.get(batch);
  if (uri === undefined) return evaluate();
  current = uri;
  try {
    return evaluate();
  } finally {
    current = "";
  }
}

/** The file of the batch being evaluated, or "". */
export function currentInputFile(): string {
  return current;
}
