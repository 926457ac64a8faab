/**
 * Planning a streaming query (Spark's IncrementalExecution): the same physical plan as a
 * batch query, except that streaming relations read the current micro-batch's rows,
 * watermark nodes report event-time stats, and aggregations / deduplications keep state.
 * Stateful operators get ids 0, 1, ... in plan order; they name the state directories.
 */

import { resolveColumn } from "../analyzer/resolve-names.js";
import { oneEventTimeColumn } from "../analyzer/streaming-checks.js";
import { outputOf, typeOf } from "../analyzer/types.js";
import type { Batch } from "../columnar/batch.js";
import { takeBatch } from "../columnar/batch.js";
import { AggregationSpec } from "../execution/aggregation.js";
import { compilePredicate } from "../execution/compile.js";
import type { ExecContext, PhysicalOperator } from "../execution/operator.js";
import { FilterExec } from "../execution/operators/basic.js";
import { MovingBackend } from "../execution/parallel/moving-backend.js";
import { RouteCombiner } from "../execution/parallel/route-combiner.js";
import { type MoveAfter, StateMove, staysOnMainFirst } from "../execution/parallel/state-move.js";
import { StateThreadsBackend } from "../execution/parallel/threads-backend.js";
import type { SkipSettings } from "../execution/partial/adaptive-skip.js";
import type { AggregationBackend } from "../execution/stateful/aggregation-backend.js";
import { ColumnarAggregation } from "../execution/stateful/columnar-aggregation.js";
import { ColumnarBackend } from "../execution/stateful/columnar-backend.js";
import { eventTimeKeyIndex } from "../execution/stateful/common.js";
import { StreamingDeduplicateExec } from "../execution/stateful/deduplicate.js";
import { StreamingLimitExec } from "../execution/stateful/limit.js";
import { type PaneShape, paneShapeOf } from "../execution/stateful/pane-shape.js";
import { RowStoreBackend } from "../execution/stateful/row-backend.js";
import { SessionWindowAggregateExec } from "../execution/stateful/session-window.js";
import { StreamStreamJoinExec } from "../execution/stateful/stream-join.js";
import { StreamingAggregateExec } from "../execution/stateful/streaming-aggregate.js";
import { WatermarkExec } from "../execution/stateful/watermark.js";
import type { EvalContext } from "../functions/index.js";
import { type Attribute, conjunction, type Expr } from "../plan/expressions.js";
import { extractEquiKeys } from "../plan/join-keys.js";
import { type Aggregate, anyPlan, isStreamingPlan, type LogicalPlan } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { simpleString } from "../types/datatypes.js";
import { dedupKeys, isSessionAggregation, planPhysical } from "./planner.js";
import { pushedConjuncts } from "./pushed-filters.js";
import { planTransformWithState } from "./transform-with-state.js";

export interface StatefulOperatorInfo {
  readonly id: number;
  /** Spark's operator name (progress `operatorName`). */
  readonly name: string;
  /** `name: type` of the state key and value columns, for change detection. */
  readonly keySchema: string[];
  readonly valueSchema: string[];
  readonly kind: "aggregate" | "dedupe" | "dedupeWithinWatermark" | "limit" | "join" | "transformWithState";
  /** Does a watermark flow into this operator (no-data batches, eviction)? */
  readonly hasWatermark: boolean;
  /**
   * When the operator asks for a batch without new data (Spark's shouldRunAnotherBatch), if not
   * by the default rule (a watermark flows in and moved): "always" (processing-time timers),
   * "watermark" (event-time timers: the watermark moved), "never".
   */
  readonly noDataBatches?: "always" | "watermark" | "never";
  /** The value schema lists state variables: new ones may be added, a dropped one must be deleted (transformWithState). */
  readonly stateVariables?: boolean;
}

export interface StreamingPlan {
  readonly physical: PhysicalOperator;
  readonly watermarkNodes: readonly { id: number; delayMs: number; column: string }[];
  readonly statefulOperators: readonly StatefulOperatorInfo[];
}

