/** Kafka consumer-group membership and worker transactions for group mode (docs/kafka-groups.md). */
export {
  assignCooperativeStickyRange,
  assignStickyRange,
  cooperativeStickyRangeAssignor,
  type GroupAssignor,
  GroupSubscriptionMismatch,
  type MemberSubscription,
  stickyRangeAssignor,
} from "./assignor.js";
export { classify, isFenced, KafkaFencedError, KafkaTransientError } from "./errors.js";
export {
  type GroupAssignment,
  type GroupMetadata,
  type KafkaConnection,
  KafkaGroupMember,
  type KafkaGroupMemberOptions,
  type RebalanceProtocol,
} from "./member.js";
export { type OffsetsToCommit, WorkerTransactions, type WorkerTransactionsOptions } from "./transaction.js";
