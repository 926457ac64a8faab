/**
 * Worker-thread entry of the decode pool (decode-pool.ts): a line-aligned range of a JSON-lines
 * file held in shared memory, decoded into column batches that go back with their typed arrays
 * moved instead of copied.
 */

import type { Transferable } from "node:worker_threads";
import type { Batch } from "../../columnar/batch.js";
import type { Vector } from "../../columnar/vector.js";
import { serveTasks } from "../../common/worker-pool.js";
import type { DecodeRequest } from "./decode-pool.js";
import { readJsonBytes } from "./json-scan.js";
import { jsonReadSettings } from "./json-settings.js";
import { SourceOptions } from "./options.js";

function buffersOf(v: Vector, out: Transferable[]): void {
  const movable = (b: ArrayBufferLike): void => {
    if (b instanceof ArrayBuffer) out.push(b);
  };
  if (!Array.isArray(v.values)) movable((v.values as Uint8Array).buffer);
  if (v.validity) movable(v.validity.buffer);
  for (const c of v.children ?? []) buffersOf(c, out);
}

function decode(r: DecodeRequest): Batch[] {
  const settings = jsonReadSettings(new SourceOptions(r.options), r.zone);
  const bytes = new Uint8Array(r.bytes, r.start, r.end - r.start);
  return readJsonBytes(r.file, bytes, r.schema, settings, r.start === 0);
}

serveTasks<DecodeRequest, Batch[]>((r) => {
  const result = decode(r);
  const transfer: Transferable[] = [];
  for (const b of result) for (const c of b.columns) buffersOf(c, transfer);
  // A buffer may back several views (Arrow slices, say), and a duplicate in the list throws.
  return { result, transfer: [...new Set(transfer)] };
});
