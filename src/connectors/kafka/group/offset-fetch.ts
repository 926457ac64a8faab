/**
 * OffsetFetch v7 (KIP-447's require_stable, flexible encoding): kafkajs 2.2.4 stops at v4. With
 * require_stable the coordinator answers UNSTABLE_OFFSET_COMMIT for a partition whose offset a
 * still-open transaction commits, instead of the older committed offset: the new owner of a
 * partition waits until the previous owner's transaction has ended.
 */
import { type TopicPartition, tpKey } from "../client.js";
import { KafkaErrorCode, KafkaProtocolError } from "./errors.js";
import {
  type Any,
  apiKeys,
  brokerMaxVersion,
  flexibleRequest,
  readCompactArray,
  readInt64,
  sendToBroker,
  writeCompactArray,
} from "./kafkajs-protocol.js";

const VERSION = 7;

interface PartitionResult {
  readonly partition: number;
  readonly offset: number;
  readonly errorCode: number;
}

interface Response {
  readonly errorCode: number;
  readonly topics: { name: string; partitions: PartitionResult[] }[];
}

function request(groupId: string, tps: readonly TopicPartition[]): Any {
  const byTopic = new Map<string, number[]>();
  for (const tp of tps) (byTopic.get(tp.topic) ?? byTopic.set(tp.topic, []).get(tp.topic)!).push(tp.partition);
  return flexibleRequest<Response>(
    "OffsetFetch",
    VERSION,
    (e) => {
      e.writeUVarIntString(groupId);
      writeCompactArray(e, [...byTopic], (e, [name, parts]) => {
        e.writeUVarIntString(name);
        writeCompactArray(e, parts, (e, p) => e.writeInt32(p));
        e.writeUVarInt(0);
      });
      e.writeBoolean(true); // require_stable
      e.writeUVarInt(0);
    },
    (d) => {
      d.readInt32(); // throttle_time_ms
      const topics = readCompactArray(d, (d) => {
        const name = d.readUVarIntString() as string;
        const partitions = readCompactArray(d, (d) => {
          const partition = d.readInt32() as number;
          const offset = readInt64(d);
          d.readInt32(); // committed_leader_epoch
          d.readUVarIntString(); // metadata
          const errorCode = d.readInt16() as number;
          d.readTaggedFields();
          return { partition, offset, errorCode };
        });
        d.readTaggedFields();
        return { name, partitions };
      });
      const errorCode = d.readInt16() as number;
      return { errorCode, topics };
    },
  );
}

/**
 * One OffsetFetch (require_stable) to the group coordinator: tpKey -> committed offset, or null
 * when the group has none. Throws KafkaProtocolError with the first error code (group-level or
 * a partition's, e.g. UNSTABLE_OFFSET_COMMIT) for the caller to retry.
 */
export async function fetchStableOffsets(
  coordinator: Any,
  groupId: string,
  tps: readonly TopicPartition[],
): Promise<Map<string, number | null>> {
  if (brokerMaxVersion(coordinator, apiKeys.OffsetFetch!) < VERSION) {
    throw new Error(
      `the Kafka broker does not accept OffsetFetch v${VERSION} (require_stable, KIP-447); group mode needs Kafka 2.5 or later`,
    );
  }
  const res = await sendToBroker<Response>(coordinator, request(groupId, tps));
  if (res.errorCode !== KafkaErrorCode.NONE) throw new KafkaProtocolError(res.errorCode, `OffsetFetch of group ${groupId}`);
  const out = new Map<string, number | null>();
  for (const t of res.topics) {
    for (const p of t.partitions) {
      if (p.errorCode !== KafkaErrorCode.NONE)
        throw new KafkaProtocolError(p.errorCode, `OffsetFetch of group ${groupId}, ${t.name}-${p.partition}`);
      out.set(tpKey({ topic: t.name, partition: p.partition }), p.offset < 0 ? null : p.offset);
    }
  }
  for (const tp of tps) if (!out.has(tpKey(tp))) out.set(tpKey(tp), null);
  return out;
}
