/**
 * Prometheus metrics of a session's streaming queries, on a prom-client Registry of the
 * session's own (never prom-client's global one, so two sessions in a process do not clash).
 * A progress entry only adds to plain per-query numbers (and observes the duration histogram);
 * the gauges and counters are filled from those numbers when the registry is read (prom-client's
 * `collect` hook), so a batch pays microseconds and a scrape pays the rest. Names, labels and
 * the Spark metric beside each are in docs/monitoring.md.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { StreamingQueryProgress } from "../runtime/progress.js";
import { type Lag, sourceLags } from "./alert-rules.js";
import { kafkaPartitionLags, type PartitionLag } from "./partition-lag.js";

const Q = ["query_id", "query_name"] as const;
const SRC = [...Q, "source_index", "source"] as const;
const OP = [...Q, "operator_index", "operator"] as const;
/** Group mode: one worker of the group (progress `arus.cluster`). */
const W = [...Q, "group", "worker"] as const;

export interface QueryLabels {
  query_id: string;
  query_name: string;
}

interface OperatorState {
  name: string;
  rows: number;
  bytes: number;
  updated: number;
  removed: number;
  dropped: number;
}
interface SourceState {
  description: string;
  rows: number;
  lags: Lag[];
  /** A Kafka source's partitions as its last entry listed them (in group mode: the worker's own). */
  partitions: PartitionLag[];
}
interface QueryState {
  labels: QueryLabels;
  active: number;
  failed: number;
  batches: number;
  inputRows: number;
  outputRows: number | null;
  lateRows: number;
  last: StreamingQueryProgress | null;
  /** df.observe's metrics of the last batch that had them (an idle entry has none). */
  observed: StreamingQueryProgress["observedMetrics"] | null;
  lastWatermark: number | null;
  lastMaxEventTime: number | null;
  lastStart: number;
  operators: OperatorState[];
  sources: SourceState[];
  alerts: Map<string, { alert: string; subject: string; firing: number }>;
  fired: Map<string, number>;
  cluster: ClusterState | null;
}
interface ClusterState {
  group: string;
  worker: string;
  tasks: number;
  generation: number;
  rebalances: number;
  repartitionedRows: number;
  restoredRecords: number;
  lastRestoreMs: number | null;
  restoredFromSnapshot: number;
  restoredFromPublished: number;
  restoredFromChangelog: number;
  snapshotRecords: number;
  lastRestoreOffsets: number | null;
}

export class StreamingMetrics {
  readonly registry = new Registry();
  private readonly queries = new Map<string, QueryState>();
  private dirty = false;

