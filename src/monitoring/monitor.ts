/**
 * SessionMonitor: one per session. A StreamingQueryListener that keeps a bounded history of
 * every query's progress (Spark UI's `spark.sql.streaming.ui.retainedQueries` /
 * `retainedProgressUpdates`), feeds the alert rules and the Prometheus metrics, and passes
 * every change on to the dashboard's live subscribers. Nothing here can fail a query: the
 * manager catches what a listener throws, and the timer only reads.
 */

import type { Session } from "../api/session.js";
import type {
  QueryAlertEvent,
  QueryProgressEvent,
  QueryStartedEvent,
  QueryTerminatedEvent,
  StreamingQueryListener,
} from "../api/streaming/manager.js";
import type { StreamingQuery } from "../api/streaming/query.js";
import { logWarning } from "../common/log.js";
import type { StreamingQueryProgress } from "../runtime/progress.js";
import type { QueryStatus } from "../runtime/query-execution.js";
import { AlertConfig } from "./alert-config.js";
import { type ActiveAlert, QueryAlerts } from "./alerts.js";
import { type QueryLabels, StreamingMetrics } from "./metrics.js";

export interface QuerySummary {
  id: string;
  runId: string;
  name: string | null;
  /** The dashboard's word for it. */
  state: "active" | "finished" | "failed";
  /** The query's `status` (Spark's StreamingQueryStatus: message, isDataAvailable, isTriggerActive). */
  status: QueryStatus;
  isActive: boolean;
  startedAt: string;
  endedAt: string | null;
  durationMs: number;
  latestBatch: number | null;
  avgInputRate: number | null;
  avgProcessRate: number | null;
  lastError: string | null;
  alertsFiring: number;
}

export type MonitorEvent =
  | { type: "query"; data: QuerySummary }
  | { type: "progress"; data: { runId: string; progress: StreamingQueryProgress } }
  | { type: "alert"; data: QueryAlertEvent };

interface QueryRecord {
  labels: QueryLabels;
  /** The query itself (its status, isActive and recentProgress are read from it). */
  query: StreamingQuery | null;
  startedEvent: QueryStartedEvent;
  startedMs: number;
  endedMs: number | null;
  history: StreamingQueryProgress[];
  alerts: QueryAlerts;
  alertLog: QueryAlertEvent[];
  error: string | null;
  ended: boolean;
  now: () => number;
}

const ALERT_LOG = 200;

