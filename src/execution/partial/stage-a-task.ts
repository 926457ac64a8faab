/**
 * Stage A's task on a decode thread (the decode pool imports this module for a
 * `ModuleTaskRequest`, partial-read.ts): reads and decodes the lines of a JSON-lines file that
 * start in a byte range (connectors/files/line-range.ts) and runs stage A over it (stage-a-run.ts); the partial groups go back with
 * their typed arrays moved, not copied.
 */
import { batchTransferList, portable, portableBatches, transferListOf } from "../../columnar/transfer.js";
import { setUtf8Strings } from "../../columnar/utf8-conf.js";
import type { Vector } from "../../columnar/vector.js";
import { setJsonDecoder } from "../../connectors/files/json/json-decoder.js";
import { readJsonRange } from "../../connectors/files/json/json-scan.js";
import { jsonReadSettings } from "../../connectors/files/json/json-settings.js";
import { SourceOptions } from "../../connectors/files/options.js";
import { setDecimalPrecisionLoss } from "../../types/decimal.js";
import type { StageARequest } from "./partial-read.js";
import { type PartialGroups, runStageA } from "./stage-a-run.js";

async function run(r: StageARequest): Promise<PartialGroups & { inputRows: number }> {
  setJsonDecoder(r.decoder);
  // STRING columns as the main thread decodes them; UTF-8 ones cross as bytes (`portable` below)
  setUtf8Strings(r.utf8Strings);
  // decimal result types as the main thread derives them (a process-wide setting, like the two above)
  setDecimalPrecisionLoss(r.decimalPrecisionLoss);
  const settings = jsonReadSettings(new SourceOptions(r.options), r.zone);
  const batches = readJsonRange(r.file, r.start, r.end, r.size, r.schema, settings);
  const partial = await runStageA(r.stage, batches, r.aggregate);
  return { ...partial, inputRows: batches.reduce((n, b) => n + b.numRows, 0) };
}

export async function runDecodeTask(request: unknown): Promise<{ result: PartialGroups & { inputRows: number }; transfer: ArrayBuffer[] }> {
  const ran = await run(request as StageARequest);
  // a UTF-8 STRING vector posted as it is would be cloned as the JS strings of every row
  const result = {
    ...ran,
    chunks: ran.chunks.map((c) => ({ ...c, keys: c.keys.map(portable), buffers: c.buffers.map((bs) => bs.map(portable)) })),
    ...(ran.rows ? { rows: portableBatches(ran.rows) } : {}),
  };
  const vectors: Vector[] = result.chunks.flatMap((c) => [...c.keys, ...c.buffers.flat()]);
  // chunks of one range share buffers (the pane groups' buffers under each window offset)
  const transfer = new Set([...transferListOf(vectors), ...batchTransferList(result.rows ?? [])]);
  for (const c of result.chunks) transfer.add(c.rows.buffer as ArrayBuffer);
  if (result.eventTime) transfer.add(result.eventTime.ms.buffer as ArrayBuffer);
  for (const p of result.rowHashes ?? []) transfer.add(p.buffer as ArrayBuffer);
  return { result, transfer: [...transfer] as ArrayBuffer[] };
}