  private readonly r = [this.registry];
  private readonly sync = () => this.fill();
  private g(name: string, help: string, labelNames: readonly string[]): Gauge {
    return new Gauge({ name, help, labelNames, registers: this.r, collect: this.sync });
  }
  private c(name: string, help: string, labelNames: readonly string[]): Counter {
    return new Counter({ name, help, labelNames, registers: this.r, collect: this.sync });
  }
  private readonly active = this.g("arus_streaming_query_active", "1 while the query runs, 0 once it ended", Q);
  private readonly failed = this.g("arus_streaming_query_failed", "1 if the query ended with an exception", Q);
  private readonly batches = this.c("arus_streaming_batches_total", "progress entries (batches and idle entries)", Q);
  private readonly inputRows = this.c("arus_streaming_input_rows_total", "rows read from the sources (numInputRows)", Q);
  private readonly outputRows = this.c(
    "arus_streaming_processed_rows_total",
    "rows written to the sink (sink.numOutputRows; absent when the sink reports -1)",
    Q,
  );
  private readonly inputRate = this.g("arus_streaming_input_rows_per_second", "inputRowsPerSecond of the last batch", Q);
  private readonly processRate = this.g("arus_streaming_processed_rows_per_second", "processedRowsPerSecond of the last batch", Q);
  private readonly batchDuration = new Histogram({
    name: "arus_streaming_batch_duration_seconds",
    help: "batchDuration of each progress entry",
    labelNames: Q,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: this.r,
  });
  private readonly trigger = this.g(
    "arus_streaming_trigger_duration_seconds",
    "durationMs parts of the last entry (part=triggerExecution is the trigger latency)",
    [...Q, "part"],
  );
  private readonly watermark = this.g("arus_streaming_watermark_seconds", "eventTime.watermark, seconds since the epoch", Q);
  private readonly maxEventTime = this.g("arus_streaming_max_event_time_seconds", "eventTime.max of the last batch with rows", Q);
  private readonly eventTimeLag = this.g("arus_streaming_event_time_lag_seconds", "batch start minus eventTime.max", Q);
  private readonly watermarkDelay = this.g("arus_streaming_watermark_delay_seconds", "batch start minus the watermark", Q);
  private readonly lateRows = this.c(
    "arus_streaming_late_rows_total",
    "input rows that arrived behind the watermark (arus.numLateInputRows)",
    Q,
  );
  private readonly observedMetric = this.g(
    "arus_streaming_observed_metric",
    "a numeric df.observe metric of the last batch (observation = its name, metric = the column)",
    [...Q, "observation", "metric"],
  );
  private readonly stateRows = this.g("arus_streaming_state_rows", "numRowsTotal of a stateful operator", OP);
  private readonly stateBytes = this.g("arus_streaming_state_memory_bytes", "memoryUsedBytes of a stateful operator", OP);
  private readonly stateUpdated = this.c("arus_streaming_state_rows_updated_total", "numRowsUpdated summed over batches", OP);
  private readonly stateRemoved = this.c("arus_streaming_state_rows_removed_total", "numRowsRemoved summed over batches", OP);
  private readonly dropped = this.c(
    "arus_streaming_state_rows_dropped_by_watermark_total",
    "numRowsDroppedByWatermark summed over batches",
    OP,
  );
  private readonly sourceRows = this.c("arus_streaming_source_input_rows_total", "numInputRows of a source", SRC);
  private readonly sourceLagG = this.g(
    "arus_streaming_source_lag",
    "how far a source is behind its latest (unit: offsets, or files and bytes listed but not yet read)",
    [...SRC, "unit"],
  );
  private readonly partitionLag = this.g(
    "arus_kafka_partition_lag",
    "offsets a Kafka source partition's batch end trails its latest offset (group mode: the partitions the worker owns)",
    [...Q, "source_index", "topic", "partition", "group", "worker"],
  );
  private readonly alertFiring = this.g("arus_streaming_alert_firing", "1 while an alert rule fires, 0 once resolved", [
    ...Q,
    "alert",
    "subject",
  ]);
  private readonly alertsFired = this.c("arus_streaming_alerts_fired_total", "times an alert rule fired", [...Q, "alert"]);
  private readonly clusterTasks = this.g("arus_cluster_tasks", "group mode: tasks (state partitions) the worker ran in its last batch", W);
  private readonly clusterGeneration = this.g("arus_cluster_generation", "group mode: the consumer group's generation the worker is in", W);
  private readonly clusterRebalances = this.c("arus_cluster_rebalances_total", "group mode: joins of the group by this worker", W);
  private readonly clusterRepartitioned = this.c(
    "arus_cluster_repartitioned_rows_total",
    "group mode: rows the worker routed to the repartition topic",
    W,
  );
  private readonly clusterRestored = this.c(
    "arus_cluster_restored_changelog_records_total",
    "group mode: changelog records replayed to restore tasks",
    W,
  );
  private readonly clusterRestoreSeconds = this.g("arus_cluster_last_restore_seconds", "group mode: how long the last restore took", W);
  private readonly clusterRestoredTasks = this.c(
    "arus_cluster_restored_tasks_total",
    "group mode: tasks restored, by where the restore started (from: snapshot = local snapshot, published-snapshot = the group's snapshot topic, each plus the changelog tail; changelog = full replay)",
    [...W, "from"],
  );
  private readonly clusterSnapshotRecords = this.c(
    "arus_cluster_restored_snapshot_records_total",
    "group mode: state entries loaded from task snapshots",
    W,
  );
  private readonly clusterRestoreOffsets = this.g(
    "arus_cluster_last_restore_changelog_offsets",
    "group mode: changelog offsets the last restore replayed (from the snapshot, or the whole partition)",
    W,
  );

  started(labels: QueryLabels): void {
    const prev = this.queries.get(labels.query_id);
    this.queries.set(labels.query_id, {
      labels,
      active: 1,
      failed: 0,
      // a restart (same id, new run) keeps counting, as a Prometheus counter should
      batches: prev?.batches ?? 0,
      inputRows: prev?.inputRows ?? 0,
      outputRows: prev?.outputRows ?? null,
      lateRows: prev?.lateRows ?? 0,
      last: null,
      observed: prev?.observed ?? null,
      lastWatermark: null,
      lastMaxEventTime: null,
      lastStart: 0,
      operators: prev?.operators ?? [],
      // a new run lists its partitions afresh (in group mode it may own others)
      sources: (prev?.sources ?? []).map((s) => ({ ...s, partitions: [] })),
      alerts: prev?.alerts ?? new Map(),
      fired: prev?.fired ?? new Map(),
      cluster: prev?.cluster ?? null,
    });
    this.dirty = true;
  }