/**
 * The scan of one source in a micro-batch. For json/csv, simple predicates are applied while
 * scanning (Spark pushes them into those readers), which is why progress `numInputRows` — the
 * rows scans produce — counts only rows that pass them.
 */
class StreamingScanExec implements PhysicalOperator {
  readonly name = "StreamingScan";
  readonly children = [];
  private readonly filter: ((b: Batch, ctx: EvalContext) => Int32Array) | null;
  constructor(
    readonly sourceId: string,
    readonly format: string,
    readonly output: readonly Attribute[],
    readonly pushed: Expr | null = null,
    /** The pushed filters as Spark's explain prints them (`IsNotNull(k)`, `Not(EqualTo(k,a))`). */
    readonly pushedText: readonly string[] = [],
  ) {
    this.filter = pushed ? compilePredicate(pushed, output) : null;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    let out = [...(ctx.state?.sourceData.get(this.sourceId) ?? [])];
    if (this.filter) {
      out = out.map((b) => {
        const sel = this.filter!(b, ctx.eval);
        return sel.length === b.numRows ? b : takeBatch(b, sel);
      });
    }
    ctx.state?.report.addScanRows(
      this.sourceId,
      out.reduce((n, b) => n + b.numRows, 0),
    );
    return out;
  }
  describe(): string {
    return `${this.format} [${this.output.map((a) => `${a.name}#${a.exprId}`).join(", ")}]${this.pushed ? `, PushedFilters: [${this.pushedText.join(", ")}]` : ""}`;
  }
}

const PUSHDOWN_FORMATS = new Set(["json", "csv"]);
const columns = (as: readonly Attribute[]) => as.map((a) => `${a.name}: ${simpleString(a.type)}`);

export interface StreamingPlanOptions {
  /** arus.state.aggregation.columnar: aggregations keep their state in the columnar store where it fits. */
  readonly columnarAggregation?: boolean;
  /** arus.state.aggregation.columnarStructs: min / max of a struct of numbers fits that columnar store. */
  readonly columnarStructBuffers?: boolean;
  /** arus.state.join.columnar: stream-stream joins keep their state in the columnar join tables. */
  readonly columnarJoin?: boolean;
  /** arus.state.aggregation.panes: sliding windows of a columnar aggregation aggregate by panes first. */
  readonly paneAggregation?: boolean;
  /**
   * arus.exec.partialAggregation's adaptive settings: rows routed to the state threads from the
   * main thread are grouped first where that pays (route-combiner.ts); absent, they go as rows.
   */
  readonly routeCombining?: SkipSettings;
  /** arus.state.threads: more than 1 puts columnar aggregation state on that many state threads. */
  readonly stateThreads?: number;
  /** arus.state.threads.moveAfter: state that goes to the state threads stays this long of each run on the main thread first. */
  readonly stateMoveAfter?: MoveAfter;
  /**
   * `spark.sql.streaming.statefulOperator.allowMultiple` when a query starts: a join side's input
   * may hold one event-time column only, counted as Spark does on the optimized plan (a column
   * nothing above reads is pruned first). Off for explain().
   */
  readonly oneEventTimeColumn?: boolean;
}

