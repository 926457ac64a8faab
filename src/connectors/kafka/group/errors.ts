/**
 * The errors group mode tells apart. A fenced error means this worker's view is stale: its group
 * generation ended (a rebalance it missed, or it was removed after its session timed out) or a
 * newer producer took its transactional id. The worker must abort, stop processing and rejoin
 * (re-init its producer for a producer fence); retrying the same write can never succeed. A
 * transient error (coordinator moving or loading, a concurrent transaction still ending, a
 * pending offset commit, a lost connection) is worth retrying the whole transaction after a pause.
 */

/** Kafka error codes (org.apache.kafka.common.protocol.Errors) group mode reacts to. */
export const KafkaErrorCode = {
  NONE: 0,
  REQUEST_TIMED_OUT: 7,
  NETWORK_EXCEPTION: 13,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  ILLEGAL_GENERATION: 22,
  INCONSISTENT_GROUP_PROTOCOL: 23,
  UNKNOWN_MEMBER_ID: 25,
  REBALANCE_IN_PROGRESS: 27,
  INVALID_PRODUCER_EPOCH: 47,
  INVALID_TXN_STATE: 48,
  INVALID_PRODUCER_ID_MAPPING: 49,
  CONCURRENT_TRANSACTIONS: 51,
  TRANSACTION_COORDINATOR_FENCED: 52,
  UNKNOWN_PRODUCER_ID: 59,
  MEMBER_ID_REQUIRED: 79,
  FENCED_INSTANCE_ID: 82,
  UNSTABLE_OFFSET_COMMIT: 88,
  PRODUCER_FENCED: 90,
} as const;

const NAMES = new Map<number, string>(Object.entries(KafkaErrorCode).map(([k, v]) => [v, k]));

export function errorName(code: number): string {
  return NAMES.get(code) ?? `error code ${code}`;
}

/** The group generation of this member is over (stale or removed member, or another instance took its id). */
const GROUP_FENCED = new Set<number>([
  KafkaErrorCode.ILLEGAL_GENERATION,
  KafkaErrorCode.UNKNOWN_MEMBER_ID,
  KafkaErrorCode.FENCED_INSTANCE_ID,
  KafkaErrorCode.REBALANCE_IN_PROGRESS,
]);
/** A newer producer holds the transactional id (or the broker forgot this producer): re-init it. */
const PRODUCER_FENCED = new Set<number>([
  KafkaErrorCode.PRODUCER_FENCED,
  KafkaErrorCode.INVALID_PRODUCER_EPOCH,
  KafkaErrorCode.INVALID_PRODUCER_ID_MAPPING,
  KafkaErrorCode.UNKNOWN_PRODUCER_ID,
]);
const TRANSIENT = new Set<number>([
  KafkaErrorCode.REQUEST_TIMED_OUT,
  KafkaErrorCode.NETWORK_EXCEPTION,
  KafkaErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
  KafkaErrorCode.NOT_COORDINATOR,
  KafkaErrorCode.CONCURRENT_TRANSACTIONS,
  KafkaErrorCode.TRANSACTION_COORDINATOR_FENCED,
  KafkaErrorCode.UNSTABLE_OFFSET_COMMIT,
]);
/** Coordinator errors after which the coordinator is looked up again. */
export const COORDINATOR_MOVED = new Set<number>([
  KafkaErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
  KafkaErrorCode.NOT_COORDINATOR,
]);

/** Stop processing, abort the open transaction, rejoin the group (and re-init the producer when `scope` is "producer"). */
export class KafkaFencedError extends Error {
  constructor(
    readonly scope: "group" | "producer",
    /** Kafka's error name, e.g. ILLEGAL_GENERATION or PRODUCER_FENCED. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "KafkaFencedError";
  }
}

/** Worth retrying the transaction (after an abort) once the cause has passed. */
export class KafkaTransientError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "KafkaTransientError";
  }
}

/** An error code in a response arus decodes itself (OffsetFetch v7, TxnOffsetCommit v3). */
export class KafkaProtocolError extends Error {
  constructor(
    readonly kafkaCode: number,
    message: string,
  ) {
    super(message);
    this.name = "KafkaProtocolError";
  }
}

export function isFenced(e: unknown): e is KafkaFencedError {
  return e instanceof KafkaFencedError;
}

/**
 * The Kafka error code of an error kafkajs raised: its protocol errors carry `code`, except for
 * codes kafkajs 2.2.4 does not know (PRODUCER_FENCED, 90, came after it), which it reports as
 * "Unknown error code N" with code -99.
 */
export function kafkaCode(e: unknown): number | null {
  if (e instanceof KafkaProtocolError) return e.kafkaCode;
  const err = e as { name?: string; code?: unknown; message?: string };
  if (err?.name !== "KafkaJSProtocolError" && !(err?.name ?? "").startsWith("KafkaJS")) return null;
  const m = /Unknown error code (-?\d+)/.exec(err.message ?? "");
  if (m) return Number(m[1]);
  return typeof err.code === "number" ? err.code : null;
}

/** A connection-level failure (broker gone, socket closed, request timed out on the client). */
function isConnectionError(e: unknown): boolean {
  const name = (e as { name?: string })?.name ?? "";
  return (
    name === "KafkaJSConnectionError" ||
    name === "KafkaJSConnectionClosedError" ||
    name === "KafkaJSRequestTimeoutError" ||
    name === "KafkaJSNumberOfRetriesExceeded" ||
    name === "KafkaJSBrokerNotFound" ||
    // No broker answered FindCoordinator (kafkajs drops each broker's error and raises this).
    name === "KafkaJSGroupCoordinatorNotFound" ||
    name === "KafkaJSLockTimeout" ||
    ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes((e as { code?: string })?.code ?? "")
  );
}

/**
 * Sorts an error of a Kafka call into fenced / transient / other (returned as it was), with
 * `what` (e.g. "commit of transaction arus-app-0 (group arus-app, bootstrap 127.0.0.1:9092)")
 * saying where.
 */
export function classify(e: unknown, what: string): unknown {
  if (e instanceof KafkaFencedError || e instanceof KafkaTransientError) return e;
  const code = kafkaCode(e);
  const msg = (e as Error)?.message ?? String(e);
  if (code !== null && GROUP_FENCED.has(code)) {
    return new KafkaFencedError(
      "group",
      errorName(code),
      `${what}: fenced by the group coordinator (${errorName(code)}): this member's generation is over; rejoin the group`,
    );
  }
  if (code !== null && PRODUCER_FENCED.has(code)) {
    return new KafkaFencedError(
      "producer",
      errorName(code),
      `${what}: producer fenced (${errorName(code)}): a newer producer uses this transactional id`,
    );
  }
  if ((code !== null && TRANSIENT.has(code)) || isConnectionError(e) || (e as { retriable?: boolean })?.retriable === true) {
    return new KafkaTransientError(code === null ? ((e as Error)?.name ?? "error") : errorName(code), `${what}: ${msg}`, e);
  }
  return e;
}
