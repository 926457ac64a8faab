/**
 * The two Kafka parts a group-mode worker stands on, as the worker loop sees them: its
 * membership in the consumer group, and its one transactional producer (EOS v2). start.ts
 * builds them from the connector's implementations (connectors/kafka/group/).
 */
import type { OutRecord, TopicPartition } from "../../connectors/kafka/client.js";

/** The group generation a transaction's offsets are sent with (KIP-447 fencing). */
export interface GroupMetadata {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}

export interface GroupMembership {
  /**
   * Join (or rejoin) the group; the partitions this worker owns in the new generation.
   * `userData` goes in the subscription: when it differs from the last join's, the coordinator
   * rebalances (a static member's restart, or a member that saw new source partitions).
   */
  join(userData?: Buffer | null): Promise<readonly TopicPartition[]>;
  /** A heartbeat said the group rebalances (or this member was fenced): rejoin between batches. */
  readonly needsRejoin: boolean;
  metadata(): GroupMetadata;
  /** The group's committed offsets, waiting for pending transactional commits (require_stable). */
  committedOffsets(tps: readonly TopicPartition[]): Promise<Map<string, number | null>>;
  leave(): Promise<void>;
  close(): Promise<void>;
}

export interface WorkerTransactionsPort {
  /** InitProducerId: fences an earlier producer with the same transactional id. */
  init(): Promise<void>;
  begin(): Promise<void>;
  /** Per partition named explicitly (tpKey): the offset of the last record sent there. */
  send(records: readonly OutRecord[]): Promise<ReadonlyMap<string, number>>;
  sendOffsets(offsets: readonly (TopicPartition & { offset: number })[], metadata: GroupMetadata): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  close(): Promise<void>;
}

export interface KafkaPorts {
  membership(o: {
    groupId: string;
    topics: readonly string[];
    groupInstanceId: string | null;
    sessionTimeoutMs: number;
    rebalanceTimeoutMs: number;
  }): GroupMembership;
  transactions(o: { transactionalId: string; transactionTimeoutMs: number }): WorkerTransactionsPort;
}
