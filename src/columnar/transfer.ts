/**
 * Moving vectors between threads: the buffers a message can transfer (typed arrays move, the
 * sender's copies become empty) instead of copying. JS-string and other object columns are
 * plain arrays and are copied by the structured clone. A UTF-8 STRING vector (utf8.ts) crosses
 * as its bytes and offsets: `portableBatches` before posting, `fromPortable` on arrival.
 */
import type { Transferable } from "node:worker_threads";
import type { DataType } from "../types/datatypes.js";
import type { Batch } from "./batch.js";
import { type Utf8Values, utf8Of, utf8Vector } from "./utf8.js";
import { makeVector, type Vector } from "./vector.js";

/** A vector as posted: a UTF-8 STRING vector's bytes ride in `utf8` (its `values` is empty). */
type Portable = Vector & { readonly utf8?: Utf8Values };

function addBuffers(v: Vector, out: Set<ArrayBuffer>): void {
  const movable = (b: ArrayBufferLike): void => {
    // SharedArrayBuffers are shared, not moved
    if (b instanceof ArrayBuffer) out.add(b);
  };
  const u = (v as Portable).utf8;
  if (u !== undefined) {
    movable(u.bytes.buffer);
    movable(u.offsets.buffer);
  } else if (utf8Of(v) === undefined && !Array.isArray(v.values)) movable((v.values as Uint8Array).buffer);
  // (a UTF-8 vector not made portable is cloned as the JS strings its `values` decodes to)
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

/** A vector ready to post: a UTF-8 vector as bytes (a structured clone would decode every row). */
export function portable(v: Vector): Vector {
  const u = utf8Of(v);
  if (u !== undefined) return { type: v.type, length: v.length, values: [], validity: v.validity, utf8: u } as Portable;
  if (v.children) return makeVector(v.type, v.values, v.validity, v.length, v.children.map(portable));
  return v;
}

export function portableBatches(batches: readonly Batch[]): Batch[] {
  return batches.map((b) => ({ numRows: b.numRows, columns: b.columns.map(portable) }));
}

/** A posted vector back as a vector of this thread, with this thread's type object. */
export function fromPortable(v: Vector, type: DataType): Vector {
  const u = (v as Portable).utf8;
  if (u !== undefined) return utf8Vector(type, u, v.validity, v.length);
  const children = v.children && type.kind === "struct" ? v.children.map((c, i) => fromPortable(c, type.fields[i]!.type)) : undefined;
  return makeVector(type, v.values, v.validity, v.length, children);
}
