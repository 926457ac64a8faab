/**
 * Cooperative rebalancing on the worker's side (KIP-429, docs/scale-out.md "Rebalances"): the
 * rejoin runs beside the batches instead of between them, so the tasks a worker keeps never
 * stop. The worker applies the join's result between two batches. A batch that was running when
 * the group moved on is finished under the new generation: a partition the worker lost in a
 * cooperative round is owned by nobody in that generation (its next owner gets it only after
 * this worker has rejoined without it), so committing its offsets then is safe — Kafka Streams
 * commits revoked tasks the same way. It is aborted only when the worker missed a generation,
 * or when the group fell back to eager and moved a partition of the batch straight to another
 * member.
 */
import { type TopicPartition, tpKey } from "../../connectors/kafka/client.js";
import { isFenced } from "../../connectors/kafka/group/index.js";
import type { GroupMembership, GroupMetadata, JoinResult } from "./kafka-ports.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The batch covered a partition the rebalance took from this worker: its transaction is aborted, the tasks it keeps are not touched. */
export class RevokedDuringBatch extends Error {
  constructor(readonly partitions: readonly TopicPartition[]) {
    super(`the rebalance took ${partitions.map(tpKey).join(", ")} from this worker during the batch: its transaction is aborted`);
    this.name = "RevokedDuringBatch";
  }
}

/** One member.join() running while the worker goes on with its batches. */
export class BackgroundJoin {
  private outcome: { ok: JoinResult } | { err: unknown } | null = null;
  /** Settles (never rejects) when the join has ended. */
  readonly done: Promise<void>;

  constructor(
    private readonly member: GroupMembership,
    userData: Buffer,
    onSettled: () => void,
  ) {
    this.done = member
      .join(userData)
      .then(
        (ok) => {
          this.outcome = { ok };
        },
        (err: unknown) => {
          this.outcome = { err };
        },
      )
      .finally(onSettled);
  }

  get settled(): boolean {
    return this.outcome !== null;
  }

  /** The join's result (after `done`); throws the join's error. */
  result(): JoinResult {
    if (!this.outcome) throw new Error("BackgroundJoin.result() before the join ended");
    if ("err" in this.outcome) throw this.outcome.err;
    return this.outcome.ok;
  }

  /**
   * The group metadata the open transaction over `tps` sends its offsets with, for a batch
   * computed under `applied`. While the JoinGroup waits for the other members, the old
   * generation still commits (the coordinator accepts it until the rebalance completes). Between
   * JoinGroup and SyncGroup no generation can commit, so wait for the SyncGroup answer
   * (milliseconds; if the join must start over, the old generation tries and is refused).
   * After it, the new generation commits the batch if the worker is still the owner of `tps`
   * or nobody is (a cooperative revocation); otherwise RevokedDuringBatch.
   */
  async commitMetadata(applied: GroupMetadata, tps: readonly TopicPartition[]): Promise<GroupMetadata> {
    while (!this.settled && this.member.syncing) await sleep(5);
    if (!this.outcome || "err" in this.outcome) return applied;
    const next = this.outcome.ok;
    const owned = new Set(next.partitions.map(tpKey));
    const lost = tps.filter((tp) => !owned.has(tpKey(tp)));
    const step = next.generationId - applied.generationId;
    if ((step === 0 || step === 1) && (!lost.length || next.cooperative)) return this.member.metadata();
    throw new RevokedDuringBatch(lost.length ? lost : tps);
  }
}

/**
 * The batch failed only because the group moved on while it ran (its transaction is aborted and
 * its staged state dropped): the worker keeps its tasks and applies the join.
 */
export function straddledRebalance(e: unknown, join: BackgroundJoin | null): boolean {
  if (e instanceof RevokedDuringBatch) return true;
  // FENCED_INSTANCE_ID here is this worker's own rejoin: a static member's JoinGroup gives its
  // instance id a new member id, and the batch still committing under the old one is fenced by
  // it (a paused worker that wakes up meets this). Without a join of its own in flight the same
  // error means another live process has the instance id, and attempt-failures.ts fails.
  const own = ["ILLEGAL_GENERATION", "REBALANCE_IN_PROGRESS", "FENCED_INSTANCE_ID"];
  return join !== null && isFenced(e) && e.scope === "group" && own.includes(e.reason);
}
