/**
 * How many partitions each subscribed topic has now, from fresh metadata: what the leader
 * assigns over, and what a member compares its assignment's counts with (a topic that gained
 * partitions since makes the assignment stale). A missing topic is an error that names it.
 */
import type { Any } from "./kafkajs-protocol.js";

/** `cluster` is kafkajs's cluster; `where` names the member in errors. */
export async function partitionCounts(cluster: Any, topics: readonly string[], where: string): Promise<Map<string, number>> {
  try {
    await cluster.addMultipleTargetTopics(topics);
    await cluster.refreshMetadata();
  } catch (e) {
    if ((e as { type?: string }).type === "UNKNOWN_TOPIC_OR_PARTITION") {
      const known = new Set(
        ((await cluster.metadata().catch(() => ({ topicMetadata: [] }))).topicMetadata as { topic: string }[]).map((t) => t.topic),
      );
      const missing = topics.filter((t) => !known.has(t));
      throw new Error(
        `${where}: subscribed topic${missing.length === 1 ? "" : "s"} ${missing.join(", ") || topics.join(", ")} do${missing.length === 1 ? "es" : ""} not exist`,
      );
    }
    throw new Error(`${where}: cannot read the metadata of topics ${topics.join(", ")}: ${(e as Error).message}`, { cause: e });
  }
  const out = new Map<string, number>();
  for (const t of topics) {
    const parts = (cluster.findTopicPartitionMetadata(t) ?? []) as unknown[];
    if (!parts.length) throw new Error(`${where}: topic ${t} does not exist (or has no partitions)`);
    out.set(t, parts.length);
  }
  return out;
}
