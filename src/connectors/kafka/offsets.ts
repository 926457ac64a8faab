/**
 * Per-partition offsets in Spark's JSON shape (`{"topic":{"0":42}}`, topics and partitions
 * sorted), their parsing with Spark's error text, and Spark's `maxOffsetsPerTrigger` split.
 */
import { IllegalArgumentException } from "../../common/errors.js";
import type { Offset } from "../source.js";
import { type TopicPartition, tpKey } from "./client.js";

/** topic -> partition -> offset. -2 = earliest, -1 = latest (in startingOffsets/endingOffsets). */
export type PartitionOffsets = Map<string, Map<number, number>>;

const EXAMPLE = `{"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}`;

export function parsePartitionOffsets(text: string): PartitionOffsets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new IllegalArgumentException(`Expected e.g. ${EXAMPLE}, got ${text}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new IllegalArgumentException(`Expected e.g. ${EXAMPLE}, got ${text}`);
  }
  const out: PartitionOffsets = new Map();
  for (const [topic, parts] of Object.entries(parsed as Record<string, unknown>)) {
    if (parts === null || typeof parts !== "object" || Array.isArray(parts)) {
      throw new IllegalArgumentException(`Expected e.g. ${EXAMPLE}, got ${text}`);
    }
    const m = new Map<number, number>();
    for (const [p, off] of Object.entries(parts as Record<string, unknown>)) {
      const pn = Number(p);
      if (!Number.isInteger(pn) || pn < 0 || typeof off !== "number" || !Number.isSafeInteger(off)) {
        throw new IllegalArgumentException(`Expected e.g. ${EXAMPLE}, got ${text}`);
      }
      m.set(pn, off);
    }
    out.set(topic, m);
  }
  return out;
}

export function parseTopicPartitions(text: string): TopicPartition[] {
  const example = `{"topicA":[0,1],"topicB":[0,1]}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new IllegalArgumentException(`Expected e.g. ${example}, got ${text}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new IllegalArgumentException(`Expected e.g. ${example}, got ${text}`);
  }
  const out: TopicPartition[] = [];
  for (const [topic, parts] of Object.entries(parsed as Record<string, unknown>)) {
    if (!Array.isArray(parts) || parts.some((p) => !Number.isInteger(p) || p < 0)) {
      throw new IllegalArgumentException(`Expected e.g. ${example}, got ${text}`);
    }
    for (const p of parts as number[]) out.push({ topic, partition: p });
  }
  return out;
}

/** Flat form used while computing: "topic-partition" key -> offset, with the partition kept. */
export class OffsetMap {
  readonly entries = new Map<string, { tp: TopicPartition; offset: number }>();
  static fromJson(o: Offset | null): OffsetMap {
    const m = new OffsetMap();
    if (o && typeof o === "object" && !Array.isArray(o)) {
      for (const [topic, parts] of Object.entries(o)) {
        for (const [p, off] of Object.entries(parts as Record<string, number>)) m.set({ topic, partition: Number(p) }, Number(off));
      }
    }
    return m;
  }
  set(tp: TopicPartition, offset: number): void {
    this.entries.set(tpKey(tp), { tp, offset });
  }
  get(tp: TopicPartition): number | undefined {
    return this.entries.get(tpKey(tp))?.offset;
  }
  has(tp: TopicPartition): boolean {
    return this.entries.has(tpKey(tp));
  }
  get partitions(): TopicPartition[] {
    return sortPartitions([...this.entries.values()].map((e) => e.tp));
  }
  get size(): number {
    return this.entries.size;
  }
  /** Spark's JSON shape, topics and partitions in order. */
  toJson(): Offset {
    const out: Record<string, Record<string, number>> = {};
    for (const tp of this.partitions) (out[tp.topic] ??= {})[String(tp.partition)] = this.get(tp)!;
    return out;
  }
}

export function sortPartitions(tps: TopicPartition[]): TopicPartition[] {
  return tps.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

/**
 * Spark's KafkaMicroBatchStream.rateLimit: `limit` offsets spread over the partitions in
 * proportion to what each has available (a partition with a share below 1 still gets 1).
 */
export function rateLimit(limit: number, from: OffsetMap, until: OffsetMap, newStart: (tp: TopicPartition) => number): OffsetMap {
  const sizes = new Map<string, number>();
  let total = 0;
  for (const { tp, offset: end } of until.entries.values()) {
    const begin = from.get(tp) ?? newStart(tp);
    const size = end - begin;
    if (size > 0) {
      sizes.set(tpKey(tp), size);
      total += size;
    }
  }
  if (total < 1) return until;
  const out = new OffsetMap();
  for (const { tp, offset: end } of until.entries.values()) {
    const size = sizes.get(tpKey(tp));
    if (size === undefined) {
      out.set(tp, end);
      continue;
    }
    const begin = from.get(tp) ?? newStart(tp);
    const prorate = limit * (size / total);
    const n = prorate < 1 ? Math.ceil(prorate) : Math.floor(prorate);
    out.set(tp, Math.min(end, begin + n));
  }
  return out;
}

/** Spark 3.3+'s source metrics from how far each partition's consumed offset trails its latest. */
export function offsetsBehindMetrics(behind: readonly number[]): Record<string, string> | undefined {
  if (!behind.length) return undefined;
  const avg = behind.reduce((a, b) => a + b, 0) / behind.length;
  return {
    avgOffsetsBehindLatest: Number.isInteger(avg) ? `${avg}.0` : String(avg),
    maxOffsetsBehindLatest: String(Math.max(...behind)),
    minOffsetsBehindLatest: String(Math.min(...behind)),
  };
}
