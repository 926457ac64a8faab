/**
 * Moving vectors between threads: the buffers a message can transfer (typed arrays move, the
 * sender's copies become empty) instead of copying. String and other object columns are plain
 * arrays and are copied by the structured clone.
 */
import type { Transferable } from "node:worker_threads";
import type { Batch } from "./batch.js";
import type { Vector } from "./vector.js";

function addBuffers(v: Vector, out: Set<ArrayBuffer>): void {
  const movable = (b: ArrayBufferLike): void => {
    // SharedArrayBuffers are shared, not moved
    if (b instanceof ArrayBuffer) out.add(b);
  };
  if (!Array.isArray(v.values)) movable((v.values as Uint8Array).buffer);
  if (v.validity) movable(v.validity.buffer);
  for (const c of v.children ?? []) addBuffers(c, out);
}

/**
 * The buffers behind these vectors, each once (a buffer may back several views, and a
 * duplicate in a transfer list throws). Only for vectors the sender no longer reads.
 */
export function transferListOf(vectors: Iterable<Vector>): Transferable[] {
  const out = new Set<ArrayBuffer>();
  for (const v of vectors) addBuffers(v, out);
  return [...out];
}

/** `transferListOf` over the columns of batches. */
export function batchTransferList(batches: Iterable<Batch | null>): Transferable[] {
  const vs: Vector[] = [];
  for (const b of batches) if (b) vs.push(...b.columns);
  return transferListOf(vs);
}
