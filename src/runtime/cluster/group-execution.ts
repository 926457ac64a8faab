/**
 * One worker of a group-mode query (docs/scale-out.md): the same pipeline started N times, on
 * one machine or several, spread by Kafka's consumer-group protocol. No coordinator of arus's
 * own: the group coordinator assigns partitions, Kafka transactions make each batch atomic.
 *
 * Per worker batch (`runBatch`, Kafka Streams' EOS v2 loop):
 *   1. end offsets of the assigned source and repartition partitions (read_committed);
 *   2. stage A over the new source records → repartition records (stateful query) or output;
 *   3. stage B per owned task over its new repartition records, with the global watermark →
 *      output, changelog records of the task's state changes, the task's max event time;
 *   4. one transaction: output, repartition, changelog and progress records, and the consumed
 *      offsets sent with the group's metadata (KIP-447: a zombie with a stale generation is
 *      refused, its transaction aborted and invisible to read_committed readers);
 *   5. committed: the tasks' staged state becomes their state; the watermark is re-read.
 * Anything failing aborts the transaction and drops the local state, which is rebuilt from the
 * changelog on the next (re)join: the local state is a cache, Kafka is the truth.
 *
 * Rebalances: a heartbeat that reports one makes the worker rejoin; revoked tasks are dropped,
 * new ones restored from their changelog partition after the committed offsets are stable
 * (KIP-447's require_stable waits for a dead owner's transaction to be resolved). Eager: the
 * worker finishes its batch and rejoins between batches. Cooperative (KIP-429, the default): the
 * rejoin runs beside the batches (background-join.ts) and its result is applied between two.
 */
