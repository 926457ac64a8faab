/**
 * A group-mode worker's progress entry: Spark's StreamingQueryProgress fields for what this
 * worker did in its batch (its source partitions, its tasks' state operators summed), plus
 * `arus.cluster`: which worker, generation, tasks, repartitioned rows, rebalances and the last
 * restore — what the monitoring layer labels by worker.
 */
import { isoUtcMillis } from "../../common/datetime/index.js";
import type { TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import { offsetsBehindMetrics } from "../../connectors/kafka/offsets.js";
import type { BatchReport } from "../../execution/stateful/batch-report.js";
import type { StateOperatorMetrics } from "../../execution/stateful/context.js";
import {
  type ClusterProgress,
  clean,
  eventTimeMap,
  rate,
  type StateOperatorProgress,
  type StreamingQueryProgress,
  sortedMap,
} from "../progress.js";

/** The last rebalance's restore, summed over the tasks it restored (progress `arus.cluster.restore`). */
export type RestoreFacts = NonNullable<ClusterProgress["restore"]>;

export interface WorkerIdentity {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  readonly group: string;
  readonly workerId: string;
  readonly generationId: number;
  readonly rebalances: number;
  readonly abortedTransactions: number;
  readonly restore: RestoreFacts | null;
  /** Tasks this worker restored from their changelogs since it started (a kept task is never restored). */
  readonly restoredTasks: number;
  readonly hasWatermark: boolean;
  /** The sink is foreachBatch (a V1 sink: numOutputRows -1, as in Spark). */
  readonly foreachBatch: boolean;
}

export interface WorkerBatchFacts {
  readonly batchId: number;
  readonly startedMs: number;
  readonly endedMs: number;
  readonly durations: Record<string, number>;
  readonly watermarkMs: number;
  readonly sourceDescription: string;
  readonly sourceTps: readonly TopicPartition[];
  readonly starts: ReadonlyMap<string, number>;
  readonly ends: ReadonlyMap<string, number>;
  readonly latest: ReadonlyMap<string, number>;
  readonly inputRows: number;
  readonly repartitionedRows: number;
  readonly outputRows: number;
  readonly tasks: readonly { task: number; inputRows: number; report: BatchReport }[];
}

function offsetJson(tps: readonly TopicPartition[], offsets: ReadonlyMap<string, number>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const tp of tps) (out[tp.topic] ??= {})[String(tp.partition)] = offsets.get(tpKey(tp)) ?? 0;
  return out;
}

/** The tasks' operator metrics, summed per operator id (one entry per stateful operator, as Spark reports). */
function sumOperators(tasks: WorkerBatchFacts["tasks"]): StateOperatorMetrics[] {
  const byId = new Map<number, StateOperatorMetrics>();
  tasks.forEach((t) => {
    t.report.stateOperatorList().forEach((m, i) => {
      const acc = byId.get(i);
      if (!acc) byId.set(i, { ...m, customMetrics: { ...m.customMetrics }, numShufflePartitions: 1, numStateStoreInstances: 1 });
      else {
        acc.numRowsTotal += m.numRowsTotal;
        acc.numRowsUpdated += m.numRowsUpdated;
        acc.numRowsRemoved += m.numRowsRemoved;
        acc.allUpdatesTimeMs += m.allUpdatesTimeMs;
        acc.allRemovalsTimeMs += m.allRemovalsTimeMs;
        acc.commitTimeMs += m.commitTimeMs;
        acc.memoryUsedBytes += m.memoryUsedBytes;
        acc.numRowsDroppedByWatermark += m.numRowsDroppedByWatermark;
        acc.numLateInputRows += m.numLateInputRows;
        acc.numShufflePartitions += 1;
        acc.numStateStoreInstances += 1;
      }
    });
  });
  return [...byId.values()];
}

/** Spark 3.3+'s offsets-behind-latest metrics over this worker's source partitions. */
function lagMetrics(f: WorkerBatchFacts): Record<string, string> | undefined {
  return offsetsBehindMetrics(f.sourceTps.map((tp) => Math.max(0, (f.latest.get(tpKey(tp)) ?? 0) - (f.ends.get(tpKey(tp)) ?? 0))));
}

export function groupProgress(who: WorkerIdentity, f: WorkerBatchFacts): StreamingQueryProgress {
  const durations = { ...f.durations, triggerExecution: f.endedMs - f.startedMs };
  const seconds = Math.max(1, f.endedMs - f.startedMs) / 1000;
  const operators = sumOperators(f.tasks);
  const stats = f.tasks.flatMap((t) => [...t.report.eventTime.values()]).filter((s) => s.count > 0);
  const merged = stats.length
    ? {
        max: Math.max(...stats.map((s) => s.max)),
        min: Math.min(...stats.map((s) => s.min)),
        sum: stats.reduce((n, s) => n + s.sum, 0),
        count: stats.reduce((n, s) => n + s.count, 0),
      }
    : null;
  return clean({
    id: who.id,
    runId: who.runId,
    name: who.name,
    timestamp: isoUtcMillis(f.startedMs),
    batchId: f.batchId,
    batchDuration: f.endedMs - f.startedMs,
    numInputRows: f.inputRows,
    processedRowsPerSecond: rate(f.inputRows / seconds),
    durationMs: sortedMap(durations),
    eventTime: eventTimeMap(merged, who.hasWatermark ? f.watermarkMs : null),
    stateOperators: operators.map(
      ({ numLateInputRows: _late, customMetrics, ...rest }) =>
        clean({
          ...rest,
          customMetrics: Object.keys(customMetrics).length ? sortedMap(customMetrics) : undefined,
        }) as StateOperatorProgress,
    ),
    sources: [
      clean({
        description: f.sourceDescription,
        startOffset: offsetJson(f.sourceTps, f.starts),
        endOffset: offsetJson(f.sourceTps, f.ends),
        latestOffset: offsetJson(f.sourceTps, f.latest),
        numInputRows: f.inputRows,
        processedRowsPerSecond: rate(f.inputRows / seconds),
        metrics: lagMetrics(f),
      }),
    ],
    sink: who.foreachBatch
      ? { description: "ForeachBatchSink", numOutputRows: -1 }
      : { description: "KafkaTable", numOutputRows: f.outputRows },
    arus: {
      numLateInputRows: operators.reduce((n, m) => n + m.numLateInputRows, 0),
      cluster: clean({
        group: who.group,
        worker: who.workerId,
        generationId: who.generationId,
        tasks: f.tasks.map((t) => t.task),
        repartitionedRows: f.repartitionedRows,
        rebalances: who.rebalances,
        abortedTransactions: who.abortedTransactions,
        restore: who.restore ?? undefined,
        restoredTasks: who.restoredTasks,
      }),
    },
  });
}
