/**
 * Collects one trigger's timings and counts and turns them into a StreamingQueryProgress
 * (executed batch) or, at most every noDataProgressEventInterval, an idle progress entry.
 */
import { isoUtcMillis } from "../common/time.js";
import type { Offset } from "../connectors/source.js";
import type { LateRows, StateOperatorMetrics } from "../execution/stateful/context.js";
import type { MicroBatchConfig } from "./micro-batch-execution.js";
import { clean, eventTimeMap, latenessProfile, rate, type StreamingQueryProgress, sortedMap } from "./progress.js";
import type { EventTimeStats } from "./watermark-tracker.js";

interface BatchFacts {
  batch: { batchId: number; starts: (Offset | null)[]; ends: (Offset | null)[]; watermarkMs: number };
  inputRows: number[];
  outputRows: number;
  stats: EventTimeStats | null;
  /** Event-time stats of every watermark node, by column name. */
  allStats: Map<string, EventTimeStats>;
  metrics: StateOperatorMetrics[];
  lates: LateRows[];
  hasWatermark: boolean;
}

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
      async time<T>(key: string, fn: () => Promise<T>): Promise<T> {
        const t = clock.now();
        try {
          return await fn();
        } finally {
          durations[key] = (durations[key] ?? 0) + (clock.now() - t);
        }
      },
      finishBatch(f: BatchFacts): StreamingQueryProgress {
        const end = clock.now();
        durations.triggerExecution = end - start;
        const processingSec = Math.max(1, end - start) / 1000;
        const total = f.inputRows.reduce((a, b) => a + b, 0);
        const lateRows = f.metrics.reduce((n, m) => n + m.numLateInputRows, 0);
        const lateness: Record<string, ReturnType<typeof latenessProfile>> = {};
        for (const [column, s] of f.allStats) if (s.lateness?.length) lateness[column] = latenessProfile(s.lateness);
        self.lastMetrics = f.metrics;
        self.lastProgressAt = end;
        self.lastEnds = f.batch.ends;
        return clean({
          ...base(f.batch.batchId),
          batchDuration: end - start,
          numInputRows: total,
          inputRowsPerSecond: rate(total / inputTimeSec),
          processedRowsPerSecond: rate(total / processingSec),
          durationMs: sortedMap(durations),
          eventTime: eventTimeMap(f.stats, f.hasWatermark ? f.batch.watermarkMs : null),
          stateOperators: f.metrics.map(stripArus),
          sources: self.cfg.sources.map((s, i) =>
            clean({
              description: s.description,
              startOffset: f.batch.starts[i] ?? null,
              endOffset: f.batch.ends[i] ?? null,
              latestOffset: s.reportLatestOffset?.() ?? f.batch.ends[i] ?? null,
              numInputRows: f.inputRows[i] ?? 0,
              inputRowsPerSecond: rate((f.inputRows[i] ?? 0) / inputTimeSec),
              processedRowsPerSecond: rate((f.inputRows[i] ?? 0) / processingSec),
              metrics: s.metrics?.(f.batch.ends[i] ?? null),
            }),
          ),
          sink: { description: self.cfg.sink.description, numOutputRows: self.cfg.sink.reportsOutputRows ? f.outputRows : -1 },
          arus: clean({ numLateInputRows: lateRows, lateness: Object.keys(lateness).length ? lateness : undefined }),
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
              latestOffset: self.lastEnds?.[i] ?? null,
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