  ended(labels: QueryLabels, failed: boolean): void {
    const q = this.queries.get(labels.query_id);
    if (!q) return;
    q.active = 0;
    q.failed = failed ? 1 : 0;
    // A worker that ended owns no partition any more: the group's other workers report them.
    if (q.cluster) for (const s of q.sources) s.partitions = [];
    this.dirty = true;
  }

  progress(labels: QueryLabels, p: StreamingQueryProgress): void {
    const q = this.queries.get(labels.query_id);
    if (!q) return;
    q.batches++;
    q.inputRows += p.numInputRows;
    if (p.sink.numOutputRows >= 0) q.outputRows = (q.outputRows ?? 0) + p.sink.numOutputRows;
    q.lateRows += p.arus?.numLateInputRows ?? 0;
    q.last = p;
    if (p.observedMetrics) q.observed = p.observedMetrics;
    q.lastStart = Date.parse(p.timestamp);
    if (p.eventTime?.watermark) q.lastWatermark = Date.parse(p.eventTime.watermark);
    if (p.eventTime?.max) q.lastMaxEventTime = Date.parse(p.eventTime.max);
    const ops = p.stateOperators;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const s = (q.operators[i] ??= { name: op.operatorName, rows: 0, bytes: 0, updated: 0, removed: 0, dropped: 0 });
      s.name = op.operatorName;
      s.rows = op.numRowsTotal;
      s.bytes = op.memoryUsedBytes;
      s.updated += op.numRowsUpdated;
      s.removed += op.numRowsRemoved;
      s.dropped += op.numRowsDroppedByWatermark;
    }
    const srcs = p.sources;
    for (let i = 0; i < srcs.length; i++) {
      const src = srcs[i]!;
      const s = (q.sources[i] ??= { description: src.description, rows: 0, lags: [], partitions: [] });
      s.description = src.description;
      s.rows += src.numInputRows;
      s.lags = sourceLags(p, i);
      s.partitions = kafkaPartitionLags(src) ?? s.partitions;
    }
    const c = p.arus?.cluster;
    if (c) {
      const prev: ClusterState = q.cluster ?? {
        group: c.group,
        worker: c.worker,
        tasks: 0,
        generation: 0,
        rebalances: 0,
        repartitionedRows: 0,
        restoredRecords: 0,
        lastRestoreMs: null,
        restoredFromSnapshot: 0,
        restoredFromPublished: 0,
        restoredFromChangelog: 0,
        snapshotRecords: 0,
        lastRestoreOffsets: null,
      };
      q.cluster = {
        ...prev,
        tasks: c.tasks.length,
        generation: c.generationId,
        rebalances: c.rebalances,
        repartitionedRows: prev.repartitionedRows + c.repartitionedRows,
        restoredRecords: prev.restoredRecords + (c.restore?.records ?? 0),
        lastRestoreMs: c.restore ? c.restore.ms : prev.lastRestoreMs,
        restoredFromSnapshot: prev.restoredFromSnapshot + (c.restore ? c.restore.fromSnapshot - c.restore.fromPublishedSnapshot : 0),
        restoredFromPublished: prev.restoredFromPublished + (c.restore?.fromPublishedSnapshot ?? 0),
        restoredFromChangelog: prev.restoredFromChangelog + (c.restore ? c.restore.tasks - c.restore.fromSnapshot : 0),
        snapshotRecords: prev.snapshotRecords + (c.restore?.snapshotRecords ?? 0),
        lastRestoreOffsets: c.restore ? c.restore.offsets : prev.lastRestoreOffsets,
      };
    }
    this.batchDuration.observe(q.labels as unknown as Record<string, string>, p.batchDuration / 1000);
    this.dirty = true;
  }

  alert(labels: QueryLabels, alert: string, subject: string, firing: boolean): void {
    const q = this.queries.get(labels.query_id);
    if (!q) return;
    q.alerts.set(`${alert}\u0000${subject}`, { alert, subject, firing: firing ? 1 : 0 });
    if (firing) q.fired.set(alert, (q.fired.get(alert) ?? 0) + 1);
    this.dirty = true;
  }

  /** Forget every series of a query (it left the retained list). */
  forget(queryId: string): void {
    const q = this.queries.get(queryId);
    if (!q) return;
    this.queries.delete(queryId);
    this.batchDuration.remove(q.labels as unknown as Record<string, string>);
    this.dirty = true;
  }

  /** Rebuild the gauges and counters from the per-query numbers (on read, once per change). */
  private fill(): void {
    if (!this.dirty) return;
    this.dirty = false;
    for (const m of [
      this.active,
      this.failed,
      this.batches,
      this.inputRows,
      this.outputRows,
      this.inputRate,
      this.processRate,
      this.trigger,
      this.watermark,
      this.maxEventTime,
      this.eventTimeLag,
      this.watermarkDelay,
      this.lateRows,
      this.observedMetric,
      this.stateRows,
      this.stateBytes,
      this.stateUpdated,
      this.stateRemoved,
      this.dropped,
      this.sourceRows,
      this.sourceLagG,
      this.partitionLag,
      this.alertFiring,
      this.alertsFired,
      this.clusterTasks,
      this.clusterGeneration,
      this.clusterRebalances,
      this.clusterRepartitioned,
      this.clusterRestored,
      this.clusterRestoreSeconds,
      this.clusterRestoredTasks,
      this.clusterSnapshotRecords,
      this.clusterRestoreOffsets,
    ])
      m.reset();
    for (const q of this.queries.values()) {
      const l = { ...q.labels };
      this.active.set(l, q.active);
      this.failed.set(l, q.failed);
      this.batches.inc(l, q.batches);
      this.inputRows.inc(l, q.inputRows);
      this.lateRows.inc(l, q.lateRows);
      if (q.outputRows !== null) this.outputRows.inc(l, q.outputRows);
      const p = q.last;
      if (p) {
        if (p.inputRowsPerSecond !== undefined) this.inputRate.set(l, p.inputRowsPerSecond);
        if (p.processedRowsPerSecond !== undefined) this.processRate.set(l, p.processedRowsPerSecond);
        for (const [part, ms] of Object.entries(p.durationMs ?? {})) this.trigger.set({ ...l, part }, ms / 1000);
      }
      if (q.lastWatermark !== null) {
        this.watermark.set(l, q.lastWatermark / 1000);
        this.watermarkDelay.set(l, (q.lastStart - q.lastWatermark) / 1000);
      }
      if (q.lastMaxEventTime !== null) {
        this.maxEventTime.set(l, q.lastMaxEventTime / 1000);
        this.eventTimeLag.set(l, (q.lastStart - q.lastMaxEventTime) / 1000);
      }
      for (const [observation, row] of Object.entries(q.observed ?? {})) {
        for (const [metric, v] of Object.entries(row as Record<string, unknown>)) {
          const value = typeof v === "boolean" ? Number(v) : v;
          if (typeof value === "number" && Number.isFinite(value)) this.observedMetric.set({ ...l, observation, metric }, value);
        }
      }
      q.operators.forEach((o, i) => {
        const ol = { ...l, operator_index: String(i), operator: o.name };
        this.stateRows.set(ol, o.rows);
        this.stateBytes.set(ol, o.bytes);
        this.stateUpdated.inc(ol, o.updated);
        this.stateRemoved.inc(ol, o.removed);
        this.dropped.inc(ol, o.dropped);
      });
      const worker = q.cluster ? { group: q.cluster.group, worker: q.cluster.worker } : {};
      q.sources.forEach((s, i) => {
        const sl = { ...l, source_index: String(i), source: s.description };
        this.sourceRows.inc(sl, s.rows);
        for (const lag of s.lags) this.sourceLagG.set({ ...sl, unit: lag.unit }, lag.value);
        for (const { topic, partition, lag } of s.partitions)
          this.partitionLag.set({ ...l, ...worker, source_index: String(i), topic, partition }, lag);
      });
      for (const a of q.alerts.values()) this.alertFiring.set({ ...l, alert: a.alert, subject: a.subject }, a.firing);
      for (const [alert, n] of q.fired) this.alertsFired.inc({ ...l, alert }, n);
      const c = q.cluster;
      if (c) {
        const wl = { ...l, group: c.group, worker: c.worker };
        this.clusterTasks.set(wl, c.tasks);
        this.clusterGeneration.set(wl, c.generation);
        this.clusterRebalances.inc(wl, c.rebalances);
        this.clusterRepartitioned.inc(wl, c.repartitionedRows);
        this.clusterRestored.inc(wl, c.restoredRecords);
        if (c.lastRestoreMs !== null) this.clusterRestoreSeconds.set(wl, c.lastRestoreMs / 1000);
        this.clusterRestoredTasks.inc({ ...wl, from: "snapshot" }, c.restoredFromSnapshot);
        this.clusterRestoredTasks.inc({ ...wl, from: "published-snapshot" }, c.restoredFromPublished);
        this.clusterRestoredTasks.inc({ ...wl, from: "changelog" }, c.restoredFromChangelog);
        this.clusterSnapshotRecords.inc(wl, c.snapshotRecords);
        if (c.lastRestoreOffsets !== null) this.clusterRestoreOffsets.set(wl, c.lastRestoreOffsets);
      }
    }
  }
}
