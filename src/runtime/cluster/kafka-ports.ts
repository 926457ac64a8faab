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

/** What a join gave this worker. */
export interface JoinResult {
  /** The partitions this worker owns in the new generation. */
  readonly partitions: readonly TopicPartition[];
  readonly generationId: number;
  /** The group runs the cooperative protocol: the next join may run beside the batches. */
  readonly cooperative: boolean;
}

export interface GroupMembership {
  /**
   * Join (or rejoin) the group. `userData` goes in the subscription: when it differs from the
   * last join's, the coordinator rebalances (a static member's restart, or a member that saw new
   * source partitions).
   */
  join(userData?: Buffer | null): Promise<JoinResult>;
  /**
   * A heartbeat said the group rebalances, this member was fenced, or (cooperative) it lost
   * partitions in the last round: rejoin.
   */
  readonly needsRejoin: boolean;
  /** A join is between its JoinGroup and SyncGroup answers: offsets sent now would be refused. */
  readonly syncing: boolean;
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
    rebalanceProtocol: "cooperative" | "eager";
  }): GroupMembership;
  transactions(o: { transactionalId: string; transactionTimeoutMs: number }): WorkerTransactionsPort;
}
