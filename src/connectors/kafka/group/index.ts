/** Kafka consumer-group membership and worker transactions for group mode (docs/kafka-groups.md). */
export {
  assignStickyRange,
  type GroupAssignor,
  GroupSubscriptionMismatch,
  type MemberSubscription,
  stickyRangeAssignor,
} from "./assignor.js";
