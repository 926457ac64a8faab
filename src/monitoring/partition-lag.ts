/**
 * A Kafka source's lag per topic-partition, from its progress entry: `latestOffset − endOffset`
 * of each partition (Spark's Kafka offsets JSON, `{"topic":{"0":42}}`), what
 * `arus_kafka_partition_lag` exports. In group mode a worker's entry lists only the source
 * partitions it owns, so the series follow a partition from worker to worker.
 */
import type { SourceProgress } from "../runtime/progress.js";

export interface PartitionLag {
  readonly topic: string;
  readonly partition: string;
  readonly lag: number;
}

type KafkaOffsets = Record<string, Record<string, number>>;

/** Offsets as a Kafka source reports them (an object, or its JSON text); null for anything else. */
function kafkaOffsets(o: SourceProgress["endOffset"]): KafkaOffsets | null {
  let v: unknown = o;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  for (const parts of Object.values(v)) {
    if (parts === null || typeof parts !== "object" || Array.isArray(parts)) return null;
    if (!Object.values(parts).every((n) => typeof n === "number")) return null;
  }
  return v as KafkaOffsets;
}

/**
 * The partitions' lags, or null when the entry says nothing about them (not a Kafka source, or
 * an entry without both offsets, as an idle entry before the first batch). A partition the
 * batch has not read yet counts from 0, as the offsets-behind-latest metrics do.
 */
export function kafkaPartitionLags(s: SourceProgress): PartitionLag[] | null {
  if (!s.description.startsWith("KafkaV2[")) return null;
  const end = kafkaOffsets(s.endOffset);
  const latest = kafkaOffsets(s.latestOffset);
  if (!end || !latest) return null;
  const out: PartitionLag[] = [];
  for (const [topic, parts] of Object.entries(latest)) {
    for (const [partition, newest] of Object.entries(parts)) {
      out.push({ topic, partition, lag: Math.max(0, newest - (end[topic]?.[partition] ?? 0)) });
    }
  }
  return out;
}
