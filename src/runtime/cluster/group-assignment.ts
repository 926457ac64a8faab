/**
 * A group-mode worker's place in the consumer group: when it joins (at once, or beside its
 * batches under the cooperative protocol: background-join.ts), the assignment it applies
 * between two batches — the partitions it reads and from which offsets, the tasks it keeps,
 * drops or restores from their changelogs — and the source partitions added while it runs
 * (docs/scale-out.md, "Rebalances").
 */
import type { TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import type { StreamingPlan } from "../../planner/streaming.js";
import { BackgroundJoin } from "./background-join.js";
import type { GroupMetadata, JoinResult } from "./kafka-ports.js";
import { restoreTasks } from "./task-restore.js";
import type { TaskState } from "./task-state.js";
import { sourceTopics, type WorkerShared } from "./worker-io.js";
import type { RestoreFacts } from "./worker-progress.js";

/** A task this worker owns: its state and its own physical plan of stage B. */
export interface OwnedTask {
  readonly state: TaskState;
  readonly plan: StreamingPlan;
}

/** How often a worker looks for partitions added to its source topics. */
const SOURCE_PARTITIONS_CHECK_MS = 5000;

export class GroupAssignment {
  /** The source partitions this worker reads. */
  sourceTps: TopicPartition[] = [];
  /** Every partition of the source topics (the watermark's hold looks at all of them). */
  allSourceTps: TopicPartition[] = [];
  /** The repartition partitions of the tasks it owns. */
  repTps: TopicPartition[] = [];
  /** Where the next batch reads each of its partitions. */
  readonly positions = new Map<string, number>();
  tasks = new Map<number, OwnedTask>();
  joined = false;
  /** The generation whose assignment the batches run on (the member may be a join ahead). */
  applied: GroupMetadata | null = null;
  /** Cooperative: the rejoin running beside the batches. */
  backgroundJoin: BackgroundJoin | null = null;
  /** A stop() came while a foreground join waited on the group. */
  joinAbandoned = false;
  rebalances = 0;
  lastRestore: RestoreFacts | null = null;
  /** Tasks restored since this worker started (progress `restoredTasks`). */
  restoredTasks = 0;
  sourcePartitionsCheckedMs = 0;
  /** Source partitions that appeared while this worker ran. */
  private readonly discovered = new Set<string>();
  private generation = -2;
  private cooperative = false;
  /** The source partition count the last join started with (its subscription's user data). */
  private joinSourcePartitions = -1;

  constructor(
    private readonly shared: WorkerShared,
    /** Resolves (null) at the query's stop(). */
    private readonly stopRequested: Promise<null>,
    /** Ends the worker's wait between batches. */
    private readonly wake: () => void,
    private readonly nextBatchId: () => number,
  ) {}

  /** After a failed attempt: the tasks are restored and the group joined again (Kafka is the truth). */
  forgetTasks(): void {
    this.tasks.clear();
    this.joined = false;
  }

  /**
   * Joins when needed: at once (first join, after a fence, eager) or, under the cooperative
   * protocol, beside the batches; a background join's result is applied here, between batches.
   */
  async rejoinIfNeeded(): Promise<void> {
    const bg = this.backgroundJoin;
    if (bg && (bg.settled || !this.joined)) {
      this.shared.host.status = { message: "Joining the consumer group", isDataAvailable: false, isTriggerActive: true };
      // A stop() while the join waits for the group returns at once (run() then leaves).
      if ((await Promise.race([bg.done.then(() => true), this.stopRequested])) === null) return;
      this.backgroundJoin = null;
      await this.applyAssignment(bg.result());
    }
    if (!this.joined) return this.rebalance();
    if (!this.shared.io.member.needsRejoin || this.backgroundJoin) return;
    if (this.cooperative) this.backgroundJoin = new BackgroundJoin(this.shared.io.member, this.joinUserData(), () => this.wake());
    else await this.rebalance();
  }

  /** Join (again): new assignment, committed offsets, tasks restored from their changelogs. */
  private async rebalance(): Promise<void> {
    this.shared.host.status = { message: "Joining the consumer group", isDataAvailable: false, isTriggerActive: true };
    // A stop() during a pending join (the group waiting for a member up to its rebalance timeout) returns at once.
    const join = this.shared.io.member.join(this.joinUserData());
    join.catch(() => {});
    const joined = await Promise.race([join, this.stopRequested]);
    if (joined === null) {
      this.joinAbandoned = true;
      return;
    }
    await this.applyAssignment(joined);
  }

  /**
   * The subscription's user data: the source partition count this worker sees. A worker that saw
   * partitions added sends another one, which makes the group rebalance.
   */
  private joinUserData(): Buffer {
    this.joinSourcePartitions = this.allSourceTps.length;
    return Buffer.from(JSON.stringify({ sourcePartitions: this.joinSourcePartitions }));
  }

  /** The new generation's assignment: committed offsets, tasks kept, dropped or restored. */
  private async applyAssignment(joinResult: JoinResult): Promise<void> {
    const assigned = joinResult.partitions;
    this.cooperative = joinResult.cooperative;
    this.applied = this.shared.io.member.metadata();
    this.rebalances++;
    // Local task state survives a rebalance only from one generation to the next: if this
    // worker missed a generation (dropped after its session timed out), a task it gets back may
    // have been run and changed by another worker in between.
    const generation = this.shared.io.member.metadata().generationId;
    // A rejoin within the same generation (nothing changed for the group) keeps the tasks too.
    if (generation !== this.generation + 1 && generation !== this.generation) this.tasks.clear();
    // Cooperative, the next generation, no failure since the last assignment: the positions of
    // the partitions this worker keeps are its own last commit; ask the group for the new ones only.
    const keep =
      joinResult.cooperative && this.joined && generation === this.generation + 1 ? new Map(this.positions) : new Map<string, number>();
    this.generation = generation;
    const sources = new Set(sourceTopics(this.shared.cfg));
    this.sourceTps = assigned.filter((tp) => sources.has(tp.topic));
    this.repTps = assigned.filter((tp) => tp.topic === this.shared.topics.repartition);
    const all = [...this.sourceTps, ...this.repTps];
    this.shared.host.status = { message: "Reading the group's committed offsets", isDataAvailable: false, isTriggerActive: true };
    const committed = await this.shared.io.member.committedOffsets(all.filter((tp) => !keep.has(tpKey(tp))));
    const starting = await this.startingOffsets(this.sourceTps.filter((tp) => !keep.has(tpKey(tp)) && committed.get(tpKey(tp)) == null));
    this.positions.clear();
    for (const tp of all) {
      const c = keep.get(tpKey(tp)) ?? committed.get(tpKey(tp));
      this.positions.set(tpKey(tp), c ?? starting.get(tpKey(tp)) ?? 0);
    }
    const owned = new Set(this.repTps.map((tp) => tp.partition));
    const revoked = [...this.tasks.keys()].filter((p) => !owned.has(p));
    // Kafka Streams checkpoints a task it closes: if it comes back (or moves to a worker sharing the state dir), its restore is short.
    await this.shared.io.snapshots?.flush(revoked.map((p) => this.tasks.get(p)!.state));
    for (const p of revoked) this.tasks.delete(p);
    const fresh = [...owned].filter((p) => !this.tasks.has(p));
    const io = { admin: this.shared.io.admin, fetcher: this.shared.io.fetcher, logEnd: this.shared.io.logEndAdmin };
    const restored = await restoreTasks(io, this.shared.topics.changelog, fresh, {
      // A dead worker's open transaction ends at its timeout, plus the broker's abort check (10 s by default).
      stableWaitMs: this.shared.cfg.cluster.transactionTimeoutMs + 15_000,
      snapshots: this.shared.io.snapshots,
      now: () => this.shared.cfg.clock.now(),
      batchId: this.nextBatchId(),
      onStatus: (message) => (this.shared.host.status = { message, isDataAvailable: false, isTriggerActive: true }),
    });
    for (const state of restored.states) this.tasks.set(state.partition, { state, plan: this.shared.cfg.planStageB!() });
    if (restored.facts) this.lastRestore = restored.facts;
    this.restoredTasks += restored.states.length;
    // Partitions added to the source while the join ran: join again at once with their count.
    this.joined = this.joinSourcePartitions === this.allSourceTps.length;
    // May find new source partitions: then it rejoins at once. Not needed when the worker kept
    // every position and restored nothing (cooperative): its watermark is still current.
    if (restored.states.length || !keep.size) await this.refreshWatermark();
  }

  /**
   * Partitions added to a source topic while the group runs (Kafka consumers find them at a
   * metadata refresh): about every SOURCE_PARTITIONS_CHECK_MS the worker looks, and on a change
   * it rejoins; the leader's rejoin rebalances the group, which assigns the new partitions. The
   * task count stays (stage A routes rows by key to the same tasks): the state is unaffected.
   */
  async checkSourcePartitions(force = false): Promise<void> {
    if (!force && this.shared.cfg.clock.now() - this.sourcePartitionsCheckedMs < SOURCE_PARTITIONS_CHECK_MS) return;
    this.sourcePartitionsCheckedMs = this.shared.cfg.clock.now();
    const now = await this.shared.io.admin.partitions(sourceTopics(this.shared.cfg));
    if (now.length === this.allSourceTps.length) return;
    const known = new Set(this.allSourceTps.map(tpKey));
    for (const tp of now) if (!known.has(tpKey(tp))) this.discovered.add(tpKey(tp));
    this.allSourceTps = now;
    this.joined = false;
  }

  /**
   * Re-reads the group's progress. With a watermark, the source partitions are looked up first:
   * a partition added since holds the watermark while it has unread records (as Spark, which
   * reads a new partition in the batch that finds it, before the watermark moves on).
   */
  async refreshWatermark(): Promise<void> {
    if (this.shared.watermark.hasDelay) await this.checkSourcePartitions(true);
    await this.shared.watermark.refresh(this.shared.io.admin, this.shared.io.fetcher, this.allSourceTps);
  }

  private async startingOffsets(tps: readonly TopicPartition[]): Promise<Map<string, number>> {
    if (!tps.length) return new Map();
    // A partition added while the group ran is read from its start (Spark's rule for new partitions).
    const fresh = tps.filter((tp) => this.discovered.has(tpKey(tp)));
    if (fresh.length) {
      const rest = await this.startingOffsets(tps.filter((tp) => !this.discovered.has(tpKey(tp))));
      for (const [k, v] of await this.shared.io.admin.earliestOffsets(fresh)) rest.set(k, v);
      return rest;
    }
    const kind = this.shared.cfg.source.starting.kind;
    if (kind === "latest") return this.shared.io.admin.latestOffsets(tps);
    if (kind !== "earliest") throw new Error(`group mode supports startingOffsets earliest or latest (got ${kind})`);
    return this.shared.io.admin.earliestOffsets(tps);
  }
}
