/**
 * What each alert rule sees in one progress entry: for every subject it watches (the query, a
 * source, a state operator) whether it is unhealthy now, the value and the bound. Rules that
 * need a history (lag growing, state growing) keep it here; counting how many evaluations in a
 * row were bad or good is alerts.ts's job. A rule returns nothing for a subject it cannot judge
 * in this entry (no input rows, no watermark yet), which leaves that subject's counts as they are.
 */
import type { StreamingQueryProgress } from "../runtime/progress.js";
import type { AlertConfig, AlertRuleName } from "./alert-config.js";

export interface Observation {
  rule: AlertRuleName;
  subject: string;
  bad: boolean;
  value: number;
  threshold: number;
  message: string;
}

export interface QueryFacts {
  /** The processing-time trigger interval, 0 for none. */
  triggerIntervalMs: number;
  /** spark.sql.streaming.noDataProgressEventInterval: how often an idle query reports (default 10 s). */
  idleEventIntervalMs?: number;
}

const isData = (p: StreamingQueryProgress) => p.numInputRows > 0;

export interface Lag {
  value: number;
  unit: "offsets" | "files" | "bytes";
}

/**
 * Source `i`'s lag, every measure known: offsets (Kafka's maxOffsetsBehindLatest), files and
 * bytes listed but not yet read (a file source's `arus.sourceBacklog`), or numeric
 * latestOffset − endOffset (memory stream, rate). The first is the one the alert rule judges.
 */
export function sourceLags(p: StreamingQueryProgress, i: number): Lag[] {
  const s = p.sources[i];
  if (!s) return [];
  const m = s.metrics ?? {};
  if (m.maxOffsetsBehindLatest !== undefined) return [{ value: Number(m.maxOffsetsBehindLatest), unit: "offsets" }];
  const backlog = p.arus?.sourceBacklog?.[i];
  if (backlog) {
    return [
      { value: backlog.files, unit: "files" },
      { value: backlog.bytes, unit: "bytes" },
    ];
  }
  if (
    typeof s.endOffset === "number" &&
    typeof s.latestOffset === "number" &&
    Number.isFinite(s.endOffset) &&
    Number.isFinite(s.latestOffset)
  ) {
    return [{ value: Math.max(0, s.latestOffset - s.endOffset), unit: "offsets" }];
  }
  return [];
}

export class AlertRules {
  private readonly lagHistory = new Map<number, { last: number; growing: number }>();
  private readonly stateHistory = new Map<number, { last: number; growing: number }>();
  private readonly idleStreak = new Map<number, number>();

  constructor(
    private readonly cfg: AlertConfig,
    private readonly facts: QueryFacts,
  ) {}

  observe(p: StreamingQueryProgress): Observation[] {
    const out: Observation[] = [];
    const on = (r: AlertRuleName) => this.cfg.ruleEnabled(r);
    if (on("fallingBehind")) this.fallingBehind(p, out);
    if (on("slowBatch")) this.slowBatch(p, out);
    if (on("sourceLag")) this.sourceLag(p, out);
    if (on("watermarkDelay")) this.watermarkDelay(p, out);
    if (on("idleSource")) this.idleSource(p, out);
    if (on("stateGrowth")) this.stateGrowth(p, out);
    if (on("lateRows")) this.lateRows(p, out);
    return out;
  }

  private fallingBehind(p: StreamingQueryProgress, out: Observation[]): void {
    if (!isData(p) || p.inputRowsPerSecond === undefined || p.processedRowsPerSecond === undefined) return;
    const ratio = this.cfg.number("fallingBehind", "ratio");
    const bound = p.inputRowsPerSecond * ratio;
    out.push({
      rule: "fallingBehind",
      subject: "query",
      bad: p.processedRowsPerSecond < bound,
      value: p.processedRowsPerSecond,
      threshold: bound,
      message: `processing ${p.processedRowsPerSecond} rows/s while ${p.inputRowsPerSecond} rows/s arrive`,
    });
  }

