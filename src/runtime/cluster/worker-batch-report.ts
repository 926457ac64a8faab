/**
 * The progress entries a group-mode worker reports (worker-batch.ts): one per batch it
 * committed, and idle ones (numInputRows 0) while it has nothing to read. The entry's fields are
 * worker-progress.ts's; this module decides when an entry is due and who it names.
 */
import type { TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import type { StreamingQueryProgress } from "../progress.js";
import type { GroupAssignment } from "./group-assignment.js";
import { sourceTopics, type WorkerShared } from "./worker-io.js";
import { groupProgress, type WorkerBatchFacts, type WorkerIdentity } from "./worker-progress.js";

export class WorkerBatchReporter {
  /** The source partitions the last progress entry listed (an idle entry follows when they change). */
  private reportedTps = "";
  /** When the last progress entry (batch or idle) was reported; null before the first batch. */
  private lastReportedMs: number | null = null;

  constructor(
    private readonly shared: WorkerShared,
    private readonly assignment: GroupAssignment,
    /** Transactions aborted so far (progress `abortedTransactions`). */
    private readonly aborted: () => number,
  ) {}

  /** Who reports (progress `id`, `runId`, `arus.cluster`'s worker fields). */
  private identity(generationId: number): WorkerIdentity {
    const { cfg } = this.shared;
    return {
      id: cfg.id,
      runId: cfg.runId,
      name: cfg.name,
      group: cfg.cluster.group,
      workerId: this.shared.workerId,
      generationId,
      rebalances: this.assignment.rebalances,
      abortedTransactions: this.aborted(),
      restore: this.assignment.lastRestore,
      restoredTasks: this.assignment.restoredTasks,
      hasWatermark: this.shared.watermark.hasDelay,
      foreachBatch: this.shared.taskSink !== null,
    };
  }

  private sourceDescription(): string {
    return `KafkaV2[Subscribe[${sourceTopics(this.shared.cfg).join(",")}]]`;
  }

  /**
   * An idle progress entry (Spark's, numInputRows 0) while this worker has nothing to read:
   * as a single query, every spark.sql.streaming.noDataProgressEventInterval after its first
   * batch (so the lag of the partitions it owns stays current while no data comes); and at
   * once when a rebalance changed its source partitions, so its progress and the per-partition
   * lag metrics list only the partitions it owns now and a revoked partition is not reported by
   * two workers. The rebalance's restore, if any, stays for the next batch's entry (listeners
   * of onQueryProgress read it there).
   */
  idle(batchId: number, started: number, durations: Record<string, number>, W: number, latest: ReadonlyMap<string, number>): void {
    const tps = this.assignment.sourceTps;
    const now = this.shared.cfg.clock.now();
    const interval = this.shared.cfg.conf.getMs("spark.sql.streaming.noDataProgressEventInterval");
    const intervalDue = this.lastReportedMs !== null && now - this.lastReportedMs >= interval;
    if (tpsKey(tps) === this.reportedTps && !intervalDue) return;
    this.reportedTps = tpsKey(tps);
    this.lastReportedMs = now;
    const who = { ...this.identity(this.assignment.applied?.generationId ?? 0), restore: null };
    const progress = groupProgress(who, {
      batchId,
      startedMs: started,
      endedMs: this.shared.cfg.clock.now(),
      durations,
      watermarkMs: W,
      sourceDescription: this.sourceDescription(),
      sourceTps: tps,
      starts: this.assignment.positions,
      ends: this.assignment.positions,
      latest,
      inputRows: 0,
      repartitionedRows: 0,
      outputRows: 0,
      tasks: [],
    });
    this.shared.cfg.events.onIdle(progress);
  }

  /** The entry of a batch committed in generation `generationId` (it ended now). */
  batchProgress(generationId: number, facts: Omit<WorkerBatchFacts, "endedMs" | "sourceDescription">): StreamingQueryProgress {
    const { clock } = this.shared.cfg;
    this.reportedTps = tpsKey(this.assignment.sourceTps);
    this.lastReportedMs = clock.now();
    return groupProgress(this.identity(generationId), { ...facts, endedMs: clock.now(), sourceDescription: this.sourceDescription() });
  }
}

function tpsKey(tps: readonly TopicPartition[]): string {
  return tps.map(tpKey).sort().join(",");
}