export function planStreaming(
  plan: LogicalPlan,
  outputMode: "append" | "update" | "complete",
  options: StreamingPlanOptions = {},
): StreamingPlan {
  const watermarkNodes: { id: number; delayMs: number; column: string }[] = [];
  const stateful: StatefulOperatorInfo[] = [];
  // Ids are taken before the children are planned, so they follow plan order top-down.
  let nextOperatorId = 0;
  const physical = planPhysical(plan, {
    plan(p, planChild) {
      switch (p.kind) {
        case "streamingRelation":
          return new StreamingScanExec(p.sourceId, p.format, p.output);
        case "filter": {
          if (p.child.kind !== "streamingRelation" || !PUSHDOWN_FORMATS.has(p.child.format)) return null;
          const parts = pushedConjuncts(p.condition);
          if (!parts.length) return null;
          const r = p.child;
          const pushed = conjunction(parts.map((x) => x.expr));
          return new FilterExec(
            p.condition,
            new StreamingScanExec(
              r.sourceId,
              r.format,
              r.output,
              pushed,
              parts.map((x) => x.text),
            ),
          );
        }
        case "watermark": {
          if (!isStreamingPlan(p.child)) return null;
          const id = watermarkNodes.length;
          watermarkNodes.push({ id, delayMs: p.delayMs, column: p.eventTime });
          const child = planChild(p.child);
          const attr = resolveColumn([p.eventTime], child.output) as Attribute;
          return new WatermarkExec(id, attr, p.delayMs, child);
        }
        case "aggregate": {
          if (!isStreamingPlan(p.child)) return null;
          const id = nextOperatorId++;
          const hasWatermark = anyPlan(p.child, (n) => n.kind === "watermark");
          const session = isSessionAggregation(p.groupingExprs);
          const child = planChild(p.child);
          const exec = session
            ? new SessionWindowAggregateExec(id, p.groupingExprs, p.aggregateExprs, outputOf(p), child)
            : streamingAggregate(id, p, child, options);
          stateful.push({
            id,
            kind: "aggregate",
            hasWatermark,
            name: session ? "sessionWindowStateStoreSaveExec" : "stateStoreSave",
            keySchema: columns(exec.spec.groupAttrs),
            valueSchema: exec.spec.aggCalls.flatMap((c, i) =>
              exec.spec.bufferTypes()[i]!.map((t, k) => `${exprToSql(c.call)}[${k}]: ${simpleString(t)}`),
            ),
          });
          return exec;
        }
        case "join": {
          if (!isStreamingPlan(p.left) || !isStreamingPlan(p.right)) return null;
          const id = nextOperatorId++;
          const left = planChild(p.left);
          const right = planChild(p.right);
          if (options.oneEventTimeColumn) {
            oneEventTimeColumn(left.output);
            oneEventTimeColumn(right.output);
          }
          const { leftKeys, rightKeys } = extractEquiKeys(p.condition, left.output, right.output);
          const exec = new StreamStreamJoinExec(
            id,
            leftKeys,
            rightKeys,
            p.joinType,
            p.condition,
            left,
            right,
            outputOf(p),
            options.columnarJoin ?? false,
            options.stateThreads ?? 1,
            options.stateMoveAfter,
          );
          const cleanup = StreamStreamJoinExec.cleanupOf(exec);
          stateful.push({
            id,
            kind: "join",
            hasWatermark: cleanup.left || cleanup.right,
            name: "symmetricHashJoin",
            keySchema: leftKeys.map((k) => `${exprToSql(k)}: ${simpleString(typeOf(k))}`),
            valueSchema: [...columns(left.output), ...columns(right.output)],
          });
          return exec;
        }
        case "limit": {
          if (!isStreamingPlan(p.child) || outputMode !== "append") return null;
          const id = nextOperatorId++;
          stateful.push({ id, kind: "limit", hasWatermark: false, name: "globalLimit", keySchema: [], valueSchema: ["count: bigint"] });
          return new StreamingLimitExec(id, p.n, planChild(p.child));
        }
        case "transformWithState": {
          if (!isStreamingPlan(p.child)) return null;
          const id = nextOperatorId++;
          const t = planTransformWithState(p, id, planChild);
          stateful.push({
            id,
            kind: "transformWithState",
            hasWatermark: t.timeMode === "eventTime" && anyPlan(p.child, (n) => n.kind === "watermark"),
            name: t.progressName,
            keySchema: t.keySchema,
            valueSchema: t.valueSchema,
            noDataBatches: t.timeMode === "processingTime" ? "always" : t.timeMode === "eventTime" ? "watermark" : "never",
            stateVariables: true,
          });
          return t.exec;
        }
        case "deduplicate": {
          if (!isStreamingPlan(p.child)) return null;
          const id = nextOperatorId++;
          const hasWatermark = anyPlan(p.child, (n) => n.kind === "watermark");
          const keys = dedupKeys(p.keys, outputOf(p.child));
          // (not checked for a deduplication: Spark counts its input after column pruning, which
          // arus does not do below a deduplication; docs/differences.md)
          const kind = p.withinWatermark ? "dedupeWithinWatermark" : "dedupe";
          stateful.push({
            id,
            kind,
            hasWatermark,
            name: kind,
            keySchema: columns(keys),
            valueSchema: p.withinWatermark ? ["expiresAtMicros: bigint"] : [],
          });
          return new StreamingDeduplicateExec(id, keys, p.withinWatermark, planChild(p.child));
        }
        default:
          return null;
      }
    },
  });
  return { physical, watermarkNodes, statefulOperators: stateful.sort((a, b) => a.id - b.id) };
}