  private slowBatch(p: StreamingQueryProgress, out: Observation[]): void {
    const interval = this.facts.triggerIntervalMs;
    if (interval <= 0 || !isData(p)) return;
    out.push({
      rule: "slowBatch",
      subject: "query",
      bad: p.batchDuration > interval,
      value: p.batchDuration,
      threshold: interval,
      message: `batch ${p.batchId} took ${p.batchDuration} ms, the trigger interval is ${interval} ms`,
    });
  }

  private sourceLag(p: StreamingQueryProgress, out: Observation[]): void {
    const max = this.cfg.number("sourceLag", "max");
    const growFor = this.cfg.number("sourceLag", "growingBatches");
    p.sources.forEach((s, i) => {
      const lag = sourceLags(p, i)[0];
      if (!lag) return;
      const h = this.lagHistory.get(i);
      const growing = h && lag.value > h.last ? h.growing + 1 : 0;
      this.lagHistory.set(i, { last: lag.value, growing });
      const tooBig = lag.value > max;
      const grows = growFor > 0 && growing >= growFor;
      out.push({
        rule: "sourceLag",
        subject: `source[${i}]`,
        bad: tooBig || grows,
        value: lag.value,
        threshold: max,
        message: `${s.description} is ${lag.value} ${lag.unit} behind its latest${grows ? `, growing for ${growing} batches` : ""} (bound ${max})`,
      });
    });
  }

  private watermarkDelay(p: StreamingQueryProgress, out: Observation[]): void {
    const wm = p.eventTime?.watermark;
    if (!wm) return;
    const wmMs = Date.parse(wm);
    if (!(wmMs > 0)) return; // no event seen yet: the watermark is still the epoch
    const delay = Date.parse(p.timestamp) - wmMs;
    const max = this.cfg.durationMs("watermarkDelay", "max");
    out.push({
      rule: "watermarkDelay",
      subject: "query",
      bad: delay > max,
      value: delay,
      threshold: max,
      message: `the watermark ${wm} trails the batch start ${p.timestamp} by ${delay} ms (bound ${max} ms)`,
    });
  }

  private idleSource(p: StreamingQueryProgress, out: Observation[]): void {
    if (p.sources.length < 2) return;
    const rows = p.sources.map((s) => s.numInputRows);
    const total = rows.reduce((a, b) => a + b, 0);
    if (total === 0) return; // nothing advanced: not "idle while others advance"
    const need = this.cfg.number("idleSource", "batches");
    p.sources.forEach((s, i) => {
      const streak = rows[i] === 0 ? (this.idleStreak.get(i) ?? 0) + 1 : 0;
      this.idleStreak.set(i, streak);
      out.push({
        rule: "idleSource",
        subject: `source[${i}]`,
        bad: rows[i] === 0,
        value: streak,
        threshold: need,
        message: `${s.description} read no rows in ${streak} batches while other sources read ${total - rows[i]!}`,
      });
    });
  }

  private stateGrowth(p: StreamingQueryProgress, out: Observation[]): void {
    if (!isData(p)) return;
    const need = this.cfg.number("stateGrowth", "batches");
    p.stateOperators.forEach((op, i) => {
      const h = this.stateHistory.get(i);
      const grew = h !== undefined && op.numRowsTotal > h.last && op.numRowsRemoved === 0;
      const growing = grew ? h!.growing + 1 : 0;
      this.stateHistory.set(i, { last: op.numRowsTotal, growing });
      if (h === undefined) return;
      out.push({
        rule: "stateGrowth",
        subject: `stateOperator[${i}]`,
        bad: grew,
        value: op.numRowsTotal,
        threshold: need,
        message: `${op.operatorName} state grew to ${op.numRowsTotal} rows with none removed for ${growing} batches (a missing or too large watermark?)`,
      });
    });
  }

  private lateRows(p: StreamingQueryProgress, out: Observation[]): void {
    if (!isData(p) || p.arus === undefined) return;
    const ratio = p.arus.numLateInputRows / p.numInputRows;
    const max = this.cfg.number("lateRows", "maxRatio");
    out.push({
      rule: "lateRows",
      subject: "query",
      bad: ratio > max,
      value: ratio,
      threshold: max,
      message: `${p.arus.numLateInputRows} of ${p.numInputRows} input rows were late in batch ${p.batchId} (ratio ${ratio.toFixed(3)}, bound ${max})`,
    });
  }
}
