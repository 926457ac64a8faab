/**
 * Kafka's ConsumerProtocol (protocol type "consumer"): the subscription a member sends in
 * JoinGroup and the assignment the leader hands out through SyncGroup, in the byte layout of
 * ConsumerProtocolSubscription.json / ConsumerProtocolAssignment.json (int16 version first,
 * non-flexible), so kafka-consumer-groups.sh and other clients' tools read arus's groups.
 * Decoding follows Kafka's rule that newer versions only append fields.
 */
import type { TopicPartition } from "../client.js";
import { type Any, Decoder, Encoder } from "./kafkajs-protocol.js";

/** Version 2: topics, user data, owned partitions (v1), generation (v2). */
const SUBSCRIPTION_VERSION = 2;
const ASSIGNMENT_VERSION = 2;

export interface Subscription {
  readonly topics: readonly string[];
  readonly userData: Buffer | null;
  readonly ownedPartitions: readonly TopicPartition[];
  readonly generationId: number;
}

export interface Assignment {
  readonly partitions: readonly TopicPartition[];
  readonly userData: Buffer | null;
}

function byTopic(tps: readonly TopicPartition[]): [string, number[]][] {
  const m = new Map<string, number[]>();
  for (const tp of tps) (m.get(tp.topic) ?? m.set(tp.topic, []).get(tp.topic)!).push(tp.partition);
  return [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([t, ps]) => [t, ps.sort((x, y) => x - y)]);
}

function writeTopicPartitions(e: Any, tps: readonly TopicPartition[]): void {
  const groups = byTopic(tps);
  e.writeInt32(groups.length);
  for (const [topic, parts] of groups) {
    e.writeString(topic);
    e.writeInt32(parts.length);
    for (const p of parts) e.writeInt32(p);
  }
}

function readTopicPartitions(d: Any): TopicPartition[] {
  const out: TopicPartition[] = [];
  const n = d.readInt32() as number;
  for (let i = 0; i < n; i++) {
    const topic = d.readString() as string;
    const m = d.readInt32() as number;
    for (let j = 0; j < m; j++) out.push({ topic, partition: d.readInt32() as number });
  }
  return out;
}

function readNullableBytes(d: Any): Buffer | null {
  const len = d.readInt32() as number;
  return len < 0 ? null : (d.readBytes(len) as Buffer);
}

export function encodeSubscription(s: Subscription): Buffer {
  const e = new Encoder();
  e.writeInt16(SUBSCRIPTION_VERSION);
  e.writeInt32(s.topics.length);
  for (const t of s.topics) e.writeString(t);
  e.writeBytes(s.userData);
  writeTopicPartitions(e, s.ownedPartitions);
  e.writeInt32(s.generationId);
  return e.buffer as Buffer;
}

/** Any version a Kafka client writes; `where` names the member in errors. */
export function decodeSubscription(buf: Buffer, where: string): Subscription {
  try {
    const d = new Decoder(buf);
    const version = d.readInt16() as number;
    if (version < 0) throw new Error(`version ${version}`);
    const topics: string[] = [];
    const n = d.readInt32() as number;
    for (let i = 0; i < n; i++) topics.push(d.readString() as string);
    const userData = readNullableBytes(d);
    const ownedPartitions = version >= 1 && d.canReadBytes(4) ? readTopicPartitions(d) : [];
    const generationId = version >= 2 && d.canReadBytes(4) ? (d.readInt32() as number) : -1;
    return { topics, userData, ownedPartitions, generationId };
  } catch (e) {
    throw new Error(`cannot read the consumer subscription of ${where}: ${(e as Error).message} (is a non-consumer client in this group?)`);
  }
}

export function encodeAssignment(a: Assignment): Buffer {
  const e = new Encoder();
  e.writeInt16(ASSIGNMENT_VERSION);
  writeTopicPartitions(e, a.partitions);
  e.writeBytes(a.userData);
  return e.buffer as Buffer;
}

export function decodeAssignment(buf: Buffer): Assignment {
  // An empty assignment (the leader gave this member nothing) may come as no bytes at all.
  if (buf.length === 0) return { partitions: [], userData: null };
  const d = new Decoder(buf);
  d.readInt16();
  const partitions = readTopicPartitions(d);
  const userData = d.canReadBytes(4) ? readNullableBytes(d) : null;
  return { partitions, userData };
}
