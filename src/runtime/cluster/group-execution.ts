/**
 * One worker of a group-mode query (docs/scale-out.md): the same pipeline started N times, on
 * one machine or several, spread by Kafka's consumer-group protocol. No coordinator of arus's
 * own: the group coordinator assigns partitions, Kafka transactions make each batch atomic.
 *
 * This module is the worker's loop: setup (internal topics, producer, pipeline fingerprint),
 * then attempts — a join or its result applied between batches (group-assignment.ts), one batch
 * in one transaction (worker-batch.ts) — and what a failed attempt leads to. Anything failing
 * aborts the transaction and drops the local state, which is rebuilt from the changelog on the
 * next (re)join: the local state is a cache, Kafka is the truth. A batch that failed only because
 * the group moved on during it (cooperative, background-join.ts) keeps the tasks; a fence or the
 * brokers failing starts again from Kafka, or fails the query (attempt-failures.ts).
 */
import type { RuntimeConfig } from "../../common/conf.js";
import type { ClientConfig, KafkaClient } from "../../connectors/kafka/client.js";
import { kafkajsClient } from "../../connectors/kafka/client-kafkajs.js";
import { isFenced } from "../../connectors/kafka/group/index.js";
import type { SourceOptions } from "../../connectors/kafka/options.js";
import type { Layout } from "../../connectors/kafka/records-out.js";
import type { StreamSink } from "../../connectors/sink.js";
import type { BatchReport } from "../../execution/stateful/batch-report.js";
import type { StreamingPlan } from "../../planner/streaming.js";
import type { StructType } from "../../types/datatypes.js";
import type { Clock } from "../clock.js";
import { IdleWaiters } from "../idle-waiters.js";
import type { QueryEvents, QueryStatus } from "../micro-batch-execution.js";
import type { Trigger } from "../trigger.js";
import type { WatermarkReport } from "../watermark-report.js";
import { AttemptFailures, transientCause } from "./attempt-failures.js";
import { straddledRebalance } from "./background-join.js";
import { GlobalWatermark } from "./global-watermark.js";
import { GroupAssignment } from "./group-assignment.js";
import type { KafkaPorts } from "./kafka-ports.js";
import { type ClusterOptions, type InternalTopics, internalTopics } from "./options.js";
import { createInternalTopics } from "./partition-io.js";
import type { PlanSplit } from "./plan-split.js";
import { snapshotMaxAgeInForce } from "./snapshot-age.js";
import { SnapshotTopic } from "./snapshot-topic.js";
import { TaskBatchSink } from "./task-batch-sink.js";
import { TaskSnapshots } from "./task-snapshots.js";
import { groupWatermarkReport } from "./watermark-explain.js";
import { WorkerBatches } from "./worker-batch.js";
import { sourceTopics, WorkerIo } from "./worker-io.js";

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
  /** The Kafka sink; null when the sink is foreachBatch. */
  readonly sink: {
    readonly topic: string | null;
    readonly layout: Layout;
    readonly maxRequestSize: number;
    readonly client: ClientConfig;
  } | null;
  /** The foreachBatch sink, called per task (task-batch-sink.ts); null with a Kafka sink. */
  readonly foreachBatch: StreamSink | null;
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

export class GroupExecution {
  status: QueryStatus = { message: "Initializing StreamExecution", isDataAvailable: false, isTriggerActive: false };
  private stopped = false;
  private onStop: () => void = () => {};
  /** Resolves (null) at requestStop(). */
  private readonly stopRequested = new Promise<null>((r) => {
    this.onStop = () => r(null);
  });
  private readonly failures: AttemptFailures;
  private producerNeedsInit = false;
  private wake: (() => void) | null = null;
  /** processAllAvailable's waiters; each attempt (batch or not) is a trigger to them. */
  private readonly idle = new IdleWaiters();
  private readonly topics: InternalTopics;
  private readonly client: KafkaClient;
  private readonly io = new WorkerIo();
  private readonly watermark: GlobalWatermark;
  private readonly assignment: GroupAssignment;
  private readonly batches: WorkerBatches;
  private aborted = 0;
  readonly workerId: string;

