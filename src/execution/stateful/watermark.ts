/**
 * EventTimeWatermark in a streaming batch: passes rows through unchanged and reports the
 * max / min / sum / count of the event-time column (in ms, floored) to the runtime, which
 * folds them into the global watermark after the batch.
 */
import type { Batch } from "../../columnar/batch.js";
import type { Vector } from "../../columnar/vector.js";
import { wideLaneUnsupported } from "../../functions/long-ops.js";
import type { Attribute } from "../../plan/expressions.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import type { BatchReport } from "./batch-report.js";
import { WATERMARK_KEY } from "./common.js";
import { type EventTimeStats, LatenessSampler } from "./context.js";

export class WatermarkExec implements PhysicalOperator {
  readonly name = "EventTimeWatermark";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly column: number;
  /** Max event time (ms) seen so far by this run, for the lateness profile. */
  private runningMax = Number.NEGATIVE_INFINITY;
  constructor(
    readonly nodeId: number,
    readonly eventTime: Attribute,
    readonly delayMs: number,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    // Mark the event-time column (and unmark an earlier one) as the logical plan does, so a
    // stateful operator right on top (dropDuplicates) finds it.
    this.output = child.output.map((a) => {
      const { [WATERMARK_KEY]: _old, ...rest } = a.metadata;
      if (a.exprId === eventTime.exprId) return { ...a, metadata: { ...rest, [WATERMARK_KEY]: delayMs } };
      return _old === undefined ? a : { ...a, metadata: rest };
    });
    this.column = child.output.findIndex((a) => a.exprId === eventTime.exprId);
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const batches = await this.child.execute(ctx);
    const stats = new EventTimeStatsBuilder(
      this.runningMax,
      batches.reduce((n, b) => n + b.numRows, 0),
    );
    for (const b of batches) stats.addColumn(b.columns[this.column]!, b.numRows);
    this.runningMax = stats.running;
    ctx.state?.report.addEventTime(this.nodeId, stats.result());
    return batches;
  }
  /**
   * The statistics `execute` would have recorded, from the event times (ms) of the rows that
   * stage A ran through this operator on the decode threads (execution/partial/), ranges in
   * file order: the same additions and running maximum, row by row.
   */
  recordEventTimes(report: BatchReport, ranges: readonly Float64Array[]): void {
    const stats = new EventTimeStatsBuilder(
      this.runningMax,
      ranges.reduce((n, r) => n + r.length, 0),
    );
    for (const r of ranges) stats.addMillis(r);
    this.runningMax = stats.running;
    report.addEventTime(this.nodeId, stats.result());
  }
  describe(): string {
    return `${this.eventTime.name}#${this.eventTime.exprId}: ${this.delayMs / 1000} seconds`;
  }
}

/** Max / min / sum / count and lateness of event times (ms), row by row in row order. */
class EventTimeStatsBuilder {
  max = Number.NEGATIVE_INFINITY;
  min = Number.POSITIVE_INFINITY;
  sum = 0;
  private readonly lateness: LatenessSampler;
  constructor(
    /** Max event time (ms) seen before the next row. */
    public running: number,
    private readonly count: number,
  ) {
    this.lateness = new LatenessSampler(count);
  }
  /** Event times of a column (timestamps, or window structs by their end) read in place: no per-batch copy. */
  addColumn(v: Vector, n: number): void {
    const src = v.children ? v.children[1]! : v;
    // Event times after 2255 (the wide lane, columnar/int64.ts) would round here: refuse them.
    if (src.values instanceof BigInt64Array) throw wideLaneUnsupported("an event-time watermark", null);
    const vals = src.values as Float64Array;
    const outer = v.validity;
    const inner = src.validity;
    for (let i = 0; i < n; i++) {
      // A NULL event time counts as 0, as Spark's UnsafeRow.getLong on a null field does.
      const isNull = (outer !== null && outer[i] === 0) || (inner !== null && inner[i] === 0);
      this.add(isNull ? 0 : Math.floor(vals[i]! / 1000));
    }
  }
  addMillis(ms: Float64Array): void {
    for (let i = 0; i < ms.length; i++) this.add(ms[i]!);
  }
  private add(ms: number): void {
    if (ms > this.max) this.max = ms;
    if (ms < this.min) this.min = ms;
    this.sum += ms;
    const running = this.running;
    this.lateness.add(running > ms ? running - ms : 0);
    if (ms > running) this.running = ms;
  }
  result(): EventTimeStats {
    const { max, min, sum, count } = this;
    return { max, min, sum, count, lateness: this.lateness.result() };
  }
}
