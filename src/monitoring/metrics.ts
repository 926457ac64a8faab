/**
 * Prometheus metrics of a session's streaming queries, on a prom-client Registry of the
 * session's own (never prom-client's global one, so two sessions in a process do not clash).
 * Updated from each progress entry; names, labels and the Spark metric beside each are in
 * docs/monitoring.md.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { StreamingQueryProgress } from "../runtime/progress.js";
import { sourceLag } from "./alert-rules.js";

type Labels = Record<string, string>;
const Q = ["query_id", "query_name"] as const;
const SRC = [...Q, "source_index", "source"] as const;
const OP = [...Q, "operator_index", "operator"] as const;

export interface QueryLabels {
  query_id: string;
  query_name: string;
}

export class StreamingMetrics {
  readonly registry = new Registry();
  private readonly r = [this.registry];
  readonly active = new Gauge({
    name: "arus_streaming_query_active",
    help: "1 while the query runs, 0 once it ended",
    labelNames: Q,
    registers: this.r,
  });
  readonly failed = new Gauge({
    name: "arus_streaming_query_failed",
    help: "1 if the query ended with an exception",
    labelNames: Q,
    registers: this.r,
  });
  readonly batches = new Counter({
    name: "arus_streaming_batches_total",
    help: "micro-batches run (progress entries with data or no-data batches)",
    labelNames: Q,
    registers: this.r,
  });
  readonly inputRows = new Counter({
    name: "arus_streaming_input_rows_total",
    help: "rows read from the sources (numInputRows)",
    labelNames: Q,
    registers: this.r,
  });
  readonly outputRows = new Counter({
    name: "arus_streaming_processed_rows_total",
    help: "rows written to the sink (sink.numOutputRows; not counted when the sink reports -1)",
    labelNames: Q,
    registers: this.r,
  });
  readonly inputRate = new Gauge({
    name: "arus_streaming_input_rows_per_second",
    help: "inputRowsPerSecond of the last batch",
    labelNames: Q,
    registers: this.r,
  });
  readonly processRate = new Gauge({
    name: "arus_streaming_processed_rows_per_second",
    help: "processedRowsPerSecond of the last batch",
    labelNames: Q,
    registers: this.r,
  });
  readonly batchDuration = new Histogram({
    name: "arus_streaming_batch_duration_seconds",
    help: "batchDuration of each batch",
    labelNames: Q,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: this.r,
  });
  readonly trigger = new Gauge({
    name: "arus_streaming_trigger_duration_seconds",
    help: "durationMs parts of the last batch (part=triggerExecution is the trigger latency)",
    labelNames: [...Q, "part"],
    registers: this.r,
  });
  readonly watermark = new Gauge({
    name: "arus_streaming_watermark_seconds",
    help: "eventTime.watermark, seconds since the epoch",
    labelNames: Q,
    registers: this.r,
  });
  readonly maxEventTime = new Gauge({
    name: "arus_streaming_max_event_time_seconds",
    help: "eventTime.max of the last batch with rows",
    labelNames: Q,
    registers: this.r,
  });
  readonly eventTimeLag = new Gauge({
    name: "arus_streaming_event_time_lag_seconds",
    help: "batch start minus eventTime.max",
    labelNames: Q,
    registers: this.r,
  });
  readonly watermarkDelay = new Gauge({
    name: "arus_streaming_watermark_delay_seconds",
    help: "batch start minus the watermark",
    labelNames: Q,
    registers: this.r,
  });
  readonly lateRows = new Counter({
    name: "arus_streaming_late_rows_total",
    help: "input rows that arrived behind the watermark (arus.numLateInputRows)",
    labelNames: Q,
    registers: this.r,
  });
  readonly stateRows = new Gauge({
    name: "arus_streaming_state_rows",
    help: "numRowsTotal of a stateful operator",
    labelNames: OP,
    registers: this.r,
  });
  readonly stateBytes = new Gauge({
    name: "arus_streaming_state_memory_bytes",
    help: "memoryUsedBytes of a stateful operator",
    labelNames: OP,
    registers: this.r,
  });
  readonly stateUpdated = new Counter({
    name: "arus_streaming_state_rows_updated_total",
    help: "numRowsUpdated summed over batches",
    labelNames: OP,
    registers: this.r,
  });
  readonly stateRemoved = new Counter({
    name: "arus_streaming_state_rows_removed_total",
    help: "numRowsRemoved summed over batches",
    labelNames: OP,
    registers: this.r,
  });
  readonly dropped = new Counter({
    name: "arus_streaming_state_rows_dropped_by_watermark_total",
    help: "numRowsDroppedByWatermark summed over batches",
    labelNames: OP,
    registers: this.r,
  });
  readonly sourceRows = new Counter({
    name: "arus_streaming_source_input_rows_total",
    help: "numInputRows of a source",
    labelNames: SRC,
    registers: this.r,
  });
  readonly sourceLag = new Gauge({
    name: "arus_streaming_source_lag",
    help: "how far a source is behind its latest (unit: offsets or files)",
    labelNames: [...SRC, "unit"],
    registers: this.r,
  });
  readonly alertFiring = new Gauge({
    name: "arus_streaming_alert_firing",
    help: "1 while an alert rule fires, 0 once resolved",
    labelNames: [...Q, "alert", "subject"],
    registers: this.r,
  });
  readonly alertsFired = new Counter({
    name: "arus_streaming_alerts_fired_total",
    help: "times an alert rule fired",
    labelNames: [...Q, "alert"],
    registers: this.r,
  });

  /** Label sets written per query, to forget them when the query leaves the retained list. */
  private readonly written = new Map<string, Map<string, { metric: { remove(l: Labels): void }; labels: Labels }>>();

  private note(q: QueryLabels, metric: { remove(l: Labels): void; name?: string }, labels: Labels): void {
    let seen = this.written.get(q.query_id);
    if (!seen) this.written.set(q.query_id, (seen = new Map()));
    const k = `${(metric as unknown as { name: string }).name}\u0000${Object.values(labels).join("\u0000")}`;
    if (!seen.has(k)) seen.set(k, { metric, labels });
  }

  started(q: QueryLabels): void {
    this.active.set({ ...q }, 1);
    this.failed.set({ ...q }, 0);
    this.batches.inc({ ...q }, 0);
    this.inputRows.inc({ ...q }, 0);
    this.lateRows.inc({ ...q }, 0);
    for (const m of [this.active, this.failed, this.batches, this.inputRows, this.lateRows]) this.note(q, m, { ...q });
  }

  ended(q: QueryLabels, failed: boolean): void {
    this.active.set({ ...q }, 0);
    this.failed.set({ ...q }, failed ? 1 : 0);
  }

  progress(q: QueryLabels, p: StreamingQueryProgress): void {
    const l = { ...q };
    this.batches.inc(l);
    this.inputRows.inc(l, p.numInputRows);
    if (p.sink.numOutputRows >= 0) {
      this.outputRows.inc(l, p.sink.numOutputRows);
      this.note(q, this.outputRows, l);
    }
    if (p.inputRowsPerSecond !== undefined) this.set(q, this.inputRate, l, p.inputRowsPerSecond);
    if (p.processedRowsPerSecond !== undefined) this.set(q, this.processRate, l, p.processedRowsPerSecond);
    this.batchDuration.observe(l, p.batchDuration / 1000);
    this.note(q, this.batchDuration, l);
    for (const [part, ms] of Object.entries(p.durationMs ?? {})) this.set(q, this.trigger, { ...l, part }, ms / 1000);
    const start = Date.parse(p.timestamp);
    const wm = p.eventTime?.watermark ? Date.parse(p.eventTime.watermark) : null;
    if (wm !== null) {
      this.set(q, this.watermark, l, wm / 1000);
      this.set(q, this.watermarkDelay, l, (start - wm) / 1000);
    }
    if (p.eventTime?.max) {
      const max = Date.parse(p.eventTime.max);
      this.set(q, this.maxEventTime, l, max / 1000);
      this.set(q, this.eventTimeLag, l, (start - max) / 1000);
    }
    this.lateRows.inc(l, p.arus?.numLateInputRows ?? 0);
    p.stateOperators.forEach((op, i) => {
      const ol = { ...l, operator_index: String(i), operator: op.operatorName };
      this.set(q, this.stateRows, ol, op.numRowsTotal);
      this.set(q, this.stateBytes, ol, op.memoryUsedBytes);
      this.add(q, this.stateUpdated, ol, op.numRowsUpdated);
      this.add(q, this.stateRemoved, ol, op.numRowsRemoved);
      this.add(q, this.dropped, ol, op.numRowsDroppedByWatermark);
    });
    p.sources.forEach((s, i) => {
      const sl = { ...l, source_index: String(i), source: s.description };
      this.add(q, this.sourceRows, sl, s.numInputRows);
      const lag = sourceLag(s);
      if (lag) this.set(q, this.sourceLag, { ...sl, unit: lag.unit }, lag.value);
    });
  }

  alert(q: QueryLabels, alert: string, subject: string, firing: boolean): void {
    this.set(q, this.alertFiring, { ...q, alert, subject }, firing ? 1 : 0);
    if (firing) this.add(q, this.alertsFired, { ...q, alert }, 1);
  }

  /** Forget every series of a query (it left the retained list). */
  forget(queryId: string): void {
    for (const w of this.written.get(queryId)?.values() ?? []) w.metric.remove(w.labels);
    this.written.delete(queryId);
  }

  private set(q: QueryLabels, g: Gauge, labels: Labels, v: number): void {
    g.set(labels, v);
    this.note(q, g, labels);
  }
  private add(q: QueryLabels, c: Counter, labels: Labels, v: number): void {
    c.inc(labels, v);
    this.note(q, c, labels);
  }
}
