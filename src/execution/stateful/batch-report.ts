/**
 * What executing one micro-batch found out, as data: each stateful operator's metrics, each
 * watermark node's event-time stats, the late rows, the rows each streaming scan produced, and
 * (asked for on demand, since it walks the state) the groups still open. The operators fill it
 * in while the plan runs; the runtime hands it on to the progress entry, the late-row sink and
 * explainWatermark().
 */
import type { ObservedMetricsRow } from "../../plan/logical.js";
import type { OpenGroups, PhysicalOperator } from "../operator.js";
import type { EventTimeStats, LateRows, StateOperatorMetrics } from "./context.js";

export class BatchReport {
  /** State operator metrics by operator id. */
  readonly stateOperators = new Map<number, StateOperatorMetrics>();
  /** Event-time stats (ms) by watermark node id. */
  readonly eventTime = new Map<number, EventTimeStats>();
  /** Rows the stateful operators dropped as late, in the order they were found. */
  readonly lateRows: LateRows[] = [];
  /** Rows the streaming scans of each source produced (after pushed filters; twice for a self-union). */
  readonly scanRows = new Map<string, number>();
  /** df.observe's metrics by name, as this batch computed them (progress `observedMetrics`). */
  readonly observedMetrics = new Map<string, ObservedMetricsRow>();

  constructor(
    readonly batchId: number,
    /** The plan that ran (its stateful operators hold the state as this batch left it). */
    private readonly physical: PhysicalOperator,
  ) {}

  addStateOperator(operatorId: number, m: StateOperatorMetrics): void {
    this.stateOperators.set(operatorId, m);
  }
  addLateRows(late: LateRows): void {
    this.lateRows.push(late);
  }
  addEventTime(nodeId: number, stats: EventTimeStats): void {
    this.eventTime.set(nodeId, stats);
  }
  addObservedMetrics(name: string, m: ObservedMetricsRow): void {
    this.observedMetrics.set(name, m);
  }
  addScanRows(sourceId: string, rows: number): void {
    this.scanRows.set(sourceId, (this.scanRows.get(sourceId) ?? 0) + rows);
  }

  /** The metrics in operator id order (as progress lists them). */
  stateOperatorList(): StateOperatorMetrics[] {
    return [...this.stateOperators.entries()].sort(([a], [b]) => a - b).map(([, m]) => m);
  }

  /** Input rows per source: what its scans produced, or (a source no scan read) what was read from it. */
  inputRows(sourceIds: readonly string[], readRows: readonly number[]): number[] {
    return sourceIds.map((id, i) => this.scanRows.get(id) ?? readRows[i] ?? 0);
  }

  /** Groups dropped as late (Spark's numRowsDroppedByWatermark) and late input rows, over all operators. */
  dropped(): { groups: number; inputRows: number } {
    let groups = 0;
    let inputRows = 0;
    for (const m of this.stateOperators.values()) {
      groups += m.numRowsDroppedByWatermark;
      inputRows += m.numLateInputRows;
    }
    return { groups, inputRows };
  }

  /** The groups each stateful aggregation keeps open, read from its state now. */
  openGroups(): OpenGroups[] {
    return collectOpenGroups(this.physical);
  }
}

/** Every operator's open groups, depth first (the operators that declare `openGroups`). */
export function collectOpenGroups(physical: PhysicalOperator): OpenGroups[] {
  const out: OpenGroups[] = [];
  const visit = (op: PhysicalOperator) => {
    const open = op.openGroups?.();
    if (open) out.push(open);
    op.children.forEach(visit);
  };
  visit(physical);
  return out;
}
