/**
 * What the parts of a group-mode worker share: its configuration, internal topics, the group's
 * watermark, the Kafka handles it opens at setup, and the query's status. The worker loop
 * (group-execution.ts), its place in the group (group-assignment.ts) and its batches
 * (worker-batch.ts) each hold one.
 */
import type { KafkaAdmin, KafkaFetcher } from "../../connectors/kafka/client.js";
import type { QueryStatus } from "../micro-batch-execution.js";
import type { GlobalWatermark } from "./global-watermark.js";
import type { GroupExecutionConfig } from "./group-execution.js";
import type { GroupMembership, WorkerTransactionsPort } from "./kafka-ports.js";
import type { InternalTopics } from "./options.js";
import type { TaskBatchSink } from "./task-batch-sink.js";
import type { TaskSnapshots } from "./task-snapshots.js";

/** The Kafka handles a worker opens at setup (before it, none is used). */
export class WorkerIo {
  admin!: KafkaAdmin;
  /** read_uncommitted: a changelog partition's log end, to see an open transaction before a restore. */
  logEndAdmin: KafkaAdmin | null = null;
  fetcher!: KafkaFetcher;
  member!: GroupMembership;
  txn!: WorkerTransactionsPort;
  /** Null for a stateless query. */
  snapshots: TaskSnapshots | null = null;
  /** The task count in force (the repartition and changelog topics' partitions). */
  numTasks = 0;

  async close(): Promise<void> {
    await this.member?.close().catch(() => {});
    await this.snapshots?.close().catch(() => {});
    await this.txn?.close().catch(() => {});
    await this.fetcher?.close().catch(() => {});
    await this.admin?.close().catch(() => {});
    await this.logEndAdmin?.close().catch(() => {});
  }
}

export interface WorkerShared {
  readonly cfg: GroupExecutionConfig;
  readonly topics: InternalTopics;
  readonly watermark: GlobalWatermark;
  readonly io: WorkerIo;
  readonly workerId: string;
  /** The foreachBatch sink's per-task batches; null with a Kafka sink. */
  readonly taskSink: TaskBatchSink | null;
  /** Where the query's status is (GroupExecution.status). */
  readonly host: { status: QueryStatus };
}

/** The source topics (group mode reads topics given with `subscribe`). */
export function sourceTopics(cfg: GroupExecutionConfig): string[] {
  const sub = cfg.source.subscription;
  if (sub.kind !== "subscribe") throw new Error("group mode reads topics given with 'subscribe'");
  return sub.topics;
}
