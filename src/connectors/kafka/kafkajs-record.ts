/**
 * kafkajs 2.2.4 cannot send a record header whose value is null (its record encoder sizes every
 * header value with Buffer.byteLength, which throws on null), while Kafka's format has a null
 * header value (length -1) and Spark's sink writes one for a null `headers[i].value`. This puts
 * a record encoder that sizes null as -1 (and takes the headers as a list) in place of kafkajs's, before its Produce request
 * modules bind it (they are loaded lazily, at the first produce; any loaded earlier are dropped
 * from the module cache so that they load again with this one).
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: kafkajs's Encoder is untyped
type Any = any;

let installed = false;

export function installNullHeaderRecords(): void {
  if (installed) return;
  const recordPath = require.resolve("kafkajs/src/protocol/recordBatch/record/v0/index.js");
  const Encoder = require("kafkajs/src/protocol/encoder.js") as Any;
  require(recordPath);
  const cached = require.cache[recordPath];
  if (!cached) throw new Error("kafkajs internals changed: no record encoder module (pin kafkajs 2.2.4)");
  cached.exports = (r: { offsetDelta?: number; timestampDelta?: number; key: unknown; value: unknown; headers?: unknown }) =>
    encodeRecord(Encoder, r);
  for (const v of [3, 4, 5, 6, 7]) delete require.cache[require.resolve(`kafkajs/src/protocol/requests/produce/v${v}/request.js`)];
  installed = true;
}

/** Kafka's record v2 (as kafkajs's encoder writes it), a null header value written as length -1. */
function encodeRecord(
  Encoder: Any,
  {
    offsetDelta = 0,
    timestampDelta = 0,
    key,
    value,
    headers = {},
  }: { offsetDelta?: number; timestampDelta?: number; key: unknown; value: unknown; headers?: unknown },
): Any {
  // An array of {key, value} (what arus's sink passes: order and repeated keys kept, as Kafka's
  // headers are a list) or kafkajs's object form (key -> value or values).
  const hs: { key: string; value: unknown }[] = Array.isArray(headers) ? headers : [];
  if (!Array.isArray(headers))
    for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
      if (Array.isArray(v)) for (const x of v) hs.push({ key: k, value: x });
      else hs.push({ key: k, value: v });
    }
  let size =
    1 +
    Encoder.sizeOfVarLong(timestampDelta) +
    Encoder.sizeOfVarInt(offsetDelta) +
    Encoder.sizeOfVarIntBytes(key) +
    Encoder.sizeOfVarIntBytes(value) +
    Encoder.sizeOfVarInt(hs.length);
  for (const h of hs) size += Encoder.sizeOfVarIntBytes(h.key) + Encoder.sizeOfVarIntBytes(h.value);
  // Sized up front: kafkajs's default 512-byte buffer, grown by copying, is most of a record's cost.
  const e = new Encoder(Encoder.sizeOfVarInt(size) + size)
    .writeVarInt(size)
    .writeInt8(0) // record attributes: none defined
    .writeVarLong(timestampDelta)
    .writeVarInt(offsetDelta)
    .writeVarIntBytes(key)
    .writeVarIntBytes(value)
    .writeVarInt(hs.length);
  for (const h of hs) e.writeVarIntString(h.key).writeVarIntBytes(h.value);
  return e;
}
