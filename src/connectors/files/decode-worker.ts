/**
 * Worker-thread entry of the decode pool (decode-pool.ts): a line-aligned range of a JSON-lines
 * file held in shared memory, decoded into column batches that go back with their typed arrays
 * moved instead of copied.
 */

import type { Batch } from "../../columnar/batch.js";
import { batchTransferList } from "../../columnar/transfer.js";
import { serveTasks } from "../../common/worker-pool.js";
import type { DecodeRequest } from "./decode-pool.js";
import { setJsonDecoder } from "./json/json-decoder.js";
import { readJsonBytes } from "./json/json-scan.js";
import { jsonReadSettings } from "./json/json-settings.js";
import { SourceOptions } from "./options.js";

function decode(r: DecodeRequest): Batch[] {
  setJsonDecoder(r.decoder);
  const settings = jsonReadSettings(new SourceOptions(r.options), r.zone);
  const bytes = new Uint8Array(r.bytes, r.start, r.end - r.start);
  return readJsonBytes(r.file, bytes, r.schema, settings, r.start === 0);
}

serveTasks<DecodeRequest, Batch[]>((r) => {
  const result = decode(r);
  return { result, transfer: batchTransferList(result) };
});
