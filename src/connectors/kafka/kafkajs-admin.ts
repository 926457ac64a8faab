/**
 * KafkaAdmin over kafkajs's admin client and a cluster object of its own (ListOffsets per
 * leader broker from cached metadata, topic configs, group offsets).
 */
import type { ConfigResourceTypes } from "kafkajs";
import type { KafkaAdmin, TopicPartition } from "./client.js";
import { tpKey } from "./client.js";
import { LEADERSHIP_ERRORS, retrying } from "./kafkajs-retry.js";

// biome-ignore lint/suspicious/noExplicitAny: kafkajs's cluster and broker objects are untyped
type Any = any;

export class Admin implements KafkaAdmin {
  constructor(
    private readonly admin: Any,
    private readonly cluster: Any,
    readonly close: () => Promise<void>,
  ) {}
  async listTopics(): Promise<string[]> {
    return (await this.admin.listTopics()) as string[];
  }
  async partitions(topics: readonly string[]): Promise<TopicPartition[]> {
    const existing = new Set(await this.listTopics());
    const wanted = topics.filter((t) => existing.has(t));
    if (!wanted.length) return [];
    const md = await this.admin.fetchTopicMetadata({ topics: wanted });
    const out: TopicPartition[] = [];
    for (const t of md.topics as { name: string; partitions: { partitionId: number }[] }[]) {
      for (const p of t.partitions) out.push({ topic: t.name, partition: p.partitionId });
    }
    return out;
  }
  /**
   * listOffsets, retried for a while on a leadership answer: a partition created or moved a
   * moment ago can be in the metadata before its leader serves it (NOT_LEADER_OR_FOLLOWER,
   * LEADER_NOT_AVAILABLE), as Kafka's Java admin retries them too.
   */
  private async listOffsetsSettled(tps: readonly TopicPartition[], ts: number | "earliest" | "latest"): Promise<Map<string, number>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.listOffsets(tps, ts);
      } catch (e) {
        if (attempt >= 20 || !LEADERSHIP_ERRORS.has((e as { type?: string }).type ?? "")) throw e;
        await new Promise((r) => setTimeout(r, Math.min(500, 50 * (attempt + 1))));
        await this.cluster.refreshMetadata().catch(() => {});
      }
    }
  }
  private async listOffsets(tps: readonly TopicPartition[], ts: number | "earliest" | "latest"): Promise<Map<string, number>> {
    const byTopic = new Map<string, number[]>();
    for (const tp of tps) (byTopic.get(tp.topic) ?? byTopic.set(tp.topic, []).get(tp.topic)!).push(tp.partition);
    const out = new Map<string, number>();
    if (!byTopic.size) return out;
    await this.cluster.addMultipleTargetTopics([...byTopic.keys()]);
    const res = await this.cluster.fetchTopicsOffset(
      [...byTopic].map(([topic, parts]) => ({
        topic,
        ...(typeof ts === "number" ? { fromTimestamp: ts } : { fromBeginning: ts === "earliest" }),
        partitions: parts.map((partition) => ({ partition })),
      })),
    );
    for (const t of res as { topic: string; partitions: { partition: number; offset: string }[] }[]) {
      for (const p of t.partitions) out.set(tpKey({ topic: t.topic, partition: p.partition }), Number(p.offset));
    }
    return out;
  }
  /**
   * One ListOffsets request per leader broker, the leaders taken from the cluster's cached
   * metadata; a partition that metadata does not know yet (added since) refreshes it once.
   */
  private async offsetsAt(tps: readonly TopicPartition[], which: "earliest" | "latest"): Promise<Map<string, number>> {
    let r = await this.listOffsetsSettled(tps, which);
    if (tps.some((tp) => !r.has(tpKey(tp)))) {
      await this.cluster.refreshMetadata();
      r = await this.listOffsetsSettled(tps, which);
      const missing = tps.filter((tp) => !r.has(tpKey(tp)));
      if (missing.length) throw new Error(`partitions ${missing.map(tpKey).join(", ")} are not in the broker's metadata`);
    }
    return r;
  }
  latestOffsets(tps: readonly TopicPartition[]) {
    return this.offsetsAt(tps, "latest");
  }
  earliestOffsets(tps: readonly TopicPartition[]) {
    return this.offsetsAt(tps, "earliest");
  }
  async offsetRange(tps: readonly TopicPartition[]) {
    const [lo, hi] = await Promise.all([this.offsetsAt(tps, "earliest"), this.offsetsAt(tps, "latest")]);
    const out = new Map<string, { earliest: number; latest: number }>();
    for (const tp of tps) out.set(tpKey(tp), { earliest: lo.get(tpKey(tp))!, latest: hi.get(tpKey(tp))! });
    return out;
  }
  async offsetsForTimes(tps: readonly TopicPartition[], timestampMs: number) {
    const r = await this.listOffsetsSettled(tps, timestampMs);
    const out = new Map<string, number | null>();
    for (const tp of tps) {
      const v = r.get(tpKey(tp));
      out.set(tpKey(tp), v === undefined || v < 0 ? null : v);
    }
    return out;
  }
  async createTopic(topic: string, partitions: number, configs: Readonly<Record<string, string>> = {}) {
    const configEntries = Object.entries(configs).map(([name, value]) => ({ name, value }));
    const created = await this.admin.createTopics({
      waitForLeaders: false,
      topics: [{ topic, numPartitions: partitions, replicationFactor: 1, configEntries }],
    });
    // Wait until every partition has a leader. kafkajs's own wait (waitForLeaders) gives up on
    // UNKNOWN_TOPIC_OR_PARTITION, which a broker answers for a moment after the creation
    // (more often while other topics are being deleted). A topic another client created at the
    // same moment (`created` false) is waited for too, whatever its partition count (the
    // caller checks that).
    for (let attempt = 0; ; attempt++) {
      try {
        const md = await this.admin.fetchTopicMetadata({ topics: [topic] });
        const parts = (md.topics[0]?.partitions ?? []) as { leader: number }[];
        const counted = created ? parts.length === partitions : parts.length > 0;
        if (counted && parts.every((p) => p.leader >= 0)) return;
      } catch (e) {
        const type = (e as { type?: string }).type ?? "";
        if (attempt >= 50 || (type !== "UNKNOWN_TOPIC_OR_PARTITION" && type !== "LEADER_NOT_AVAILABLE")) throw e;
      }
      if (attempt >= 50) throw new Error(`topic ${topic}: partitions without a leader after ${attempt} attempts`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async addPartitions(topic: string, total: number) {
    await this.admin.createPartitions({ topicPartitions: [{ topic, count: total }] });
  }
  async deleteTopic(topic: string) {
    await this.admin.deleteTopics({ topics: [topic] });
  }
  async deleteRecords(tp: TopicPartition, before: number) {
    await this.admin.fetchTopicOffsets(tp.topic); // loads the topic's metadata, which deleteTopicRecords needs
    await this.admin.deleteTopicRecords({ topic: tp.topic, partitions: [{ partition: tp.partition, offset: String(before) }] });
  }
  async topicConfigs(topic: string, names: readonly string[]) {
    const res = await this.admin.describeConfigs({
      includeSynonyms: false,
      // ConfigResourceTypes.TOPIC (the enum is not among kafkajs's ESM named exports).
      resources: [{ type: 2 as ConfigResourceTypes, name: topic, configNames: [...names] }],
    });
    const out: Record<string, string> = {};
    for (const e of res.resources[0]?.configEntries ?? []) out[e.configName] = e.configValue;
    return out;
  }
  async groupOffsets(groupId: string, topic: string) {
    // A topic that does not exist yet (the sink's output, created by its first write) has no
    // committed offsets; kafkajs would fail on its metadata.
    if (!(await this.listTopics()).includes(topic)) return new Map<number, number>();
    const res = (await retrying(() => this.admin.fetchOffsets({ groupId, topics: [topic] }))) as {
      partitions: { partition: number; offset: string }[];
    }[];
    const out = new Map<number, number>();
    for (const p of res[0]?.partitions ?? []) if (Number(p.offset) >= 0) out.set(p.partition, Number(p.offset));
    return out;
  }
}
