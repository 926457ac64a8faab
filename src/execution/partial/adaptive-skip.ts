/**
 * Adaptive skipping of stage A's partial aggregation (Spark's adaptive partial aggregation,
 * SPARK-38505; DataFusion's skip_partial_aggregation): partial aggregation on the decode threads
 * pays when it shrinks the rows the main thread merges into the state. A query's first files
 * (its probe, at least `probeRows` rows reaching the aggregation) are aggregated; when their
 * partial groups are more than `maxGroupRatio` of those rows, the threads stop aggregating for
 * the rest of the query and ship the rows stage A's operators produced (decoded, filtered,
 * projected), which the main thread aggregates as the row path does. Decided once per query run.
 */
import type { PartialGroups } from "./stage-a-run.js";

export interface SkipSettings {
  /** Rows reaching the aggregation to observe before deciding. */
  readonly probeRows: number;
  /** Partial groups per such row above which aggregating is skipped (1 or more: never). */
  readonly maxGroupRatio: number;
}

/** What stage A's partial groups shrank to: groups shipped, and the rows ((row, window) pairs) behind them. */
export function reductionOf(parts: readonly PartialGroups[]): { groups: number; rows: number } {
  let groups = 0;
  let rows = 0;
  for (const p of parts) {
    for (const c of p.chunks) {
      groups += c.n;
      for (let g = 0; g < c.n; g++) rows += c.rows[g]!;
    }
  }
  return { groups, rows };
}

export class AdaptiveSkip {
  private groups = 0;
  private rows = 0;
  private decided = false;
  /** False once the probe showed too little reduction: ship rows from then on. */
  aggregate = true;

  constructor(readonly settings: SkipSettings) {}

  /** Folds in a file's partial groups (aggregated ones only) until the probe has enough rows. */
  observe(parts: readonly PartialGroups[]): void {
    if (this.decided || parts.some((p) => p.rows)) return;
    const r = reductionOf(parts);
    this.groups += r.groups;
    this.rows += r.rows;
    if (this.rows === 0 || this.rows < this.settings.probeRows) return;
    this.decided = true;
    this.aggregate = this.groups <= this.settings.maxGroupRatio * this.rows;
  }

  /** The probe's measured ratio (groups per row), for tests and metrics. */
  get ratio(): number {
    return this.rows === 0 ? 0 : this.groups / this.rows;
  }
}
