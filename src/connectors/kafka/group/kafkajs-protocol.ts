/**
 * The kafkajs 2.2.4 protocol pieces the group member and worker transactions speak through:
 * its request encoders (JoinGroup v5, SyncGroup v3, Heartbeat v3, LeaveGroup v3, the
 * transaction requests), its Encoder/Decoder, and a way to send requests kafkajs does not have
 * (flexible versions: OffsetFetch v7, TxnOffsetCommit v3) over its broker connections.
 */
import { createRequire } from "node:module";
import { sendToBroker } from "../fetch-kafkajs.js";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: kafkajs's protocol objects are untyped
export type Any = any;

export const Encoder = require("kafkajs/src/protocol/encoder.js") as Any;
export const Decoder = require("kafkajs/src/protocol/decoder.js") as Any;
export const { requests } = require("kafkajs/src/protocol/requests/index.js") as { requests: Record<string, Any> };
export const apiKeys = require("kafkajs/src/protocol/requests/apiKeys.js") as Record<string, number>;

export { sendToBroker };

/** The highest version of an API a broker accepts (-1 when it has none). */
export function brokerMaxVersion(broker: Any, apiKey: number): number {
  return (broker.versions?.[apiKey]?.maxVersion as number | undefined) ?? -1;
}

/**
 * A kafkajs request of exactly `version` (kafkajs picks the highest both sides have, which may
 * be an older one without group_instance_id): throws when the broker or kafkajs lacks it.
 */
export function kafkajsRequest(broker: Any, api: string, version: number, args: Record<string, unknown>): Any {
  const apiKey = apiKeys[api]!;
  const def = requests[api];
  const max = brokerMaxVersion(broker, apiKey);
  const min = (broker.versions?.[apiKey]?.minVersion as number | undefined) ?? 0;
  if (!def?.versions.includes(String(version)) || version > max || version < min) {
    throw new Error(
      `the Kafka broker does not accept ${api} v${version} (it takes v${min}–v${max}); arus's group mode needs Kafka 2.5 or later`,
    );
  }
  return def.protocol({ version })(args);
}

/**
 * A request in a flexible version (KIP-482). kafkajs writes request header v1; header v2 only
 * adds tagged fields after it, so the body starts with an empty tagged-field section. Likewise
 * kafkajs reads the response's correlation id and hands over the rest, whose first bytes are
 * the response header's tagged fields: `decode` gets a Decoder positioned after them.
 */
export function flexibleRequest<T>(
  apiName: string,
  apiVersion: number,
  body: (e: Any) => void,
  decode: (d: Any) => T,
  requestTimeout?: number,
): Any {
  return {
    request: {
      apiKey: apiKeys[apiName]!,
      apiVersion,
      apiName,
      encode: async () => {
        const e = new Encoder();
        e.writeUVarInt(0);
        body(e);
        return e;
      },
    },
    response: {
      decode: async (raw: Buffer) => {
        const d = new Decoder(raw);
        d.readTaggedFields();
        return decode(d);
      },
      parse: async (data: T) => data,
    },
    ...(requestTimeout === undefined ? {} : { requestTimeout }),
  };
}

/** A compact array (length + 1, as an unsigned varint) of encoded items. */
export function writeCompactArray<T>(e: Any, items: readonly T[], item: (e: Any, x: T) => void): void {
  e.writeUVarInt(items.length + 1);
  for (const x of items) item(e, x);
}

export function readCompactArray<T>(d: Any, item: (d: Any) => T): T[] {
  const n = d.readUVarInt() as number;
  const out: T[] = [];
  for (let i = 0; i < n - 1; i++) out.push(item(d));
  return out;
}

/** Kafka's int64 as a JS number (offsets, producer ids: exact below 2^53). */
export function readInt64(d: Any): number {
  return Number(d.readInt64().toString());
}
