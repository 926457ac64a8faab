/**
 * Stage A of a streaming aggregation (Spark's partial HashAggregate and everything below it):
 * the stateless operators between a file scan and the aggregation — the scan's pushed filter,
 * filters, projections, the sliding window's Expand —, the watermark's event-time statistics,
 * and the aggregation of the rows into partial buffers per group. `stageAOf` takes it out of a
 * planned `StreamingAggregateExec` as plain data (expressions are frozen data and cross threads
 * by structured clone), so a decode thread can rebuild the same operators (`runStageA`,
 * stage-a-run.ts) over its share of a file. The main thread then merges the partial groups into
 * the state exactly as it would have aggregated the rows (Spark's final HashAggregate).
 *
 * A scan's stateless stage (scan-stage.ts, `arus.exec.scanTasks`) is the same spec without an
 * aggregation: no grouping, run with `aggregate=false`, whatever consumes its rows.
 *
 * Refused (null: the aggregation reads rows as before) for anything a thread could not rebuild
 * or whose partial merge would not be exact: a function a thread cannot look up, a
 * non-deterministic or context-dependent one (`current_timestamp`), an operator other than those
 * above, an aggregate whose merge depends on order (double sums, first/last; the rule of the
 * pane aggregation, `mergesExactly`), floating-point grouping keys.
 */
import { typeOf } from "../../functions/typing.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import type { ColumnarSchema } from "../../state/columnar/index.js";
import { forEachOperator, type PhysicalOperator } from "../operator.js";
import { ExpandExec, FilterExec, ProjectExec } from "../operators/basic.js";
import type { JoinRouting } from "../parallel/join-routing.js";
import { mergesExactly } from "../stateful/pane-aggregation.js";
import type { StreamingAggregateExec } from "../stateful/streaming-aggregate.js";
import { WatermarkExec } from "../stateful/watermark.js";
import { rebuildableOnThread } from "../thread-portable.js";

/** One operator of stage A above the scan, bottom-up. */
export type StageAStep =
  | { readonly kind: "filter"; readonly condition: Expr }
  | { readonly kind: "project"; readonly exprs: readonly Expr[]; readonly output: readonly Attribute[] }
  | { readonly kind: "expand"; readonly projections: readonly (readonly Expr[])[]; readonly output: readonly Attribute[] }
  | { readonly kind: "watermark"; readonly nodeId: number; readonly eventTime: Attribute; readonly delayMs: number };

/** Stage A as data: what a thread needs to rebuild it. */
export interface StageASpec {
  readonly sourceId: string;
  readonly format: string;
  /** The scan's output (the columns the source decodes). */
  readonly scanOutput: readonly Attribute[];
  /** The filter pushed into the scan (rows it drops are not input rows of the batch). */
  readonly pushed: Expr | null;
  readonly steps: readonly StageAStep[];
  readonly groupingExprs: readonly Expr[];
  readonly aggregateExprs: readonly Expr[];
  /** Aggregate the sliding window by panes first (as the operator does). */
  readonly panes: boolean;
  readonly timeZone: string;
  readonly ansi: boolean;
  /**
   * With the state threads: split the partial groups by the thread owning their key's state
   * partition (`keyPartitions`, the hash the state files are split by), so the main thread
   * hands each thread its groups without hashing them.
   */
  readonly routing?: StageARouting;
  /**
   * A scan's stateless stage feeding a stream-stream join on the state threads: its rows split
   * by the thread owning their join key's partition (parallel/join-routing.ts).
   */
  readonly joinRouting?: JoinRouting;
}

export interface StageARouting {
  readonly schema: ColumnarSchema;
  readonly numPartitions: number;
  /** State threads: partition p belongs to thread p mod owners. */
  readonly owners: number;
}

/** What the main thread keeps beside the spec: the watermark operator whose statistics stage A computes. */
export interface StageAPlan {
  readonly spec: StageASpec;
  readonly watermark: WatermarkExec | null;
}

