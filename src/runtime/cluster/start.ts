/**
 * Starting a query in group mode (`arus.cluster.group`): split the optimized plan into its two
 * stages, plan each (row state: a task's state lives in its changelog-backed stores), check the
 * Kafka sink's columns, and build the worker loop. Only a Kafka source takes part, and a sink
 * group mode makes exactly-once: Kafka (its records in the worker's transaction) or foreachBatch
 * (per task, replayed under the same (task, batch id): task-batch-sink.ts).
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RuntimeConfig } from "../../common/conf.js";
import { ArusError, IllegalArgumentException } from "../../common/errors.js";
import { logWarning } from "../../common/log.js";
import type { ClientConfig } from "../../connectors/kafka/client.js";
import { KafkaGroupMember, WorkerTransactions } from "../../connectors/kafka/group/index.js";
import { sourceOptions } from "../../connectors/kafka/options.js";
import { checkSinkSchema } from "../../connectors/kafka/records-out.js";
import { sinkOptions } from "../../connectors/kafka/sink.js";
import type { StreamSink } from "../../connectors/sink.js";
import { explainLogical } from "../../plan/explain.js";
import { anyPlan, type LogicalPlan } from "../../plan/logical.js";
import { planStreaming } from "../../planner/streaming.js";
import type { StructType } from "../../types/datatypes.js";
import type { Clock } from "../clock.js";
import type { QueryEvents } from "../micro-batch-execution.js";
import type { Trigger } from "../trigger.js";
import { GroupExecution } from "./group-execution.js";
import type { KafkaPorts } from "./kafka-ports.js";
import type { ClusterOptions } from "./options.js";
import { splitPlan } from "./plan-split.js";

export interface GroupQuerySpec {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  /** The optimized plan. */
  readonly plan: LogicalPlan;
  readonly outputMode: "append" | "update" | "complete";
  readonly trigger: Trigger;
  readonly conf: RuntimeConfig;
  readonly clock: Clock;
  readonly cluster: ClusterOptions;
  readonly sinkFormat: string;
  readonly sinkOptions: Readonly<Record<string, string>>;
  /** The query's sink (used when it is foreachBatch: task-batch-sink.ts). */
  readonly sink: StreamSink;
  readonly outputNames: readonly string[];
  readonly outputSchema: StructType;
  readonly events: QueryEvents;
  /** The query's checkpoint location, if it has one (the default home of the task snapshots). */
  readonly checkpointDir: string | null;
}

/**
 * Where the worker keeps its task snapshots: arus.cluster.stateDir, else below the checkpoint
 * location, else the temp directory; one directory per group. Workers on one machine may share
 * it: a snapshot is a fact about the changelog, whoever wrote it.
 */
function snapshotDirOf(spec: GroupQuerySpec): string {
  const root =
    spec.cluster.stateDir ??
    (spec.checkpointDir ? path.join(spec.checkpointDir, "cluster-state") : path.join(tmpdir(), "arus-cluster-state"));
  return path.join(root, spec.cluster.group);
}