  constructor(private readonly cfg: GroupExecutionConfig) {
    this.topics = internalTopics(cfg.cluster.group);
    this.client = kafkajsClient({ ...cfg.source.client, readCommitted: true });
    this.watermark = new GlobalWatermark(this.topics.progress, cfg.watermarkDelayMs, this.topics.repartition);
    this.workerId = cfg.cluster.instanceId ?? `${process.pid}-${cfg.runId.slice(0, 8)}`;
    this.failures = new AttemptFailures({
      retries: cfg.source.fetchRetries,
      retryIntervalMs: cfg.source.fetchRetryIntervalMs,
      bootstrapServers: cfg.source.client.bootstrapServers,
    });
    const taskSink = cfg.foreachBatch
      ? new TaskBatchSink(cfg.foreachBatch, {
          topic: this.topics.progress,
          group: cfg.cluster.group,
          worker: this.workerId,
          names: cfg.outputNames,
          schema: cfg.outputSchema,
          outputMode: cfg.outputMode,
          timeZone: cfg.conf.timeZone,
        })
      : null;
    // The foreachBatch plan log lives in the progress topic, which the watermark reads.
    if (taskSink) this.watermark.otherRecords = (key, value) => taskSink.read(key, value);
    const shared = { cfg, topics: this.topics, watermark: this.watermark, io: this.io, workerId: this.workerId, host: this, taskSink };
    this.assignment = new GroupAssignment(
      shared,
      this.stopRequested,
      () => this.wake?.(),
      () => this.batches.nextBatchId,
    );
    this.batches = new WorkerBatches(shared, this.assignment, this.failures, () => this.aborted);
  }

  get currentWatermarkMs(): number {
    return this.watermark.watermarkMs;
  }
  get lastBatchId(): number {
    return this.batches.nextBatchId - 1;
  }

