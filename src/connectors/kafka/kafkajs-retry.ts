/**
 * Retrying kafkajs calls whose error a moment settles: a coordinator moving or loading (the
 * admin's group calls, the producers' transactions) and a partition's leader not serving yet.
 */
/** Coordinator errors worth a retry, by kafkajs's names (Kafka's NOT_COORDINATOR is its NOT_COORDINATOR_FOR_GROUP). */
const RETRIABLE = new Set([
  "NOT_COORDINATOR_FOR_GROUP",
  "GROUP_LOAD_IN_PROGRESS",
  "GROUP_COORDINATOR_NOT_AVAILABLE",
  "CONCURRENT_TRANSACTIONS",
]);

/**
 * How long a coordinator may be moving or loading before its error is raised: a broker that
 * just started (or restarted) loads __consumer_offsets and the transaction log first, which
 * takes seconds on a busy machine.
 */
const COORDINATOR_WAIT_MS = 60_000;

/** The pause before retry `attempt` (0-based) on a retriable coordinator error, or null when out of time. */
export function coordinatorPause(e: unknown, attempt: number, since: number): number | null {
  if (!RETRIABLE.has((e as { type?: string }).type ?? "")) return null;
  if (Date.now() - since > COORDINATOR_WAIT_MS) return null;
  return Math.min(1000, 100 * (attempt + 1));
}

/** Answers about a partition's leader that a moment (and fresh metadata) settles. */
export const LEADERSHIP_ERRORS = new Set([
  "NOT_LEADER_FOR_PARTITION",
  "LEADER_NOT_AVAILABLE",
  "FENCED_LEADER_EPOCH",
  "UNKNOWN_LEADER_EPOCH",
]);

export async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  const since = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const pause = coordinatorPause(e, attempt, since);
      if (pause === null) throw e;
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}
