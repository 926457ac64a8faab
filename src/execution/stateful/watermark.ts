/**
 * EventTimeWatermark in a streaming batch: passes rows through unchanged and reports the
 * max / min / sum / count of the event-time column (in ms, floored) to the runtime, which
 * folds them into the global watermark after the batch.
 */
import type { Batch } from "../../columnar/batch.js";
import type { Attribute } from "../../plan/expressions.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import type { BatchReport } from "./batch-report.js";
import { eventTimeMicros, WATERMARK_KEY } from "./common.js";

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
    let max = Number.NEGATIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    let sum = 0;
    let count = 0;
    for (const b of batches) count += b.numRows;
    // sized up front: a growing JS array of doubles cost as much as the loop itself
    const lateness = new Float64Array(count);
    let running = this.runningMax;
    let k = 0;
    for (const b of batches) {
      const et = eventTimeMicros(b.columns[this.column]!, b.numRows);
      for (let i = 0; i < b.numRows; i++, k++) {
        const micros = et[i]!;
        // A NULL event time counts as 0, as Spark's UnsafeRow.getLong on a null field does.
        const ms = micros === Number.NEGATIVE_INFINITY ? 0 : Math.floor(micros / 1000);
        if (ms > max) max = ms;
        if (ms < min) min = ms;
        sum += ms;
        lateness[k] = running > ms ? running - ms : 0;
        if (ms > running) running = ms;
      }
    }
    this.runningMax = running;
    ctx.state?.report.addEventTime(this.nodeId, { max, min, sum, count, lateness });
    return batches;
  }
  /**
   * The statistics `execute` would have recorded, from the event times (ms) of the rows that
   * stage A ran through this operator on the decode threads (execution/partial/), ranges in
   * file order: the same additions and running maximum, row by row.
   */
  recordEventTimes(report: BatchReport, ranges: readonly Float64Array[]): void {
    let max = Number.NEGATIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    let sum = 0;
    let count = 0;
    for (const r of ranges) count += r.length;
    const lateness = new Float64Array(count);
    let running = this.runningMax;
    let k = 0;
    for (const r of ranges) {
      for (let i = 0; i < r.length; i++, k++) {
        const ms = r[i]!;
        if (ms > max) max = ms;
        if (ms < min) min = ms;
        sum += ms;
        lateness[k] = running > ms ? running - ms : 0;
        if (ms > running) running = ms;
      }
    }
    this.runningMax = running;
    report.addEventTime(this.nodeId, { max, min, sum, count, lateness });
  }
  describe(): string {
    return `${this.eventTime.name}#${this.eventTime.exprId}: ${this.delayMs / 1000} seconds`;
  }
}