/** The shape of the planner's private streaming scan. */
export interface ScanLike {
  readonly name: string;
  readonly sourceId: string;
  readonly format: string;
  readonly output: readonly Attribute[];
  readonly pushed: Expr | null;
}

/**
 * How many streaming scans of `physical` read each source: a source whose scan feeds more than
 * one operator (a self-join) must keep handing rows to each, so the threads cannot take it.
 */
export function scansPerSource(physical: PhysicalOperator): Map<string, number> {
  const scans = new Map<string, number>();
  forEachOperator(physical, (op) => {
    const id = (op as { sourceId?: unknown }).sourceId;
    if (op.name === "StreamingScan" && typeof id === "string") scans.set(id, (scans.get(id) ?? 0) + 1);
  });
  return scans;
}

/** Stage A of `agg`, or null when it does not qualify (the aggregation then reads rows). */
export function stageAOf(agg: StreamingAggregateExec, conf: { timeZone: string; ansi: boolean }): StageAPlan | null {
  const spec = agg.spec;
  if (spec.groupAttrs.some((a) => a.type.kind === "double" || a.type.kind === "float")) return null;
  if (!spec.aggCalls.every(mergesExactly) || spec.aggCalls.some((c) => c.call.distinct)) return null;
  const exprs: Expr[] = [...agg.groupingExprs, ...agg.aggregateExprs];
  const steps: StageAStep[] = [];
  let watermark: WatermarkExec | null = null;
  let op: PhysicalOperator = agg.panes ? agg.panes.expand : agg.child;
  for (;;) {
    if (op instanceof ProjectExec) {
      steps.push({ kind: "project", exprs: op.exprs, output: op.output });
      exprs.push(...op.exprs);
      op = op.child;
    } else if (op instanceof FilterExec) {
      steps.push({ kind: "filter", condition: op.condition });
      exprs.push(op.condition);
      op = op.child;
    } else if (op instanceof ExpandExec) {
      steps.push({ kind: "expand", projections: op.projections, output: op.output });
      for (const p of op.projections) exprs.push(...p);
      op = op.child;
    } else if (op instanceof WatermarkExec) {
      if (watermark) return null;
      watermark = op;
      steps.push({ kind: "watermark", nodeId: op.nodeId, eventTime: op.eventTime, delayMs: op.delayMs });
      op = op.child;
    } else break;
  }
  const scan = op as unknown as ScanLike;
  if (scan.name !== "StreamingScan" || scan.format !== "json") return null;
  if (scan.pushed) exprs.push(scan.pushed);
  if (!exprs.every(rebuildableOnThread)) return null;
  // typeOf must hold in the thread too (a type it cannot compute would fail there)
  for (const e of agg.groupingExprs) typeOf(e);
  const stage = stageSpec(scan, steps.reverse(), conf, {
    groupingExprs: agg.groupingExprs,
    aggregateExprs: agg.aggregateExprs,
    panes: agg.panes !== null,
  });
  return stage ? { spec: stage, watermark } : null;
}

/**
 * Stage A of `scan` as data, with an aggregation or none (a scan's stateless stage), or null when
 * it cannot cross to a thread (structured clone refuses something in it).
 */
export function stageSpec(
  scan: ScanLike,
  steps: readonly StageAStep[],
  conf: { timeZone: string; ansi: boolean },
  aggregation: Pick<StageASpec, "groupingExprs" | "aggregateExprs" | "panes"> = { groupingExprs: [], aggregateExprs: [], panes: false },
): StageASpec | null {
  const spec: StageASpec = {
    sourceId: scan.sourceId,
    format: scan.format,
    scanOutput: scan.output,
    pushed: scan.pushed,
    steps,
    ...aggregation,
    timeZone: conf.timeZone,
    ansi: conf.ansi,
  };
  try {
    structuredClone(spec);
  } catch {
    return null;
  }
  return spec;
}
