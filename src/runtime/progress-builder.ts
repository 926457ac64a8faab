/**
 * Collects one trigger's timings (the loop records each step's duration) and turns them and the
 * batch's `BatchReport` into a StreamingQueryProgress (executed batch) or, at most every
 * noDataProgressEventInterval, an idle progress entry.
 */
import { isoUtcMillis } from "../common/datetime/index.js";
import type { Offset } from "../connectors/source.js";
import type { BatchReport } from "../execution/stateful/batch-report.js";
import type { StateOperatorMetrics } from "../execution/stateful/context.js";
import type { MicroBatchConfig } from "./micro-batch-execution.js";
import { observedMetricsJson } from "./observed-metrics.js";
import { clean, eventTimeMap, latenessProfile, rate, type StreamingQueryProgress, sortedMap } from "./progress.js";
import type { EventTimeStats } from "./watermark-tracker.js";

interface BatchFacts {
  batch: { batchId: number; starts: (Offset | null)[]; ends: (Offset | null)[]; watermarkMs: number };
  report: BatchReport;
  /** Input rows per source (`BatchReport.inputRows`). */
  inputRows: number[];
  outputRows: number;
  hasWatermark: boolean;
}

/** One trigger's progress in the making (`ProgressBuilder.startTrigger`). */
export type TriggerProgress = ReturnType<ProgressBuilder["startTrigger"]>;

export class ProgressBuilder {
  private prevTriggerStart: number | null = null;
  private lastProgressAt: number | null = null;
  private lastMetrics: StateOperatorMetrics[] = [];
  private lastEnds: (Offset | null)[] | null = null;

  constructor(private readonly cfg: MicroBatchConfig) {}

  startTrigger(start: number) {
    const durations: Record<string, number> = {};
    const inputTimeSec = this.prevTriggerStart === null ? Number.POSITIVE_INFINITY : (start - this.prevTriggerStart) / 1000;
    this.prevTriggerStart = start;
    const clock = this.cfg.clock;
    const self = this;
    const base = (batchId: number) => ({
      id: this.cfg.id,
      runId: this.cfg.runId,
      name: this.cfg.name,
      timestamp: isoUtcMillis(start),
      batchId,
    });
    return {
      /** A step that began at `startedMs` ended now: add its time to durationMs[key]. */
      record(key: string, startedMs: number): void {
        durations[key] = (durations[key] ?? 0) + (clock.now() - startedMs);
      },
      finishBatch(f: BatchFacts): StreamingQueryProgress {
        const end = clock.now();
        const metrics = f.report.stateOperatorList();
        const nodes = self.cfg.plan.watermarkNodes;
        const eventTime = f.report.eventTime;
        // The first watermark node (in execution order) that saw rows gives progress's eventTime.
        const stats: EventTimeStats | null = [...eventTime.values()].find((s) => s.count > 0) ?? null;
        durations.triggerExecution = end - start;
        const processingSec = Math.max(1, end - start) / 1000;
        const total = f.inputRows.reduce((a, b) => a + b, 0);
        const lateRows = metrics.reduce((n, m) => n + m.numLateInputRows, 0);
        const lateness: Record<string, ReturnType<typeof latenessProfile>> = {};
        // Every watermark node's stats by column name (a later node of the same name wins).
        const byColumn = new Map(nodes.filter((n) => eventTime.has(n.id)).map((n) => [n.column, eventTime.get(n.id)!]));
        for (const [column, s] of byColumn) if (s.lateness && s.lateness.count > 0) lateness[column] = latenessProfile(s.lateness);
        const backlog = self.cfg.sources.map((s) => s.backlog?.() ?? null);
        self.lastMetrics = metrics;
        self.lastProgressAt = end;
        self.lastEnds = f.batch.ends;
        return clean({
          ...base(f.batch.batchId),
          batchDuration: end - start,
          numInputRows: total,
          inputRowsPerSecond: rate(total / inputTimeSec),
          processedRowsPerSecond: rate(total / processingSec),
          durationMs: sortedMap(durations),
          eventTime: eventTimeMap(stats, f.hasWatermark ? f.batch.watermarkMs : null),
          stateOperators: metrics.map(stripArus),
          sources: self.cfg.sources.map((s, i) =>
            clean({
              description: s.description,
              startOffset: f.batch.starts[i] ?? null,
              endOffset: f.batch.ends[i] ?? null,
              latestOffset: s.reportLatestOffset ? s.reportLatestOffset() : (f.batch.ends[i] ?? null),
              numInputRows: f.inputRows[i] ?? 0,
              inputRowsPerSecond: rate((f.inputRows[i] ?? 0) / inputTimeSec),
              processedRowsPerSecond: rate((f.inputRows[i] ?? 0) / processingSec),
              metrics: s.metrics?.(f.batch.ends[i] ?? null),
            }),
          ),
          sink: { description: self.cfg.sink.description, numOutputRows: self.cfg.sink.reportsOutputRows ? f.outputRows : -1 },
          observedMetrics: observedMetricsJson(f.report.observedMetrics, self.cfg.conf.timeZone),
          arus: clean({
            numLateInputRows: lateRows,
            lateness: Object.keys(lateness).length ? lateness : undefined,
            sourceBacklog: backlog.some((b) => b !== null) ? backlog : undefined,
          }),
        });
      },
      /** An idle entry at most every noDataProgressEventInterval, never before the first batch of a run. */
      finishIdle(nextBatchId: number, watermarkMs: number, hasWatermark: boolean): StreamingQueryProgress | null {
        const end = clock.now();
        const interval = self.cfg.conf.getMs("spark.sql.streaming.noDataProgressEventInterval");
        if (self.lastProgressAt === null || end - self.lastProgressAt < interval) return null;
        self.lastProgressAt = end;
        durations.triggerExecution = end - start;
        return clean({
          ...base(nextBatchId),
          batchDuration: end - start,
          numInputRows: 0,
          inputRowsPerSecond: 0,
          processedRowsPerSecond: 0,
          durationMs: sortedMap(durations),
          eventTime: hasWatermark ? { watermark: isoUtcMillis(watermarkMs) } : undefined,
          stateOperators: self.lastMetrics.map((m) => ({ ...stripArus(m), numRowsUpdated: 0, numRowsDroppedByWatermark: 0 })),
          sources: self.cfg.sources.map((s, i) =>
            clean({
              description: s.description,
              startOffset: self.lastEnds?.[i] ?? null,
              endOffset: self.lastEnds?.[i] ?? null,
              latestOffset: s.reportLatestOffset ? s.reportLatestOffset() : (self.lastEnds?.[i] ?? null),
              numInputRows: 0,
              inputRowsPerSecond: 0,
              processedRowsPerSecond: 0,
            }),
          ),
          sink: { description: self.cfg.sink.description, numOutputRows: self.cfg.sink.reportsOutputRows ? 0 : -1 },
        });
      },
    };
  }
}

function stripArus(m: StateOperatorMetrics): Omit<StateOperatorMetrics, "numLateInputRows"> {
  const { numLateInputRows: _drop, customMetrics, ...rest } = m;
  return clean({ ...rest, customMetrics: Object.keys(customMetrics).length ? sortedMap(customMetrics) : undefined }) as Omit<
    StateOperatorMetrics,
    "numLateInputRows"
  >;
}
