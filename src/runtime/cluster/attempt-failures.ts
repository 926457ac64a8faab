/**
 * What a group-mode worker does when an attempt (join, restore, batch, commit) fails. In every
 * retried case the attempt's transaction is aborted (or the broker aborts it) and the worker
 * starts again from Kafka's truth: it rejoins, restores its tasks and reads the committed offsets.
 *
 * - fenced by the group (a rebalance it missed, its session expired: a paused worker): retry now;
 * - its producer fenced (the broker aborted a transaction that outlived its timeout and bumped
 *   the epoch, or another process took this transactional id): retry with a new producer epoch;
 *   MAX_PRODUCER_FENCES in a row with no committed batch in between: fail (a duplicate process);
 * - another live process with its group instance id (FENCED_INSTANCE_ID): fail;
 * - a transient broker error (unreachable brokers, a coordinator moving): retry with a new
 *   producer epoch after `retryIntervalMs`, `retries` times in a row (Spark's Kafka source's
 *   fetchOffset.numRetries / retryIntervalMs), then fail naming the bootstrap servers;
 * - anything else: fail.
 */
import { classify, isFenced, KafkaTransientError } from "../../connectors/kafka/group/index.js";

export type FailureAction =
  | { readonly kind: "fail"; readonly error: unknown }
  | { readonly kind: "retry"; readonly waitMs: number; readonly newProducerEpoch: boolean };

export const MAX_PRODUCER_FENCES = 3;

/** The KafkaTransientError (or an error it would classify as one) behind `e`, down its cause chain. */
export function transientCause(e: unknown): unknown {
  for (let x = e, depth = 0; x && depth < 8; x = (x as { cause?: unknown }).cause, depth++) {
    if (x instanceof KafkaTransientError || classify(x, "") instanceof KafkaTransientError) return x;
  }
  return null;
}

export class AttemptFailures {
  private transient = 0;
  private producerFences = 0;

  constructor(private readonly o: { readonly retries: number; readonly retryIntervalMs: number; readonly bootstrapServers: string }) {}

  /** An attempt ended well (a batch, or nothing to do): the outage, if any, is over. */
  succeeded(): void {
    this.transient = 0;
  }

  /** A batch committed: a producer fence after it is a new one. */
  committed(): void {
    this.producerFences = 0;
  }

  decide(e: unknown): FailureAction {
    if (isFenced(e)) {
      if (/FENCED_INSTANCE_ID/.test(e.reason)) return { kind: "fail", error: e };
      if (e.scope === "group") return { kind: "retry", waitMs: 0, newProducerEpoch: false };
      if (++this.producerFences > MAX_PRODUCER_FENCES) return { kind: "fail", error: e };
      return { kind: "retry", waitMs: 0, newProducerEpoch: true };
    }
    if (transientCause(e)) {
      if (++this.transient > this.o.retries) {
        const error = new Error(
          `group mode: the Kafka brokers at ${this.o.bootstrapServers} kept failing (${this.transient} attempts, fetchOffset.numRetries ${this.o.retries}): ${(e as Error)?.message ?? e}`,
          { cause: e },
        );
        return { kind: "fail", error };
      }
      return { kind: "retry", waitMs: this.o.retryIntervalMs, newProducerEpoch: true };
    }
    return { kind: "fail", error: e };
  }
}