import type { Batch } from "../../columnar/batch.js";
import type { RuntimeConfig } from "../../common/conf.js";
import { crashPoint } from "../../common/crash-points.js";
import type { ClientConfig, KafkaAdmin, KafkaClient, KafkaFetcher, OutRecord, TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import { kafkajsClient } from "../../connectors/kafka/client-kafkajs.js";
import { isFenced } from "../../connectors/kafka/group/index.js";
import type { SourceOptions } from "../../connectors/kafka/options.js";
import { checkRecordSizes, type Layout, toRecords } from "../../connectors/kafka/records-out.js";
import type { BatchReport } from "../../execution/stateful/batch-report.js";
import type { StreamingPlan } from "../../planner/streaming.js";
import type { StructType } from "../../types/datatypes.js";
import type { Clock } from "../clock.js";
import type { QueryEvents, QueryStatus } from "../micro-batch-execution.js";
import type { Trigger } from "../trigger.js";
import type { WatermarkReport } from "../watermark-report.js";
import { AttemptFailures, transientCause } from "./attempt-failures.js";
import { BackgroundJoin, straddledRebalance } from "./background-join.js";
import { GlobalWatermark } from "./global-watermark.js";
import type { GroupMembership, GroupMetadata, JoinResult, KafkaPorts, WorkerTransactionsPort } from "./kafka-ports.js";
import { type ClusterOptions, type InternalTopics, internalTopics } from "./options.js";
import { createInternalTopics, limitEnds, maxEventTimeMs, readRepartition, readSourceRecords } from "./partition-io.js";
import { type PlanSplit, REPARTITION_SOURCE_ID } from "./plan-split.js";
import { encodeRows, routeRows } from "./repartition.js";
import { SnapshotTopic } from "./snapshot-topic.js";
import { TaskContext } from "./task-context.js";
import { restoreTasks } from "./task-restore.js";
import { TaskSnapshots } from "./task-snapshots.js";
import type { TaskState } from "./task-state.js";
import { groupWatermarkReport } from "./watermark-explain.js";
import { groupProgress, type RestoreFacts, type WorkerBatchFacts } from "./worker-progress.js";

export interface GroupExecutionConfig {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  readonly cluster: ClusterOptions;
  readonly split: PlanSplit;
  readonly stageA: StreamingPlan;
  /** Plans stage B afresh (one physical plan per task). */
  readonly planStageB: (() => StreamingPlan) | null;
  readonly outputMode: "append" | "update" | "complete";
  readonly trigger: Trigger;
  readonly conf: RuntimeConfig;
  readonly clock: Clock;
  readonly source: SourceOptions;
  readonly sink: { readonly topic: string | null; readonly layout: Layout; readonly maxRequestSize: number; readonly client: ClientConfig };
  readonly outputNames: readonly string[];
  readonly outputSchema: StructType;
  readonly fingerprint: string;
  /** Stage B's watermark delay (null: no watermark). */
  readonly watermarkDelayMs: number | null;
  /** The watermark's event-time column in stage A's output (null: no watermark). */
  readonly eventTimeIndex: number | null;
  readonly events: QueryEvents;
  readonly kafka: KafkaPorts;
  /** The worker's local task snapshots (a cache below arus.cluster.stateDir; task-snapshots.ts). */
  readonly snapshotDir: string;
}

interface OwnedTask {
  readonly state: TaskState;
  readonly plan: StreamingPlan;
}

const MAX_RECORD_ROWS = 2000;
/** How often an idle worker re-reads the group's progress for a watermark moved by the others. */
const IDLE_WATERMARK_READ_MS = 1000;
/** How often a worker looks for partitions added to its source topics. */
const SOURCE_PARTITIONS_CHECK_MS = 5000;

export class GroupExecution {
  status: QueryStatus = { message: "Initializing StreamExecution", isDataAvailable: false, isTriggerActive: false };
  private stopped = false;
  private onStop: () => void = () => {};
  /** Resolves (null) at requestStop(). */
  private readonly stopRequested = new Promise<null>((r) => {
    this.onStop = () => r(null);
  });
  private sourcePartitionsCheckedMs = 0;
  private joinAbandoned = false;
  private readonly failures: AttemptFailures;
  private producerNeedsInit = false;
  /** explainWatermark(): each task's last committed batch report, and the rows dropped as late so far. */
  private readonly lastReports = new Map<number, BatchReport>();
  private readonly dropped = { groups: 0, inputRows: 0 };
  private wake: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];
  private readonly topics: InternalTopics;
  private readonly client: KafkaClient;
  private admin!: KafkaAdmin;
  /** read_uncommitted: a changelog partition's log end, to see an open transaction before a restore. */
  private logEndAdmin: KafkaAdmin | null = null;
  private fetcher!: KafkaFetcher;
  private member!: GroupMembership;
  private txn!: WorkerTransactionsPort;
  private readonly watermark: GlobalWatermark;
  private numTasks = 0;
  private sourceTps: TopicPartition[] = [];
  /** Every partition of the source topics (the watermark's hold looks at all of them). */
  private allSourceTps: TopicPartition[] = [];
  private repTps: TopicPartition[] = [];
  /** Source partitions that appeared while this worker ran. */
  private readonly discovered = new Set<string>();
  private readonly positions = new Map<string, number>();
  private tasks = new Map<number, OwnedTask>();
  private joined = false;
  private nextBatchId = 0;
  private lastBatchWatermarkMs = 0;
  private lateWatermarkMs = 0;
  private rebalances = 0;
  private generation = -2;
  private aborted = 0;
  private lastRestore: RestoreFacts | null = null;
  /** Tasks restored since this worker started (progress `restoredTasks`). */
  private restoredTasks = 0;
  /** Null for a stateless query. */
  private snapshots: TaskSnapshots | null = null;
  /** The generation whose assignment the batches run on (the member may be a join ahead). */
  private applied: GroupMetadata | null = null;
  /** Cooperative: the rejoin running beside the batches. */
  private backgroundJoin: BackgroundJoin | null = null;
  private cooperative = false;
  /** The source partition count the last join started with (its subscription's user data). */
  private joinSourcePartitions = -1;
  private idleWatermarkReadMs = 0;
  readonly workerId: string;

  constructor(private readonly cfg: GroupExecutionConfig) {
    this.topics = internalTopics(cfg.cluster.group);
    this.client = kafkajsClient({ ...cfg.source.client, readCommitted: true });
    this.watermark = new GlobalWatermark(this.topics.progress, cfg.watermarkDelayMs);
    this.workerId = cfg.cluster.instanceId ?? `${process.pid}-${cfg.runId.slice(0, 8)}`;
    this.failures = new AttemptFailures({
      retries: cfg.source.fetchRetries,
      retryIntervalMs: cfg.source.fetchRetryIntervalMs,
      bootstrapServers: cfg.source.client.bootstrapServers,
    });
  }

  get currentWatermarkMs(): number {
    return this.watermark.watermarkMs;
  }
  get lastBatchId(): number {
    return this.nextBatchId - 1;
  }

  watermarkReport(): WatermarkReport {
    const reports = new Map<number, BatchReport>();
    for (const [p, r] of this.lastReports) if (this.tasks.has(p)) reports.set(p, r);
    const node = [...this.tasks.values()][0]?.plan.watermarkNodes[0] ?? null;
    return groupWatermarkReport({
      group: this.cfg.cluster.group,
      worker: this.workerId,
      watermark: this.watermark,
      node: node ?? this.watermarkNodeOfConfig(),
      reports,
      tasks: [...this.tasks.keys()],
      dropped: this.dropped,
    });
  }

  /** Stage B's watermark node before this worker owns a task (its column in stage A's output). */
  private watermarkNodeOfConfig(): { column: string; delayMs: number } | null {
    const { watermarkDelayMs, eventTimeIndex, split } = this.cfg;
    if (watermarkDelayMs === null || eventTimeIndex === null) return null;
    return { column: split.repartitionOutput[eventTimeIndex]?.name ?? "event time", delayMs: watermarkDelayMs };
  }

  requestStop(): void {
    this.stopped = true;
    this.onStop();
    this.wake?.();
  }

  waitForIdle(): Promise<void> {
    return new Promise((r) => this.idleWaiters.push(r));
  }

  async close(): Promise<void> {
    await this.member?.close().catch(() => {});
    await this.snapshots?.close().catch(() => {});
    await this.txn?.close().catch(() => {});
    await this.fetcher?.close().catch(() => {});
    await this.admin?.close().catch(() => {});
    await this.logEndAdmin?.close().catch(() => {});
  }

  private sourceTopics(): string[] {
    const sub = this.cfg.source.subscription;
    if (sub.kind !== "subscribe") throw new Error("group mode reads topics given with 'subscribe'");
    return sub.topics;
  }

  /** Internal topics, the producer, the pipeline fingerprint; then the first join. */
  private async setup(): Promise<void> {
    this.status = { message: "Creating the group's internal topics", isDataAvailable: false, isTriggerActive: true };
    this.admin = await this.client.admin();
    this.fetcher = await this.client.fetcher();
    const srcParts = await this.admin.partitions(this.sourceTopics());
    if (srcParts.length === 0) throw new Error(`group mode: topic(s) ${this.sourceTopics().join(", ")} do not exist`);
    this.allSourceTps = srcParts;
    const perTopic = Math.max(...this.sourceTopics().map((t) => srcParts.filter((p) => p.topic === t).length));
    this.numTasks = await createInternalTopics(
      this.admin,
      this.topics,
      this.cfg.cluster.partitions,
      perTopic,
      this.cfg.split.stageB !== null,
    );
    if (this.cfg.split.stageB) {
      this.logEndAdmin = await kafkajsClient({ ...this.cfg.source.client, readCommitted: false }).admin();
      const { group, snapshotInterval: interval, snapshotMaxAgeMs: maxAgeMs, publishSnapshots } = this.cfg.cluster;
      const remote = publishSnapshots
        ? await SnapshotTopic.open(this.client, this.admin, this.fetcher, this.topics.snapshots, this.numTasks, maxAgeMs)
        : null;
      this.snapshots = new TaskSnapshots(
        { dir: this.cfg.snapshotDir, interval, maxAgeMs, remote },
        { group, changelog: this.topics.changelog, tasks: this.numTasks, fingerprint: this.cfg.fingerprint },
      );
    }
    this.sourcePartitionsCheckedMs = this.cfg.clock.now();
    this.txn = this.cfg.kafka.transactions({
      transactionalId: `arus-${this.cfg.cluster.group}-${this.cfg.cluster.instanceId ?? this.cfg.runId}`,
      transactionTimeoutMs: this.cfg.cluster.transactionTimeoutMs,
    });
    this.status = { message: "Initializing the worker's transactional producer", isDataAvailable: false, isTriggerActive: true };
    await this.txn.init();
    await this.watermark.refresh(this.admin, this.fetcher, this.allSourceTps);
    const first = this.watermark.checkFingerprint(this.cfg.fingerprint, this.cfg.cluster.group);
    if (first) {
      await this.txn.begin();
      await this.txn.send([first]);
      await this.txn.commit();
    }
    const topics = this.cfg.split.stageB ? [...this.sourceTopics(), this.topics.repartition] : this.sourceTopics();
    this.member = this.cfg.kafka.membership({
      groupId: this.cfg.cluster.group,
      topics,
      groupInstanceId: this.cfg.cluster.instanceId,
      sessionTimeoutMs: this.cfg.cluster.sessionTimeoutMs,
      rebalanceTimeoutMs: this.cfg.cluster.rebalanceTimeoutMs,
      rebalanceProtocol: this.cfg.cluster.rebalanceProtocol,
    });
  }

  /**
   * Joins when needed: at once (first join, after a fence, eager) or, under the cooperative
   * protocol, beside the batches; a background join's result is applied here, between batches.
   */
  private async rejoinIfNeeded(): Promise<void> {
    const bg = this.backgroundJoin;
    if (bg && (bg.settled || !this.joined)) {
      this.status = { message: "Joining the consumer group", isDataAvailable: false, isTriggerActive: true };
      // A stop() while the join waits for the group returns at once (run() then leaves).
      if ((await Promise.race([bg.done.then(() => true), this.stopRequested])) === null) return;
      this.backgroundJoin = null;
      await this.applyAssignment(bg.result());
    }
    if (!this.joined) return this.rebalance();
    if (!this.member.needsRejoin || this.backgroundJoin) return;
    if (this.cooperative) this.backgroundJoin = new BackgroundJoin(this.member, this.joinUserData(), () => this.wake?.());
    else await this.rebalance();
  }

  /** Join (again): new assignment, committed offsets, tasks restored from their changelogs. */
  private async rebalance(): Promise<void> {
    this.status = { message: "Joining the consumer group", isDataAvailable: false, isTriggerActive: true };
    // A stop() during a pending join (the group waiting for a member up to its rebalance timeout) returns at once.
    const join = this.member.join(this.joinUserData());
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
    this.applied = this.member.metadata();
    this.rebalances++;
    // Local task state survives a rebalance only from one generation to the next: if this
    // worker missed a generation (dropped after its session timed out), a task it gets back may
    // have been run and changed by another worker in between.
    const generation = this.member.metadata().generationId;
    // A rejoin within the same generation (nothing changed for the group) keeps the tasks too.
    if (generation !== this.generation + 1 && generation !== this.generation) this.tasks.clear();
    // Cooperative, the next generation, no failure since the last assignment: the positions of
    // the partitions this worker keeps are its own last commit; ask the group for the new ones only.
    const keep =
      joinResult.cooperative && this.joined && generation === this.generation + 1 ? new Map(this.positions) : new Map<string, number>();
    this.generation = generation;
    const sourceTopics = new Set(this.sourceTopics());
    this.sourceTps = assigned.filter((tp) => sourceTopics.has(tp.topic));
    this.repTps = assigned.filter((tp) => tp.topic === this.topics.repartition);
    const all = [...this.sourceTps, ...this.repTps];
    this.status = { message: "Reading the group's committed offsets", isDataAvailable: false, isTriggerActive: true };
    const committed = await this.member.committedOffsets(all.filter((tp) => !keep.has(tpKey(tp))));
    const starting = await this.startingOffsets(this.sourceTps.filter((tp) => !keep.has(tpKey(tp)) && committed.get(tpKey(tp)) == null));
    this.positions.clear();
    for (const tp of all) {
      const c = keep.get(tpKey(tp)) ?? committed.get(tpKey(tp));
      this.positions.set(tpKey(tp), c ?? starting.get(tpKey(tp)) ?? 0);
    }
    const owned = new Set(this.repTps.map((tp) => tp.partition));
    const revoked = [...this.tasks.keys()].filter((p) => !owned.has(p));
    // Kafka Streams checkpoints a task it closes: if it comes back (or moves to a worker sharing the state dir), its restore is short.
    await this.snapshots?.flush(revoked.map((p) => this.tasks.get(p)!.state));
    for (const p of revoked) this.tasks.delete(p);
    const fresh = [...owned].filter((p) => !this.tasks.has(p));
    const io = { admin: this.admin, fetcher: this.fetcher, logEnd: this.logEndAdmin };
    const restored = await restoreTasks(io, this.topics.changelog, fresh, {
      // A dead worker's open transaction ends at its timeout, plus the broker's abort check (10 s by default).
      stableWaitMs: this.cfg.cluster.transactionTimeoutMs + 15_000,
      snapshots: this.snapshots,
      now: () => this.cfg.clock.now(),
      batchId: this.nextBatchId,
      onStatus: (message) => (this.status = { message, isDataAvailable: false, isTriggerActive: true }),
    });
    for (const state of restored.states) this.tasks.set(state.partition, { state, plan: this.cfg.planStageB!() });
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
  private async checkSourcePartitions(force = false): Promise<void> {
    if (!force && this.cfg.clock.now() - this.sourcePartitionsCheckedMs < SOURCE_PARTITIONS_CHECK_MS) return;
    this.sourcePartitionsCheckedMs = this.cfg.clock.now();
    const now = await this.admin.partitions(this.sourceTopics());
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
  private async refreshWatermark(): Promise<void> {
    if (this.watermark.hasDelay) await this.checkSourcePartitions(true);
    await this.watermark.refresh(this.admin, this.fetcher, this.allSourceTps);
  }

  private async startingOffsets(tps: readonly TopicPartition[]): Promise<Map<string, number>> {
    if (!tps.length) return new Map();
    // A partition added while the group ran is read from its start (Spark's rule for new partitions).
    const fresh = tps.filter((tp) => this.discovered.has(tpKey(tp)));
    if (fresh.length) {
      const rest = await this.startingOffsets(tps.filter((tp) => !this.discovered.has(tpKey(tp))));
      for (const [k, v] of await this.admin.earliestOffsets(fresh)) rest.set(k, v);
      return rest;
    }
    const kind = this.cfg.source.starting.kind;
    if (kind === "latest") return this.admin.latestOffsets(tps);
    if (kind !== "earliest") throw new Error(`group mode supports startingOffsets earliest or latest (got ${kind})`);
    return this.admin.earliestOffsets(tps);
  }

  async run(): Promise<void> {
    try {
      await this.setup();
    } catch (e) {
      if (transientCause(e) && !isFenced(e)) {
        throw new Error(
          `group mode (arus.cluster.group '${this.cfg.cluster.group}'): cannot reach the Kafka brokers at ${this.cfg.source.client.bootstrapServers} (kafka.bootstrap.servers): ${(e as Error)?.message ?? e}`,
          { cause: e },
        );
      }
      throw e;
    }
    const poll = this.cfg.conf.getMs("spark.sql.streaming.pollingDelay");
    const interval = this.cfg.trigger.kind === "processingTime" ? this.cfg.trigger.intervalMs : 0;
    const oneShot = this.cfg.trigger.kind === "availableNow" || this.cfg.trigger.kind === "once";
    try {
      while (!this.stopped) {
        const started = this.cfg.clock.now();
        let ran = false;
        const mark = this.watermark.mark();
        try {
          if (this.producerNeedsInit) {
            // A new epoch: ends whatever transaction the failed attempt left (its abort may not have reached the broker).
            await this.txn.init();
            this.producerNeedsInit = false;
          }
          await this.checkSourcePartitions();
          await this.rejoinIfNeeded();
          if (this.stopped) break;
          ran = await this.runBatch(started);
          this.failures.succeeded();
        } catch (e) {
          this.watermark.rollback(mark); // the batch's rows will be read again
          if (this.stopped) break;
          if (straddledRebalance(e, this.backgroundJoin)) {
            // Cooperative: the group moved on during the batch; the tasks kept keep their state.
            this.aborted++;
            continue;
          }
          // Fenced, or the brokers failing (attempt-failures.ts): nothing of the attempt is
          // visible; start again from Kafka's truth, or fail.
          const action = this.failures.decide(e);
          if (action.kind === "fail") throw action.error;
          this.tasks.clear();
          this.joined = false;
          this.aborted++;
          if (action.newProducerEpoch) this.producerNeedsInit = true;
          if (action.waitMs > 0) await new Promise((r) => setTimeout(r, action.waitMs));
          continue;
        }
        if (!ran) {
          for (const w of this.idleWaiters.splice(0)) w();
          if (oneShot) break;
        }
        const wait = ran ? Math.max(0, started + interval - this.cfg.clock.now()) : Math.max(poll, interval);
        if (wait > 0 && !this.stopped)
          await new Promise<void>((r) => {
            const t = setTimeout(r, wait);
            this.wake = () => {
              clearTimeout(t);
              r();
            };
          });
      }
      // A clean stop: snapshots of what changed, so the next start replays (almost) nothing.
      await this.snapshots?.flush([...this.tasks.values()].map((t) => t.state));
    } finally {
      for (const w of this.idleWaiters.splice(0)) w();
      // A static member keeps its partitions for a restart, unless it stopped in a join (in the
      // foreground, or a cooperative one beside the batches): then it leaves, so the group's
      // rebalance goes on without it.
      const inJoin = this.joinAbandoned || (this.backgroundJoin !== null && !this.backgroundJoin.settled);
      if (this.member && (!this.cfg.cluster.instanceId || inJoin)) await this.member.leave().catch(() => {});
    }
  }

  /** The partitions' newest offsets (progress `latestOffset`, the lag metrics) and this batch's ends (`limit`: maxOffsetsPerTrigger). */
  private async endOffsets(
    tps: readonly TopicPartition[],
    limit: number | null,
  ): Promise<{ latest: Map<string, number>; ends: Map<string, number> }> {
    const latest = tps.length ? await this.admin.latestOffsets(tps) : new Map<string, number>();
    return { latest, ends: limit === null ? latest : limitEnds(latest, tps, this.positions, limit) };
  }

  /**
   * Stage A over the source rows. With a watermark, partition by partition, to publish each
   * partition's max event time (the watermark's hold, global-watermark.ts).
   */
  private async runStageA(
    parts: readonly { tp: TopicPartition; batch: Batch }[],
    batchId: number,
    W: number,
  ): Promise<{ output: Batch[]; maxByTp: Map<string, number | null> }> {
    const maxByTp = new Map<string, number | null>();
    const { eventTimeIndex, split, stageA, outputMode } = this.cfg;
    const run = (batches: Batch[]) => {
      const sourceData = new Map([[split.source.sourceId, batches]]);
      const spec = {
        batchId,
        outputMode,
        evictionWatermarkMs: W,
        lateWatermarkMs: this.lateWatermarkMs,
        sourceData,
        physical: stageA.physical,
      };
      return stageA.physical.execute({ eval: this.evalContext(W), state: new TaskContext(spec, null) });
    };
    if (eventTimeIndex === null) return { output: parts.length ? await run(parts.map((p) => p.batch)) : [], maxByTp };
    const output: Batch[] = [];
    for (const { tp, batch } of parts) {
      const out = await run([batch]);
      output.push(...out);
      maxByTp.set(tpKey(tp), maxEventTimeMs(out, eventTimeIndex));
    }
    return { output, maxByTp };
  }

  private evalContext(watermarkMs: number) {
    return {
      timeZone: this.cfg.conf.timeZone,
      batchTimestampMs: this.cfg.clock.now(),
      watermarkMs,
      ansi: this.cfg.conf.getBool("spark.sql.ansi.enabled"),
    };
  }

  /** One batch of this worker; false when there was nothing to do. */
  private async runBatch(started: number): Promise<boolean> {
    const { cfg } = this;
    let W = this.watermark.watermarkMs;
    const durations: Record<string, number> = {};
    let t = cfg.clock.now();
    const { latest: srcLatest, ends: srcEnds } = await this.endOffsets(this.sourceTps, cfg.source.maxOffsetsPerTrigger);
    const repEnds = (await this.endOffsets(this.repTps, null)).ends;
    durations.latestOffset = cfg.clock.now() - t;
    const moved = (tps: TopicPartition[], ends: Map<string, number>) =>
      tps.some((tp) => ends.get(tpKey(tp))! > this.positions.get(tpKey(tp))!);
    const hasData = moved(this.sourceTps, srcEnds) || moved(this.repTps, repEnds);
    let watermarkMoved = cfg.split.stageB !== null && W > this.lastBatchWatermarkMs && this.tasks.size > 0;
    const idleReadDue = cfg.clock.now() - this.idleWatermarkReadMs >= IDLE_WATERMARK_READ_MS;
    if (!hasData && !watermarkMoved && cfg.split.stageB !== null && this.tasks.size > 0 && idleReadDue) {
      // Other workers move the global watermark: an idle worker re-reads it (at most once a
      // second), else its tasks' windows never close (Spark's no-data batch, driven here by
      // the group's progress topic).
      this.idleWatermarkReadMs = cfg.clock.now();
      await this.refreshWatermark();
      W = this.watermark.watermarkMs;
      watermarkMoved = W > this.lastBatchWatermarkMs;
    }
    if (!hasData && !watermarkMoved) {
      this.status = { message: "Waiting for data to arrive", isDataAvailable: false, isTriggerActive: false };
      return false;
    }
    const batchId = this.nextBatchId;
    this.status = { message: "Processing new data", isDataAvailable: hasData, isTriggerActive: true };

    t = cfg.clock.now();
    this.status = { ...this.status, message: "Reading the source partitions" };
    const source = await readSourceRecords(this.fetcher, this.sourceTps, this.positions, srcEnds, this.cfg.source.includeHeaders);
    durations.getBatch = cfg.clock.now() - t;
    t = cfg.clock.now();
    const stageA = await this.runStageA(source.parts, batchId, W);
    const stageAOut = stageA.output;
    const records: OutRecord[] = [];
    let outputRows = 0;
    let repartitionedRows = 0;
    const stageBFacts: { task: number; inputRows: number; report: WorkerBatchFacts["tasks"][number]["report"] }[] = [];
    if (!cfg.split.stageB) {
      outputRows += stageAOut.reduce((n, b) => n + b.numRows, 0);
      records.push(...toRecords(cfg.sink.layout, stageAOut, cfg.sink.topic));
    } else {
      for (const [p, rows] of routeRows(stageAOut, cfg.split.routeColumns, this.numTasks)) {
        repartitionedRows += rows.length;
        for (let i = 0; i < rows.length; i += MAX_RECORD_ROWS) {
          records.push({
            topic: this.topics.repartition,
            partition: p,
            key: null,
            value: encodeRows(rows.slice(i, i + MAX_RECORD_ROWS)),
            headers: [],
          });
        }
      }
      for (const tp of this.repTps) {
        const task = this.tasks.get(tp.partition)!;
        const until = repEnds.get(tpKey(tp))!;
        this.status = { ...this.status, message: `Running task ${tp.partition}` };
        const input =
          until > this.positions.get(tpKey(tp))!
            ? await readRepartition(this.fetcher, tp, this.positions.get(tpKey(tp))!, until, cfg.split.repartitionOutput)
            : [];
        if (!input.length && !watermarkMoved) continue;
        const ctx = new TaskContext(
          {
            batchId,
            outputMode: cfg.outputMode,
            evictionWatermarkMs: W,
            lateWatermarkMs: this.lateWatermarkMs,
            sourceData: new Map([[REPARTITION_SOURCE_ID, input]]),
            physical: task.plan.physical,
          },
          task.state,
        );
        let out: Batch[];
        try {
          out = await task.plan.physical.execute({ eval: this.evalContext(W), state: ctx });
        } catch (e) {
          ctx.abortAll();
          throw e;
        }
        outputRows += out.reduce((n, b) => n + b.numRows, 0);
        records.push(...toRecords(cfg.sink.layout, out, cfg.sink.topic));
        for (const c of task.state.changelogRecords()) {
          records.push({ topic: this.topics.changelog, partition: tp.partition, key: c.key, value: c.value, headers: [] });
        }
        for (const s of ctx.report.eventTime.values()) if (s.count > 0) this.watermark.observe(tp.partition, s.max);
        records.push(this.watermark.progressRecord(tp.partition, this.workerId));
        stageBFacts.push({ task: tp.partition, inputRows: input.reduce((n, b) => n + b.numRows, 0), report: ctx.report });
      }
    }
    if (cfg.eventTimeIndex !== null) {
      for (const tp of this.sourceTps) {
        const end = srcEnds.get(tpKey(tp))!;
        if (end > this.positions.get(tpKey(tp))! || this.nextBatchId === 0)
          records.push(this.watermark.sourceRecord(tp, stageA.maxByTp.get(tpKey(tp)) ?? null, end));
      }
    }
    checkRecordSizes(records, cfg.sink.maxRequestSize);
    durations.addBatch = cfg.clock.now() - t;

    t = cfg.clock.now();
    const offsets: { topic: string; partition: number; offset: number }[] = [];
    for (const tp of this.sourceTps) offsets.push({ ...tp, offset: srcEnds.get(tpKey(tp))! });
    for (const tp of this.repTps) offsets.push({ ...tp, offset: repEnds.get(tpKey(tp))! });
    let metadata: GroupMetadata = this.applied!;
    this.status = { ...this.status, message: "Committing the batch's transaction" };
    let sent: ReadonlyMap<string, number> = new Map();
    try {
      crashPoint("beforeSink", batchId);
      await this.txn.begin();
      if (records.length) sent = await this.txn.send(records);
      crashPoint("insideSink", batchId); // records sent, offsets and commit not
      if (this.backgroundJoin) metadata = await this.backgroundJoin.commitMetadata(metadata, offsets);
      await this.txn.sendOffsets(offsets, metadata);
      crashPoint("afterSendOffsets", batchId);
      await this.txn.commit();
      crashPoint("afterSink", batchId);
    } catch (e) {
      await this.txn.abort().catch(() => {});
      for (const task of this.tasks.values()) task.state.discard();
      throw e;
    }
    durations.commitOffsets = cfg.clock.now() - t;
    for (const task of this.tasks.values()) task.state.publish();
    await this.snapshots?.committed(
      [...this.tasks.values()].map((t) => t.state),
      records,
      sent,
    );
    this.failures.committed();
    for (const f of stageBFacts) {
      this.lastReports.set(f.task, f.report);
      const d = f.report.dropped();
      this.dropped.groups += d.groups;
      this.dropped.inputRows += d.inputRows;
    }
    const starts = new Map(this.positions);
    for (const o of offsets) this.positions.set(`${o.topic}-${o.partition}`, o.offset);
    this.status = { ...this.status, message: "Reading the group's progress (watermark)" };
    await this.refreshWatermark();
    this.lateWatermarkMs = W;
    this.lastBatchWatermarkMs = W;
    this.nextBatchId++;
    const progress = groupProgress(
      {
        id: cfg.id,
        runId: cfg.runId,
        name: cfg.name,
        group: cfg.cluster.group,
        workerId: this.workerId,
        generationId: metadata.generationId,
        rebalances: this.rebalances,
        abortedTransactions: this.aborted,
        restore: this.lastRestore,
        restoredTasks: this.restoredTasks,
        hasWatermark: this.watermark.hasDelay,
      },
      {
        batchId,
        startedMs: started,
        endedMs: cfg.clock.now(),
        durations,
        watermarkMs: W,
        sourceDescription: `KafkaV2[Subscribe[${this.sourceTopics().join(",")}]]`,
        sourceTps: this.sourceTps,
        starts,
        ends: srcEnds,
        latest: srcLatest,
        inputRows: source.rows,
        repartitionedRows,
        outputRows,
        tasks: stageBFacts,
      },
    );
    this.lastRestore = null;
    this.status = { message: "Waiting for next trigger", isDataAvailable: hasData, isTriggerActive: false };
    cfg.events.onProgress(progress);
    return true;
  }
}