  watermarkReport(): WatermarkReport {
    const { tasks } = this.assignment;
    const reports = new Map<number, BatchReport>();
    for (const [p, r] of this.batches.lastReports) if (tasks.has(p)) reports.set(p, r);
    const node = [...tasks.values()][0]?.plan.watermarkNodes[0] ?? null;
    return groupWatermarkReport({
      group: this.cfg.cluster.group,
      worker: this.workerId,
      watermark: this.watermark,
      node: node ?? this.watermarkNodeOfConfig(),
      reports,
      tasks: [...tasks.keys()],
      dropped: this.batches.dropped,
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

  /** Resolves at the first attempt that begins after this call and runs no batch (IdleWaiters). */
  waitForIdle(): Promise<void> {
    return this.idle.wait();
  }

  close(): Promise<void> {
    return this.io.close();
  }

  /** Internal topics, the producer, the pipeline fingerprint; then the first join. */
  private async setup(): Promise<void> {
    this.status = { message: "Creating the group's internal topics", isDataAvailable: false, isTriggerActive: true };
    this.io.admin = await this.client.admin();
    this.io.fetcher = await this.client.fetcher();
    const srcParts = await this.io.admin.partitions(sourceTopics(this.cfg));
    if (srcParts.length === 0) throw new Error(`group mode: topic(s) ${sourceTopics(this.cfg).join(", ")} do not exist`);
    this.assignment.allSourceTps = srcParts;
    const perTopic = Math.max(...sourceTopics(this.cfg).map((t) => srcParts.filter((p) => p.topic === t).length));
    this.io.numTasks = await createInternalTopics(
      this.io.admin,
      this.topics,
      this.cfg.cluster.partitions,
      perTopic,
      this.cfg.split.stageB !== null,
    );
    // read_uncommitted: the log end of the changelog (a restore) and progress topic (foreachBatch: task-batch-sink.ts).
    if (this.cfg.split.stageB || this.cfg.foreachBatch)
      this.io.logEndAdmin = await kafkajsClient({ ...this.cfg.source.client, readCommitted: false }).admin();
    if (this.cfg.split.stageB) {
      const { group, snapshotInterval: interval, publishSnapshots } = this.cfg.cluster;
      const maxAgeMs =
        interval > 0 || publishSnapshots
          ? await snapshotMaxAgeInForce(this.io.admin, this.topics.changelog, this.cfg.cluster)
          : this.cfg.cluster.snapshotMaxAgeMs;
      const remote = publishSnapshots
        ? await SnapshotTopic.open(this.client, this.io.admin, this.io.fetcher, this.topics.snapshots, this.io.numTasks, maxAgeMs)
        : null;
      this.io.snapshots = new TaskSnapshots(
        { dir: this.cfg.snapshotDir, interval, maxAgeMs, remote },
        { group, changelog: this.topics.changelog, tasks: this.io.numTasks, fingerprint: this.cfg.fingerprint },
      );
    }
    this.assignment.sourcePartitionsCheckedMs = this.cfg.clock.now();
    this.io.txn = this.cfg.kafka.transactions({
      transactionalId: `arus-${this.cfg.cluster.group}-${this.cfg.cluster.instanceId ?? this.cfg.runId}`,
      transactionTimeoutMs: this.cfg.cluster.transactionTimeoutMs,
    });
    this.status = { message: "Initializing the worker's transactional producer", isDataAvailable: false, isTriggerActive: true };
    await this.io.txn.init();
    await this.watermark.refresh(this.io.admin, this.io.fetcher, this.assignment.allSourceTps);
    const first = this.watermark.checkFingerprint(this.cfg.fingerprint, this.cfg.cluster.group);
    if (first) {
      await this.io.txn.begin();
      await this.io.txn.send([first]);
      await this.io.txn.commit();
    }
    const topics = this.cfg.split.stageB ? [...sourceTopics(this.cfg), this.topics.repartition] : sourceTopics(this.cfg);
    this.io.member = this.cfg.kafka.membership({
      groupId: this.cfg.cluster.group,
      topics,
      groupInstanceId: this.cfg.cluster.instanceId,
      sessionTimeoutMs: this.cfg.cluster.sessionTimeoutMs,
      rebalanceTimeoutMs: this.cfg.cluster.rebalanceTimeoutMs,
      rebalanceProtocol: this.cfg.cluster.rebalanceProtocol,
    });
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
        const attempt = this.idle.beginTrigger();
        let ran = false;
        const mark = this.watermark.mark();
        try {
          if (this.producerNeedsInit) {
            // A new epoch: ends whatever transaction the failed attempt left (its abort may not have reached the broker).
            await this.io.txn.init();
            this.producerNeedsInit = false;
          }
          await this.assignment.checkSourcePartitions();
          await this.assignment.rejoinIfNeeded();
          if (this.stopped) break;
          ran = await this.batches.run(started);
          this.failures.succeeded();
        } catch (e) {
          this.watermark.rollback(mark); // the batch's rows will be read again
          if (this.stopped) break;
          if (straddledRebalance(e, this.assignment.backgroundJoin)) {
            // Cooperative: the group moved on during the batch; the tasks kept keep their state.
            this.aborted++;
            // Fenced by its own pending join (a newer generation, or its instance id's new
            // member id), no batch of this worker can commit before that join ends: wait for
            // it instead of running and aborting batch after batch meanwhile.
            const join = this.assignment.backgroundJoin;
            if (join && !join.settled) await Promise.race([join.done, this.stopRequested]);
            continue;
          }
          // Fenced, or the brokers failing (attempt-failures.ts): nothing of the attempt is
          // visible; start again from Kafka's truth, or fail.
          const action = this.failures.decide(e);
          if (action.kind === "fail") throw action.error;
          this.assignment.forgetTasks();
          this.aborted++;
          // Visible while the worker waits and starts again (a user watching query.status, the outage test).
          this.status = {
            message: `Retrying after a failed attempt (${this.aborted} aborted so far): ${String((e as Error)?.message ?? e).slice(0, 200)}`,
            isDataAvailable: false,
            isTriggerActive: true,
          };
          if (action.newProducerEpoch) this.producerNeedsInit = true;
          if (action.waitMs > 0) await new Promise((r) => setTimeout(r, action.waitMs));
          continue;
        }
        if (!ran) {
          this.idle.foundNothing(attempt);
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
      await this.io.snapshots?.flush([...this.assignment.tasks.values()].map((t) => t.state));
    } finally {
      this.idle.releaseAll();
      // A static member keeps its partitions for a restart, unless it stopped in a join (in the
      // foreground, or a cooperative one beside the batches): then it leaves, so the group's
      // rebalance goes on without it.
      const inJoin = this.assignment.joinAbandoned || (this.assignment.backgroundJoin !== null && !this.assignment.backgroundJoin.settled);
      if (this.io.member && (!this.cfg.cluster.instanceId || inJoin)) await this.io.member.leave().catch(() => {});
    }
  }
}
