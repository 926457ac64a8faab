/**
 * One Fetch request for one partition over a kafkajs broker connection, with arus's own decoding
 * of the response (Fetch v11): kafkajs encodes the request, sends it and checks the error codes;
 * the record set is left as bytes for record-batch.ts to decode into columns (kafkajs's own
 * decoder makes several objects per record, which was most of the source's CPU).
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: kafkajs's broker and protocol objects are untyped
type Any = any;
const { requests } = require("kafkajs/src/protocol/requests/index.js") as { requests: { Fetch: Any } };
const apiKeys = require("kafkajs/src/protocol/requests/apiKeys.js") as { Fetch: number };

export interface RawPartition {
  readonly errorCode: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly abortedTransactions: { producerId: number; firstOffset: number }[];
  /** The record set: bytes [start, end) of buf. */
  readonly buf: Buffer;
  readonly start: number;
  readonly end: number;
}

export interface FetchArgs {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly isolationLevel: number;
  readonly maxWaitTime: number;
  readonly minBytes: number;
  readonly maxBytes: number;
}

function int64(buf: Buffer, at: number): number {
  return buf.readInt32BE(at) * 4294967296 + buf.readUInt32BE(at + 4);
}

/**
 * Fetch Response v11: throttle_time_ms i32, error_code i16, session_id i32, [topic string,
 * [partition i32, error_code i16, high_watermark i64, last_stable_offset i64, log_start_offset
 * i64, [producer_id i64, first_offset i64], preferred_read_replica i32, records (i32 size)]].
 */
function decodeV11(raw: Buffer) {
  let p = 10;
  const partitions: (RawPartition & { partition: number })[] = [];
  const topics: { topicName: string; partitions: typeof partitions }[] = [];
  const nTopics = raw.readInt32BE(p);
  p += 4;
  for (let t = 0; t < nTopics; t++) {
    const nameLen = raw.readInt16BE(p);
    const topicName = raw.toString("utf8", p + 2, p + 2 + nameLen);
    p += 2 + nameLen;
    const parts: typeof partitions = [];
    const nParts = raw.readInt32BE(p);
    p += 4;
    for (let i = 0; i < nParts; i++) {
      const partition = raw.readInt32BE(p);
      const errorCode = raw.readInt16BE(p + 4);
      const highWatermark = int64(raw, p + 6);
      const lastStableOffset = int64(raw, p + 14);
      p += 30;
      const nAborted = raw.readInt32BE(p);
      p += 4;
      const abortedTransactions: { producerId: number; firstOffset: number }[] = [];
      for (let a = 0; a < nAborted; a++, p += 16) abortedTransactions.push({ producerId: int64(raw, p), firstOffset: int64(raw, p + 8) });
      p += 4; // preferred_read_replica
      const size = raw.readInt32BE(p);
      p += 4;
      const start = p;
      const end = size > 0 ? Math.min(raw.length, p + size) : p;
      p = end;
      parts.push({ partition, errorCode, highWatermark, lastStableOffset, abortedTransactions, buf: raw, start, end });
    }
    topics.push({ topicName, partitions: parts });
  }
  return { throttleTime: 0, clientSideThrottleTime: raw.readInt32BE(0), errorCode: raw.readInt16BE(4), responses: topics };
}

const sendRequest = (broker: Any) => {
  const sym = Object.getOwnPropertySymbols(Object.getPrototypeOf(broker)).find((s) => s.description === "private:Broker:sendRequest");
  if (!sym) throw new Error("kafkajs internals changed: no broker sendRequest (pin kafkajs 2.2.4)");
  return sym;
};

/** Sends a kafkajs protocol request ({ request, response, requestTimeout? }) over a broker's connection. */
export function sendToBroker<T>(broker: Any, protocolRequest: unknown): Promise<T> {
  return broker[sendRequest(broker)](protocolRequest);
}

/** Sends one Fetch for one partition; throws kafkajs's errors (KafkaJSOffsetOutOfRange …). */
export async function fetchPartition(broker: Any, a: FetchArgs): Promise<RawPartition | undefined> {
  const { topic, partition, offset, ...rest } = a;
  return (await fetchPartitions(broker, { ...rest, partitions: [{ topic, partition, offset }] })).get(`${topic}:${partition}`);
}

/**
 * Sends one Fetch for several partitions of one broker (answered when any of them has minBytes,
 * or after maxWaitTime); the answers by `topic:partition`.
 */
export async function fetchPartitions(
  broker: Any,
  a: Omit<FetchArgs, "topic" | "partition" | "offset"> & { partitions: readonly { topic: string; partition: number; offset: number }[] },
): Promise<Map<string, RawPartition>> {
  const byTopic = new Map<string, { partition: number; fetchOffset: string; maxBytes: number }[]>();
  for (const p of a.partitions) {
    const list = byTopic.get(p.topic) ?? [];
    list.push({ partition: p.partition, fetchOffset: String(p.offset), maxBytes: a.maxBytes });
    byTopic.set(p.topic, list);
  }
  const protocol = broker.lookupRequest(apiKeys.Fetch, requests.Fetch);
  const req = protocol({
    replicaId: -1,
    isolationLevel: a.isolationLevel,
    maxWaitTime: a.maxWaitTime,
    minBytes: a.minBytes,
    maxBytes: a.maxBytes,
    topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
    rackId: "",
  });
  if (req.request.apiVersion !== 11) {
    throw new Error(`the Kafka broker answers Fetch v${req.request.apiVersion}; arus reads Fetch v11 (Kafka 2.3 or later)`);
  }
  const res = (await broker[sendRequest(broker)]({ ...req, response: { decode: decodeV11, parse: req.response.parse } })) as ReturnType<
    typeof decodeV11
  >;
  const out = new Map<string, RawPartition>();
  for (const t of res.responses) for (const p of t.partitions) out.set(`${t.topicName}:${p.partition}`, p);
  return out;
}
