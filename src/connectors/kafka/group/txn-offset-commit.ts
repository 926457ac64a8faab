/**
 * TxnOffsetCommit v3 (KIP-447, flexible encoding): the offsets a transaction commits for a
 * consumer group, with the group metadata of the member that processed them (generation,
 * member id, group instance id). The group coordinator refuses the commit of a member whose
 * generation is over (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID): a zombie that
 * lost its partitions cannot commit progress for them. kafkajs 2.2.4 has v0–v1 only (no group
 * metadata), which fences nothing.
 */
import type { TopicPartition } from "../client.js";
import { KafkaErrorCode, KafkaProtocolError } from "./errors.js";
import {
  type Any,
  apiKeys,
  brokerMaxVersion,
  flexibleRequest,
  readCompactArray,
  sendToBroker,
  writeCompactArray,
} from "./kafkajs-protocol.js";

const VERSION = 3;

/** The group's view of the member that commits: Kafka's ConsumerGroupMetadata. */
export interface GroupMetadata {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}

export interface TxnOffsetCommitArgs {
  readonly transactionalId: string;
  readonly producerId: number | string;
  readonly producerEpoch: number;
  readonly group: GroupMetadata;
  /** The next offset to read of each partition (last processed + 1). */
  readonly offsets: readonly (TopicPartition & { offset: number })[];
}

type Response = { name: string; partitions: { partition: number; errorCode: number }[] }[];

function request(a: TxnOffsetCommitArgs): Any {
  const byTopic = new Map<string, { partition: number; offset: number }[]>();
  for (const o of a.offsets) (byTopic.get(o.topic) ?? byTopic.set(o.topic, []).get(o.topic)!).push(o);
  return flexibleRequest<Response>(
    "TxnOffsetCommit",
    VERSION,
    (e) => {
      e.writeUVarIntString(a.transactionalId);
      e.writeUVarIntString(a.group.groupId);
      e.writeInt64(a.producerId);
      e.writeInt16(a.producerEpoch);
      e.writeInt32(a.group.generationId);
      e.writeUVarIntString(a.group.memberId);
      e.writeUVarIntString(a.group.groupInstanceId);
      writeCompactArray(e, [...byTopic], (e, [name, parts]) => {
        e.writeUVarIntString(name);
        writeCompactArray(e, parts, (e, p) => {
          e.writeInt32(p.partition);
          e.writeInt64(p.offset);
          e.writeInt32(-1); // committed_leader_epoch: unknown
          e.writeUVarIntString(null); // committed_metadata
          e.writeUVarInt(0);
        });
        e.writeUVarInt(0);
      });
      e.writeUVarInt(0);
    },
    (d) => {
      d.readInt32(); // throttle_time_ms
      const topics = readCompactArray(d, (d) => {
        const name = d.readUVarIntString() as string;
        const partitions = readCompactArray(d, (d) => {
          const partition = d.readInt32() as number;
          const errorCode = d.readInt16() as number;
          d.readTaggedFields();
          return { partition, errorCode };
        });
        d.readTaggedFields();
        return { name, partitions };
      });
      d.readTaggedFields();
      return topics;
    },
  );
}

/** Sends TxnOffsetCommit v3 to the group coordinator; throws KafkaProtocolError with the first partition error. */
export async function txnOffsetCommit(coordinator: Any, a: TxnOffsetCommitArgs): Promise<void> {
  if (brokerMaxVersion(coordinator, apiKeys.TxnOffsetCommit!) < VERSION) {
    throw new Error(
      `the Kafka broker does not accept TxnOffsetCommit v${VERSION} (group metadata, KIP-447); group mode needs Kafka 2.5 or later`,
    );
  }
  const res = await sendToBroker<Response>(coordinator, request(a));
  for (const t of res) {
    for (const p of t.partitions) {
      if (p.errorCode !== KafkaErrorCode.NONE) {
        throw new KafkaProtocolError(p.errorCode, `TxnOffsetCommit of ${t.name}-${p.partition} for group ${a.group.groupId}`);
      }
    }
  }
}
