/**
 * A group-mode worker's reads and writes of Kafka partitions, apart from its loop: the internal
 * topics created (or checked), the new records of the source and repartition partitions it
 * owns, and maxOffsetsPerTrigger spread over them (a task's restore: task-restore.ts).
 */
import type { Batch } from "../../columnar/batch.js";
import { getValue } from "../../columnar/vector.js";
import { ArusError } from "../../common/errors.js";
import type { KafkaAdmin, KafkaFetcher, TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import { columnsToBatch, kafkaSchema } from "../../connectors/kafka/rows.js";
import type { Attribute } from "../../plan/expressions.js";
import type { InternalTopics } from "./options.js";
import { decodeRows } from "./repartition.js";

/**
 * The progress topic; for a stateful query also the repartition and changelog topics, whose
 * partition count is the task count. `numTasks` null (no `arus.cluster.partitions`): the count of
 * the internal topics that exist (the tasks are fixed for the life of the group, even when the
 * source topic got partitions since), else `sourcePartitions`. The task count in force.
 */
export async function createInternalTopics(
  admin: KafkaAdmin,
  topics: InternalTopics,
  numTasks: number | null,
  sourcePartitions: number,
  stateful: boolean,
): Promise<number> {
  await admin.createTopic(topics.progress, 1, { "cleanup.policy": "compact" });
  if (!stateful) return numTasks ?? sourcePartitions;
  const existing = (await admin.partitions([topics.repartition])).length;
  const tasks = numTasks ?? (existing || sourcePartitions);
  await admin.createTopic(topics.repartition, tasks);
  await admin.createTopic(topics.changelog, tasks, { "cleanup.policy": "compact" });
  for (const t of [topics.repartition, topics.changelog]) {
    const n = (await admin.partitions([t])).length;
    if (n !== tasks) {
      throw new ArusError(
        "CLUSTER_PARTITIONS_MISMATCH",
        `group mode: internal topic ${t} has ${n} partitions, but this pipeline expects ${tasks} (${numTasks === null ? "the other internal topic's count" : "arus.cluster.partitions"}). The state is partitioned by it: keep the partition count the group started with (leave arus.cluster.partitions out, or set it to ${n}), or start a new group.`,
      );
    }
  }
  return tasks;
}

/** maxOffsetsPerTrigger spread over the partitions in proportion to their backlog. */
export function limitEnds(
  latest: ReadonlyMap<string, number>,
  tps: readonly TopicPartition[],
  positions: ReadonlyMap<string, number>,
  limit: number,
): Map<string, number> {
  let total = 0;
  for (const tp of tps) total += Math.max(0, latest.get(tpKey(tp))! - positions.get(tpKey(tp))!);
  if (total <= limit) return new Map(latest);
  const out = new Map<string, number>();
  for (const tp of tps) {
    const from = positions.get(tpKey(tp))!;
    const back = Math.max(0, latest.get(tpKey(tp))! - from);
    out.set(tpKey(tp), from + Math.floor((back * limit) / total));
  }
  return out;
}

/** The new records of each source partition, in Spark's Kafka schema (partitions without any left out). */
export async function readSourceRecords(
  fetcher: KafkaFetcher,
  tps: readonly TopicPartition[],
  positions: ReadonlyMap<string, number>,
  ends: ReadonlyMap<string, number>,
  includeHeaders: boolean,
): Promise<{ parts: { tp: TopicPartition; batch: Batch }[]; rows: number }> {
  const schema = kafkaSchema(includeHeaders);
  const parts: { tp: TopicPartition; batch: Batch }[] = [];
  let rows = 0;
  for (const tp of tps) {
    const from = positions.get(tpKey(tp))!;
    const until = ends.get(tpKey(tp))!;
    if (until <= from) continue;
    const batch = columnsToBatch(schema, tp, await fetcher.fetchColumns(tp, from, until));
    parts.push({ tp, batch });
    rows += batch.numRows;
  }
  return { parts, rows };
}

/** The rows of a repartition partition's records in [from, until). */
export async function readRepartition(
  fetcher: KafkaFetcher,
  tp: TopicPartition,
  from: number,
  until: number,
  columns: readonly Attribute[],
): Promise<Batch[]> {
  const types = columns.map((a) => a.type);
  const out: Batch[] = [];
  for (const r of from < until ? await fetcher.fetch(tp, from, until) : []) {
    if (r.value) out.push(decodeRows(types, r.value, `${tpKey(tp)}@${r.offset}`));
  }
  return out;
}

/** The max of a TIMESTAMP column over batches, ms (null when every value is null). */
export function maxEventTimeMs(batches: readonly Batch[], column: number): number | null {
  let max = Number.NEGATIVE_INFINITY;
  for (const b of batches) {
    const v = b.columns[column]!;
    for (let i = 0; i < b.numRows; i++) {
      if (v.validity && v.validity[i] === 0) continue;
      const x = Number(getValue(v, i));
      if (x > max) max = x;
    }
  }
  return max === Number.NEGATIVE_INFINITY ? null : Math.floor(max / 1000);
}

/** The min of a TIMESTAMP column over rows of internal values, ms (null when every value is null). */
export function minEventTimeMs(rows: readonly (readonly unknown[])[], column: number): number | null {
  let min = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    const x = Number(v);
    if (x < min) min = x;
  }
  return min === Number.POSITIVE_INFINITY ? null : Math.floor(min / 1000);
}