/** The same pipeline in every worker gives the same text (expression ids left out: they follow construction order). */
function fingerprintOf(plan: LogicalPlan, outputMode: string): string {
  const text = `${outputMode}\n${explainLogical(plan).replace(/#\d+/g, "")}`;
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** The worker's Kafka parts: the connector's group member and transactional producer. */
function kafkaPorts(client: ClientConfig): KafkaPorts {
  return {
    membership: (o) => {
      const member = new KafkaGroupMember({
        client,
        groupId: o.groupId,
        topics: o.topics,
        ...(o.groupInstanceId ? { groupInstanceId: o.groupInstanceId } : {}),
        sessionTimeoutMs: o.sessionTimeoutMs,
        rebalanceTimeoutMs: o.rebalanceTimeoutMs,
        rebalanceProtocol: o.rebalanceProtocol,
      });
      return {
        join: (userData) => member.join(userData),
        get needsRejoin() {
          return member.needsRejoin;
        },
        get syncing() {
          return member.syncing;
        },
        metadata: () => member.metadata(),
        committedOffsets: (tps) => member.committedOffsets(tps),
        leave: () => member.leave(),
        close: () => member.close(),
      };
    },
    transactions: (o) => {
      const txn = new WorkerTransactions({ client, transactionalId: o.transactionalId, transactionTimeoutMs: o.transactionTimeoutMs });
      return {
        init: () => txn.init(),
        begin: async () => txn.begin(),
        send: (records) => txn.send(records),
        sendOffsets: (offsets, metadata) => txn.sendOffsets(offsets, metadata),
        commit: () => txn.commit(),
        abort: () => txn.abort(),
        close: () => txn.close(),
      };
    },
  };
}

/** The sinks group mode can make exactly-once (docs/scale-out.md, "What it refuses"). */
const GROUP_SINKS = ["kafka", "foreachbatch"];

export function startGroupQuery(spec: GroupQuerySpec): { execution: GroupExecution; physicalText: string } {
  if (!GROUP_SINKS.includes(spec.sinkFormat)) {
    const why =
      spec.sinkFormat === "memory"
        ? "the memory sink is not durable: a worker's rows would be lost with it"
        : "its writes cannot join the worker's Kafka transaction, and it does not replay a batch under the same (task, batch id)";
    throw new ArusError(
      "UNSUPPORTED_IN_GROUP_MODE",
      `arus.cluster.group: group mode cannot write to the '${spec.sinkFormat}' sink: ${why}. The sinks that qualify are kafka (its records are part of each worker's transaction) and foreachBatch (called once per task, replayed with the same (task, batchId) after a failure: make the function idempotent by that pair). See docs/scale-out.md.`,
    );
  }
  const split = splitPlan(spec.plan);
  if (anyPlan(spec.plan, (p) => p.kind === "collectMetrics")) {
    logWarning(
      "GroupMode",
      "df.observe: group mode does not report observedMetrics yet (a worker's metrics would cover only its own partitions); the query runs without them.",
    );
  }
  const source = sourceOptions(split.source.options, true);
  if (source.subscription.kind !== "subscribe") {
    throw new IllegalArgumentException(
      "arus.cluster.group: the Kafka source must name its topics with 'subscribe' (the group subscribes to them).",
    );
  }
  const kafkaSink = spec.sinkFormat === "kafka" ? sinkOptions(spec.sinkOptions) : null;
  const layout = kafkaSink ? checkSinkSchema(spec.outputNames, spec.outputSchema, kafkaSink.topic) : null;
  // A task's keys are all in its own stores (the row store: the columnar one keeps every partition in one table).
  const options = { columnarAggregation: false, paneAggregation: false, stateThreads: 1 };
  const stageA = planStreaming(split.stageA, spec.outputMode, options);
  const stageB = split.stageB;
  const planStageB = stageB ? () => planStreaming(stageB, spec.outputMode, options) : null;
  const planned = planStageB?.();
  if (planned?.statefulOperators.some((op) => op.noDataBatches === "always")) {
    throw new ArusError(
      "UNSUPPORTED_IN_GROUP_MODE",
      "arus.cluster.group: processing-time timers (transformWithState with timeMode ProcessingTime, GroupStateTimeout.ProcessingTimeTimeout) cannot run in group mode yet: a worker runs a task only when it has input or the watermark moved. Use event-time timers, or run the query without arus.cluster.group.",
    );
  }
  const watermarkColumn = planned?.watermarkNodes[0]?.column;
  const eventTimeIndex = watermarkColumn === undefined ? -1 : split.repartitionOutput.findIndex((a) => a.name === watermarkColumn);
  const execution = new GroupExecution({
    id: spec.id,
    runId: spec.runId,
    name: spec.name,
    cluster: spec.cluster,
    split,
    stageA,
    planStageB,
    outputMode: spec.outputMode,
    trigger: spec.trigger,
    conf: spec.conf,
    clock: spec.clock,
    source,
    sink:
      kafkaSink && layout ? { topic: kafkaSink.topic, layout, maxRequestSize: kafkaSink.maxRequestSize, client: kafkaSink.client } : null,
    foreachBatch: kafkaSink ? null : spec.sink,
    outputNames: spec.outputNames,
    outputSchema: spec.outputSchema,
    fingerprint: fingerprintOf(spec.plan, spec.outputMode),
    watermarkDelayMs: planned?.watermarkNodes[0]?.delayMs ?? null,
    eventTimeIndex: eventTimeIndex < 0 ? null : eventTimeIndex,
    events: spec.events,
    kafka: kafkaPorts(source.client),
    snapshotDir: snapshotDirOf(spec),
  });
  const physicalText = [
    "== Group mode: stage A (source tasks) ==",
    explainLogical(split.stageA),
    ...(split.stageB ? ["== Group mode: stage B (state tasks) ==", explainLogical(split.stageB)] : []),
  ].join("\n");
  return { execution, physicalText };
}
