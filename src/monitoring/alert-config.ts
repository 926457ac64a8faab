/**
 * Alert rule settings in Spark's conf style: `arus.monitoring.alerts.<rule>.<param>` for the
 * session, `arus.monitoring.query.<queryName>.alerts.<rule>.<param>` for one named query (the
 * query's key wins). Every rule has defaults, so an unconfigured session still warns
 * (docs/monitoring.md lists the rules, their parameters and defaults).
 */
import type { RuntimeConfig } from "../common/conf.js";
import { IllegalArgumentException } from "../common/errors.js";

export const ALERT_RULES = [
  "fallingBehind",
  "slowBatch",
  "sourceLag",
  "watermarkDelay",
  "idleSource",
  "stateGrowth",
  "lateRows",
  "noProgress",
] as const;
export type AlertRuleName = (typeof ALERT_RULES)[number];

/** Parameters of each rule with their defaults (strings, as conf values are). */
export const ALERT_DEFAULTS: Readonly<Record<AlertRuleName, Readonly<Record<string, string>>>> = {
  // processedRowsPerSecond < ratio × inputRowsPerSecond in `batches` data batches in a row
  fallingBehind: { enabled: "true", batches: "3", ratio: "1.0", resolveBatches: "3" },
  // batchDuration above the processing-time trigger interval in `batches` batches in a row
  slowBatch: { enabled: "true", batches: "3", resolveBatches: "3" },
  // a source's lag (offsets or files behind its latest) above `max`, or growing `growingBatches` batches in a row
  sourceLag: { enabled: "true", max: "100000", growingBatches: "5", batches: "1", resolveBatches: "3" },
  // batch start (the query's clock) minus the watermark above `max`
  watermarkDelay: { enabled: "false", max: "30m", batches: "1", resolveBatches: "3" },
  // one source read nothing in `batches` batches in a row while another source read rows
  idleSource: { enabled: "true", batches: "5", resolveBatches: "1" },
  // an operator's state rows grew with nothing removed in `batches` data batches in a row
  stateGrowth: { enabled: "true", batches: "10", resolveBatches: "1" },
  // late input rows / input rows above `maxRatio` in `batches` data batches in a row
  lateRows: { enabled: "true", maxRatio: "0.05", batches: "1", resolveBatches: "3" },
  // no progress event (batch or idle) for `timeout` while the query is active
  noProgress: { enabled: "true", timeout: "5m" },
};

const PREFIX = "arus.monitoring";

/** The settings of one query's rules, read and checked once, when the query starts. */
export class AlertConfig {
  private readonly numbers = new Map<string, number>();
  private readonly enabledRules = new Set<AlertRuleName>();
  readonly enabled: boolean;

  constructor(
    private readonly conf: RuntimeConfig,
    private readonly queryName: string | null,
  ) {
    this.enabled = (this.conf.getOption(`${PREFIX}.alerts.enabled`) ?? "true").toLowerCase() !== "false";
    // Check every value now, so a typo is reported when the query starts, naming its key.
    for (const rule of ALERT_RULES) {
      for (const p of Object.keys(ALERT_DEFAULTS[rule])) {
        if (p === "enabled") {
          if (this.enabled && this.raw(rule, p).value.toLowerCase() !== "false") this.enabledRules.add(rule);
        } else if ((p === "max" && rule === "watermarkDelay") || p === "timeout")
          this.numbers.set(`${rule}.${p}`, this.parseDuration(rule, p));
        else this.numbers.set(`${rule}.${p}`, this.parseNumber(rule, p));
      }
    }
  }

  /** The key that set a parameter (for messages) and its value. */
  private raw(rule: AlertRuleName, param: string): { key: string; value: string } {
    if (this.queryName !== null) {
      const key = `${PREFIX}.query.${this.queryName}.alerts.${rule}.${param}`;
      const v = this.conf.getOption(key);
      if (v !== undefined) return { key, value: v };
    }
    const key = `${PREFIX}.alerts.${rule}.${param}`;
    return { key, value: this.conf.getOption(key) ?? ALERT_DEFAULTS[rule][param]! };
  }

  ruleEnabled(rule: AlertRuleName): boolean {
    return this.enabledRules.has(rule);
  }

  /** A count or a ratio. */
  number(rule: AlertRuleName, param: string): number {
    return this.value(rule, param);
  }

  /** A duration in milliseconds. */
  durationMs(rule: AlertRuleName, param: string): number {
    return this.value(rule, param);
  }

  private value(rule: AlertRuleName, param: string): number {
    const v = this.numbers.get(`${rule}.${param}`);
    if (v === undefined) throw new Error(`internal: no alert parameter ${rule}.${param}`);
    return v;
  }

  private parseNumber(rule: AlertRuleName, param: string): number {
    const { key, value } = this.raw(rule, param);
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
      throw new IllegalArgumentException(`${key} must be a non-negative number, got '${value}'.`);
    }
    return n;
  }

  /** A duration such as 500ms, 30s, 5m, 1h (a bare number is milliseconds). */
  private parseDuration(rule: AlertRuleName, param: string): number {
    const { key, value } = this.raw(rule, param);
    const ms = parseDurationMs(value);
    if (ms === null) throw new IllegalArgumentException(`${key} must be a duration like 30s, 5m or 1h, got '${value}'.`);
    return ms;
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDurationMs(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|min|m|h|d)?\s*$/i.exec(text);
  if (!m) return null;
  return Number(m[1]) * UNIT_MS[(m[2] ?? "ms").toLowerCase()]!;
}