export class SessionMonitor implements StreamingQueryListener {
  readonly metrics = new StreamingMetrics();
  private readonly queries = new Map<string, QueryRecord>();
  private readonly subscribers = new Set<(e: MonitorEvent) => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly session: Session) {}

  /** Start listening (and the no-progress timer, which never keeps the process alive). */
  attach(): void {
    this.session.streams.addListener(this);
    this.timer = setInterval(() => this.checkStalled(), 1000);
    this.timer.unref();
  }

  detach(): void {
    this.session.streams.removeListener(this);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.subscribers.clear();
  }

  subscribe(fn: (e: MonitorEvent) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  onQueryStarted(e: QueryStartedEvent): void {
    const q = this.session.streams.byRunId(e.runId);
    const clock = q?.clockForTests;
    const now = () => clock?.now() ?? Date.now();
    const trigger = q?.trigger;
    const labels = { query_id: e.id, query_name: e.name ?? "" };
    const rec: QueryRecord = {
      labels,
      query: q,
      startedEvent: e,
      startedMs: now(),
      endedMs: null,
      history: [],
      alerts: new QueryAlerts(
        e,
        new AlertConfig(this.session.conf, e.name),
        {
          triggerIntervalMs: trigger?.kind === "processingTime" ? trigger.intervalMs : 0,
          idleEventIntervalMs: this.session.conf.getMs("spark.sql.streaming.noDataProgressEventInterval"),
        },
        now(),
      ),
      alertLog: [],
      error: null,
      ended: false,
      now,
    };
    this.queries.set(e.runId, rec);
    this.metrics.started(labels);
    this.retain();
    this.emit({ type: "query", data: this.summary(rec) });
  }

  onQueryProgress(e: QueryProgressEvent): void {
    this.progress(e);
  }
  onQueryIdle(e: QueryProgressEvent): void {
    this.progress(e);
  }

  onQueryTerminated(e: QueryTerminatedEvent): void {
    const rec = this.queries.get(e.runId);
    if (!rec) return;
    rec.ended = true;
    rec.endedMs = rec.now();
    rec.error = e.exception;
    this.metrics.ended(rec.labels, e.exception !== null);
    this.emit({ type: "query", data: this.summary(rec) });
  }

  private progress(e: QueryProgressEvent): void {
    const rec = this.queries.get(e.runId);
    if (!rec) return;
    const p = e.progress;
    rec.history.push(p);
    const keep = Math.max(1, this.confInt("spark.sql.streaming.ui.retainedProgressUpdates", 100));
    if (rec.history.length > keep) rec.history.splice(0, rec.history.length - keep);
    this.metrics.progress(rec.labels, p);
    this.deliver(rec, rec.alerts.onProgress(p, rec.now()));
    // (summaries change with each entry too; pages refetch them on a progress event)
    if (this.subscribers.size > 0) this.emit({ type: "progress", data: { runId: e.runId, progress: p } });
  }

  /** Run the no-progress rule of every active query now (also run every second by a timer). */
  checkStalled(): void {
    for (const rec of this.queries.values()) if (!rec.ended) this.deliver(rec, rec.alerts.checkStalled(rec.now()));
  }

  private deliver(rec: QueryRecord, events: QueryAlertEvent[]): void {
    for (const a of events) {
      rec.alertLog.push(a);
      if (rec.alertLog.length > ALERT_LOG) rec.alertLog.shift();
      this.metrics.alert(rec.labels, a.alert, a.subject, a.state === "firing");
      const who = a.name === null ? a.id : `${a.name} [id = ${a.id}]`;
      const where = a.subject === "query" ? `query ${who}` : `${a.subject} of query ${who}`;
      logWarning("QueryAlert", `${a.state === "firing" ? "FIRING" : "RESOLVED"} ${a.alert} on ${where}: ${a.message}`);
      this.session.streams.post("onQueryAlert", a);
      this.emit({ type: "alert", data: a });
    }
  }

  private emit(e: MonitorEvent): void {
    for (const fn of this.subscribers) {
      try {
        fn(e);
      } catch {
        this.subscribers.delete(fn); // a broken dashboard connection: drop it, never the query
      }
    }
  }

  /** Keep the newest `spark.sql.streaming.ui.retainedQueries` finished queries (active ones always). */
  private retain(): void {
    const keep = Math.max(0, this.confInt("spark.sql.streaming.ui.retainedQueries", 100));
    const finished = [...this.queries.entries()].filter(([, r]) => r.ended);
    for (const [runId, r] of finished.slice(0, Math.max(0, finished.length - keep))) {
      this.queries.delete(runId);
      this.watermarks.delete(runId);
      if (![...this.queries.values()].some((o) => o.labels.query_id === r.labels.query_id)) this.metrics.forget(r.labels.query_id);
    }
  }

  private confInt(key: string, fallback: number): number {
    const n = Number(this.session.conf.getOption(key) ?? fallback);
    return Number.isFinite(n) ? n : fallback;
  }

  // ---------------------------------------------------------------- reads (dashboard, tests)

  summaries(): QuerySummary[] {
    return [...this.queries.values()].map((r) => this.summary(r)).reverse();
  }

  summary(rec: QueryRecord): QuerySummary {
    const data = rec.history.filter((p) => p.numInputRows > 0);
    const avg = (f: (p: StreamingQueryProgress) => number | undefined) => {
      const xs = data.map(f).filter((x): x is number => x !== undefined);
      return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null;
    };
    const e = rec.startedEvent;
    return {
      id: e.id,
      runId: e.runId,
      name: e.name,
      state: rec.ended ? (rec.error ? "failed" : "finished") : "active",
      status: rec.query?.status ?? {
        message: rec.ended ? "Stopped" : "Initializing StreamExecution",
        isDataAvailable: false,
        isTriggerActive: false,
      },
      isActive: rec.query ? rec.query.isActive : !rec.ended,
      startedAt: e.timestamp,
      endedAt: rec.endedMs === null ? null : new Date(rec.endedMs).toISOString(),
      durationMs: (rec.endedMs ?? rec.now()) - rec.startedMs,
      latestBatch: rec.history.at(-1)?.batchId ?? null,
      avgInputRate: avg((p) => p.inputRowsPerSecond),
      avgProcessRate: avg((p) => p.processedRowsPerSecond),
      lastError: rec.error,
      alertsFiring: rec.alerts.active().length,
    };
  }

  record(runId: string): QueryRecord | undefined {
    return this.queries.get(runId);
  }

  /** Firing alerts of a query (by runId), or of every query. */
  activeAlerts(runId?: string): (ActiveAlert & { runId: string; name: string | null })[] {
    const recs = runId ? [this.queries.get(runId)].filter((r) => r !== undefined) : [...this.queries.values()];
    return recs.flatMap((r) => r.alerts.active().map((a) => ({ ...a, runId: r.startedEvent.runId, name: r.startedEvent.name })));
  }

  alertLog(runId: string): QueryAlertEvent[] {
    return [...(this.queries.get(runId)?.alertLog ?? [])];
  }

  /** The query's own recentProgress (Spark's retention), or the monitor's history once it is gone. */
  recentProgress(runId: string): StreamingQueryProgress[] {
    const rec = this.queries.get(runId);
    return [...(rec?.query?.recentProgress ?? rec?.history ?? [])];
  }

  history(runId: string): StreamingQueryProgress[] {
    return [...(this.queries.get(runId)?.history ?? [])];
  }

  /**
   * The query's explainWatermark() text and data, or null once it is gone. Built once per batch
   * (it walks the open state groups): every dashboard viewer refetches after each progress event.
   */
  watermark(runId: string): { text: string; report: unknown } | null {
    const q = this.session.streams.byRunId(runId);
    if (!q) return null;
    const batchId = q.lastProgress?.batchId ?? -1;
    const cached = this.watermarks.get(runId);
    if (cached && cached.batchId === batchId) return cached.value;
    try {
      const value = { text: q.explainWatermark(), report: q.watermarkInfo() };
      this.watermarks.set(runId, { batchId, value });
      return value;
    } catch {
      return null;
    }
  }
  private readonly watermarks = new Map<string, { batchId: number; value: { text: string; report: unknown } }>();

  /** The Prometheus text exposition of this session's queries. */
  async prometheusText(): Promise<string> {
    this.checkStalled();
    return this.metrics.registry.metrics();
  }
}