/**
 * Where a (non-session) streaming aggregation keeps its state, decided here from the
 * configuration and the aggregation's types: the columnar table when
 * `arus.state.aggregation.columnar` is on (with the in-memory provider) and its keys and buffers
 * fit typed arrays (`ColumnarAggregation.of`) — on the state threads when `arus.state.threads`
 * asks for more than one — and the row stores otherwise. Sliding windows aggregate by panes
 * (`arus.state.aggregation.panes`) only over columnar state.
 */
export function aggregationBackend(
  operatorId: number,
  p: Pick<Aggregate, "groupingExprs" | "aggregateExprs">,
  child: PhysicalOperator,
  options: StreamingPlanOptions,
): { readonly spec: AggregationSpec; readonly backend: AggregationBackend; readonly panes: PaneShape | null } {
  const spec = new AggregationSpec(p.groupingExprs, p.aggregateExprs, child.output);
  const structBuffers = options.columnarStructBuffers ?? false;
  const aggregation = options.columnarAggregation ? ColumnarAggregation.of(spec, { structBuffers }) : null;
  if (!aggregation) return { spec, backend: new RowStoreBackend(operatorId, spec, eventTimeKeyIndex(spec.groupAttrs)), panes: null };
  const backend =
    (options.stateThreads ?? 1) > 1
      ? threadsBackend(operatorId, aggregation, p, child, options)
      : new ColumnarBackend(operatorId, aggregation);
  const shape = (options.paneAggregation ?? true) ? paneShapeOf(child, spec, p.groupingExprs) : null;
  // the late filter reads the event-time key: panes need it to be the window
  const key = aggregation.eventTimeKey;
  const panes = shape && (key < 0 || key === shape.windowKey) ? shape : null;
  return { spec, backend, panes };
}

/** The state threads' backend, behind a start on the main thread when the state moves there after a while (`arus.state.threads.moveAfter`). */
function threadsBackend(
  operatorId: number,
  aggregation: ColumnarAggregation,
  p: Pick<Aggregate, "groupingExprs" | "aggregateExprs">,
  child: PhysicalOperator,
  options: StreamingPlanOptions,
): StateThreadsBackend | MovingBackend {
  const threads = new StateThreadsBackend(
    aggregation,
    {
      operatorId,
      groupingExprs: p.groupingExprs,
      aggregateExprs: p.aggregateExprs,
      childOutput: child.output,
      structBuffers: options.columnarStructBuffers ?? false,
    },
    options.routeCombining ? new RouteCombiner(aggregation.spec, options.routeCombining) : null,
  );
  const after = options.stateMoveAfter;
  if (!staysOnMainFirst(after)) return threads;
  return new MovingBackend(new ColumnarBackend(operatorId, aggregation), threads, new StateMove(operatorId, after));
}

function streamingAggregate(id: number, p: Aggregate, child: PhysicalOperator, options: StreamingPlanOptions): StreamingAggregateExec {
  const { spec, backend, panes } = aggregationBackend(id, p, child, options);
  return new StreamingAggregateExec(id, p.groupingExprs, p.aggregateExprs, outputOf(p), child, spec, backend, panes);
}
