/**
 * Which topic-partitions a source reads: Spark's `subscribe` (topic list), `subscribePattern`
 * (regex over the broker's topics) and `assign` (fixed partitions). Kept apart from offset
 * tracking so that a consumer-group assignment (scale-out) can later narrow the set to the
 * partitions one worker owns.
 */
import type { KafkaAdmin, TopicPartition } from "./client.js";
import { sortPartitions } from "./offsets.js";

export type Subscription =
  | { kind: "subscribe"; topics: string[] }
  | { kind: "pattern"; pattern: RegExp; text: string }
  | { kind: "assign"; partitions: TopicPartition[] };

/** The partitions the subscription covers now (partitions added to a topic are included). */
export async function currentPartitions(sub: Subscription, admin: KafkaAdmin): Promise<TopicPartition[]> {
  switch (sub.kind) {
    case "assign":
      return sortPartitions([...sub.partitions]);
    case "subscribe":
      return sortPartitions(await admin.partitions(sub.topics));
    case "pattern": {
      const topics = (await admin.listTopics()).filter((t) => !t.startsWith("__") && sub.pattern.test(t));
      return sortPartitions(await admin.partitions(topics));
    }
  }
}

/** Spark's `KafkaV2[Subscribe[a,b]]` description strategy part. */
export function describeSubscription(sub: Subscription): string {
  switch (sub.kind) {
    case "assign":
      return `Assign[${sub.partitions.map((p) => `${p.topic}-${p.partition}`).join(", ")}]`;
    case "subscribe":
      return `Subscribe[${sub.topics.join(",")}]`;
    case "pattern":
      return `SubscribePattern[${sub.text}]`;
  }
}
