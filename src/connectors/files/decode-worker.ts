/**
 * Worker-thread entry of the decode pool (decode-pool.ts): the lines of a JSON-lines file that
 * start in a byte range, read here and decoded into column batches that go back with their
 * typed arrays moved instead of copied; or a task of a module named by the request
 * (`ModuleTaskRequest`).
 */

import type { Transferable } from "node:worker_threads";
import type { Batch } from "../../columnar/batch.js";
import { batchTransferList, portableBatches } from "../../columnar/transfer.js";
import { setUtf8Strings } from "../../columnar/utf8-conf.js";
import { serveTasks } from "../../common/worker-pool.js";
import type { DecodeRequest, JsonRangeRequest } from "./decode-pool.js";
import { setJsonDecoder } from "./json/json-decoder.js";
import { readJsonRange } from "./json/json-scan.js";
import { jsonReadSettings } from "./json/json-settings.js";
import { SourceOptions } from "./options.js";

function decode(r: JsonRangeRequest): Batch[] {
  setJsonDecoder(r.decoder);
  setUtf8Strings(r.utf8Strings);
  const settings = jsonReadSettings(new SourceOptions(r.options), r.zone);
  return readJsonRange(r.file, r.start, r.end, r.size, r.schema, settings);
}

type TaskResult = { result: unknown; transfer: Transferable[] };
type TaskModule = { runDecodeTask(request: unknown): TaskResult | Promise<TaskResult> };
const modules = new Map<string, Promise<TaskModule>>();

serveTasks<DecodeRequest, unknown>(async (r) => {
  if (r.kind === "module") {
    let m = modules.get(r.module);
    if (!m) modules.set(r.module, (m = import(r.module) as Promise<TaskModule>));
    return (await m).runDecodeTask(r.request);
  }
  const result = portableBatches(decode(r));
  return { result, transfer: batchTransferList(result) };
});
