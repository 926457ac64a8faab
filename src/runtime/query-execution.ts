/**
 * Query execution in one place (Spark's QueryExecution and IncrementalExecution): the path from
 * a logical plan to something that runs. `api/` builds plans and collects options; everything
 * that analyzes, checks, optimizes, plans and starts a query is reached through this module.
 *
 *   analyzePlan / resolveExpression   analysis, eager as in Spark (a DataFrame is analyzed when made)
 *   BatchQuery                        analyzed -> optimized -> physical; execute() and explain()
 *   checkStreamingQuery               the streaming checks (output modes, stateful operators)
 *   startStreamingQuery               optimize, create the sources, lock the checkpoint, plan the
 *                                     stream, check operator metadata, recover: a MicroBatchExecution
 *                                     ready to run
 */
import { type AnalysisSettings, analyze, type Catalog, resolveExpr } from "../analyzer/analyzer.js";
import { checkMetricNames } from "../analyzer/observed-metrics.js";
import { checkStreamingPlan } from "../analyzer/streaming-checks.js";
import { outputOf } from "../analyzer/types.js";
import type { Batch } from "../columnar/batch.js";
import type { RuntimeConfig } from "../common/conf.js";
import type { AnalysisException } from "../common/errors.js";
import { lookupSource } from "../connectors/registry.js";
import type { StreamSink } from "../connectors/sink.js";
import type { StreamSource } from "../connectors/source.js";
import { explainPhysical, type PhysicalOperator } from "../execution/operator.js";
import { StreamStreamJoinExec } from "../execution/stateful/stream-join.js";
import { optimize } from "../optimizer/optimizer.js";
import { explainLogical } from "../plan/explain.js";
import type { Attribute, Expr } from "../plan/expressions.js";
import { anyPlan, type LogicalPlan, type StreamingRelation } from "../plan/logical.js";
import { planPhysical } from "../planner/planner.js";
import { planStreaming, type StreamingPlanOptions } from "../planner/streaming.js";
import { field, StructOf } from "../types/datatypes.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { Clock } from "./clock.js";
import type { ClusterOptions } from "./cluster/options.js";
import { startGroupQuery } from "./cluster/start.js";
import { MicroBatchExecution, type QueryEvents } from "./micro-batch-execution.js";
import { checkOperatorMetadata } from "./operator-metadata.js";
import { partialAggregationApplies, routeCombining, showPartialAggregation, usePartialAggregation } from "./partial-aggregation.js";
import { scanTasksApply, useScanTasks } from "./scan-tasks.js";
import {
  columnarAggregationEnabled,
  columnarJoinEnabled,
  columnarStructBuffersEnabled,
  PANE_AGGREGATION_CONF,
  StateStoreRegistry,
  stateMoveAfter,
  stateThreadCount,
} from "./state-registry.js";
import type { StreamExecution } from "./stream-execution.js";
import type { Trigger } from "./trigger.js";

export type { Catalog } from "../analyzer/analyzer.js";
export type { LateRows } from "../execution/stateful/context.js";
export { CheckpointStore } from "./checkpoint-store.js";
export { type Clock, SystemClock } from "./clock.js";
export { clusterOptions } from "./cluster/options.js";
export { MicroBatchExecution, type QueryStatus, wrapFailure } from "./micro-batch-execution.js";
export type { StreamExecution } from "./stream-execution.js";
export { formatWatermarkReport, type WatermarkReport } from "./watermark-report.js";

/** Resolves names and types (the analyzer); the result's `outputOf` is the DataFrame's schema. */
export function analyzePlan(plan: LogicalPlan, catalog: Catalog, settings?: AnalysisSettings): LogicalPlan {
  const analyzed = analyze(plan, catalog, settings);
  checkMetricNames(analyzed);
  return analyzed;
}

/** Resolves an expression against the output of an analyzed plan. */
export function resolveExpression(e: Expr, input: readonly Attribute[]): Expr {
  return resolveExpr(e, input);
}

/** The output attributes of an analyzed plan. */
export function planOutput(plan: LogicalPlan): readonly Attribute[] {
  return outputOf(plan);
}

export interface BatchSettings {
  /** Optimizer rules to skip (`spark.sql.optimizer.excludedRules`, short names). */
  readonly excludedRules: ReadonlySet<string>;
  readonly timeZone: string;
  readonly ansi: boolean;
}

/** A batch query: analyzed, optimized and (on first use) planned. */
export class BatchQuery {
  readonly optimized: LogicalPlan;
  private planned: PhysicalOperator | null = null;

  constructor(
    readonly analyzed: LogicalPlan,
    private readonly settings: BatchSettings,
  ) {
    this.optimized = optimize(analyzed, new Set(settings.excludedRules));
  }

  get physical(): PhysicalOperator {
    this.planned ??= planPhysical(this.optimized);
    return this.planned;
  }

  execute(): Promise<Batch[]> {
    const { timeZone, ansi } = this.settings;
    return this.physical.execute({ eval: { timeZone, batchTimestampMs: Date.now(), watermarkMs: 0, ansi } });
  }

  /** explain(): the physical plan (`physical`: a streaming plan's, explainStreaming); `extended` adds the analyzed and optimized logical plans. */
  explain(extended: boolean, physical = `== Physical Plan ==\n${explainPhysical(this.physical)}\n`): string {
    if (!extended) return physical;
    return `== Analyzed Logical Plan ==\n${outputOf(this.analyzed)
      .map((a) => `${a.name}: ${a.type.kind}`)
      .join(", ")}\n${explainLogical(this.analyzed)}\n\n== Optimized Logical Plan ==\n${explainLogical(this.optimized)}\n\n${physical}`;
  }
}

/**
 * explain() of a streaming DataFrame (Spark plans it as an incremental execution in append
 * mode): the physical plan a query started now without a checkpoint would run, with the partial
 * aggregation on the decode threads shown where it would apply. Nothing is opened or read.
 */
export function explainStreaming(plan: LogicalPlan, conf: RuntimeConfig, excludedRules: ReadonlySet<string>): string {
  const optimized = optimize(plan, new Set(excludedRules));
  const fresh = { stickyConf: {} };
  const { streamingPlan, threads } = planWithStateThreads(optimized, "append", conf, false, {
    columnarAggregation: columnarAggregationEnabled(fresh, conf),
    columnarStructBuffers: columnarStructBuffersEnabled(fresh, conf),
    ...routeCombining(conf),
    columnarJoin: columnarJoinEnabled(fresh, conf),
    paneAggregation: conf.getBool(PANE_AGGREGATION_CONF),
  });
  showPartialAggregation(streamingPlan.physical, conf, threads);
  return `== Physical Plan ==\n${explainPhysical(streamingPlan.physical)}\n`;
}

/**
 * The streaming plan with its aggregations' state on the main thread or on the state threads
 * (`arus.state.threads`). Under "auto" the query is planned on the main thread first, and again
 * on local[N]'s threads if an aggregation's stage A would run on the decode threads, or a
 * columnar stream-stream join reads JSON files whose scans run there: queries whose batches are
 * files, large enough for the threads to pay. Their state still starts on the main thread and
 * moves once it has worked there for a while (`arus.state.threads.moveAfter`, state-move.ts).
 */
function planWithStateThreads(
  plan: LogicalPlan,
  outputMode: "append" | "update" | "complete",
  conf: RuntimeConfig,
  keepLateRows: boolean,
  options: Omit<StreamingPlanOptions, "stateThreads" | "stateMoveAfter">,
): { streamingPlan: ReturnType<typeof planStreaming>; threads: number } {
  let onMain: ReturnType<typeof planStreaming> | undefined;
  const threads = stateThreadCount(conf, () => {
    onMain = planStreaming(plan, outputMode, { ...options, stateThreads: 1 });
    const physical = onMain.physical;
    if (partialAggregationApplies(physical, conf, keepLateRows)) return true;
    // a columnar stream-stream join over JSON files read on the decode threads
    const join = someOperator(physical, (op) => op instanceof StreamStreamJoinExec && op.columnar);
    return join && scanTasksApply(physical, conf);
  });
  if (threads === 1 && onMain) return { streamingPlan: onMain, threads };
  const moveAfter = threads > 1 ? stateMoveAfter(conf) : undefined;
  return { streamingPlan: planStreaming(plan, outputMode, { ...options, stateThreads: threads, stateMoveAfter: moveAfter }), threads };
}

/**
 * The streaming checks (Spark's UnsupportedOperationChecker), before anything is opened; returns
 * the refusal Spark only makes when it plans the first batch (StreamingQuerySpec.planningError).
 */
export function checkStreamingQuery(
  plan: LogicalPlan,
  outputMode: "append" | "update" | "complete",
  conf: RuntimeConfig,
): AnalysisException | null {
  return checkStreamingPlan(plan, outputMode, {
    allowMultipleStatefulOperators: conf.getBool("spark.sql.streaming.statefulOperator.allowMultiple"),
    checkCorrectness: conf.getBool("spark.sql.streaming.statefulOperator.checkCorrectness.enabled"),
  });
}

function streamingRelations(plan: LogicalPlan): StreamingRelation[] {
  const out: StreamingRelation[] = [];
  const seen = new Set<string>();
  anyPlan(plan, (p) => {
    if (p.kind === "streamingRelation" && !seen.has(p.sourceId)) {
      seen.add(p.sourceId);
      out.push(p);
    }
    return false;
  });
  return out;
}

function someOperator(op: PhysicalOperator, test: (op: PhysicalOperator) => boolean): boolean {
  return test(op) || op.children.some((c) => someOperator(c, test));
}

export interface StreamingQuerySpec {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  /** The analyzed plan (checked by `checkStreamingQuery`). */
  readonly plan: LogicalPlan;
  /** What `checkStreamingQuery` left for the first batch to fail with, as Spark's planning does. */
  readonly planningError?: Error | null;
  readonly outputMode: "append" | "update" | "complete";
  readonly trigger: Trigger;
  readonly conf: RuntimeConfig;
  readonly excludedRules: ReadonlySet<string>;
  readonly timeZone: string;
  readonly clock: Clock;
  readonly checkpoint: CheckpointStore;
  readonly sink: StreamSink;
  /** Late rows go to a handler: the stateful operators keep their input rows for it. */
  readonly keepLateRows: boolean;
  readonly events: QueryEvents;
  /** Group mode (`arus.cluster.group`): this process is one worker of the group (runtime/cluster/). */
  readonly cluster?: {
    readonly options: ClusterOptions;
    readonly sinkFormat: string;
    readonly sinkOptions: Readonly<Record<string, string>>;
  };
  /** Called once the sources exist, before the checkpoint is locked (the query stops them at its end). */
  onSources?(sources: readonly StreamSource[]): void;
  /** Called after recovery, still under the start's error handling (register and announce the query). */
  onStarted?(execution: StreamExecution): void;
}

export interface StartedStream {
  readonly execution: StreamExecution;
  readonly sources: readonly StreamSource[];
  /** explain() of the running query. */
  readonly physicalText: string;
}

/**
 * Optimizes and plans a streaming query over its checkpoint and recovers its position: on
 * return the checkpoint is locked (release it when the query ends) and `execution.run()`
 * starts the loop. On failure the lock is released again.
 */
export async function startStreamingQuery(spec: StreamingQuerySpec): Promise<StartedStream> {
  const { checkpoint, conf } = spec;
  const plan = optimize(spec.plan, new Set(spec.excludedRules), { keepStatefulInputs: spec.keepLateRows });
  if (spec.cluster) return startGroupWorker(spec, plan, spec.cluster);
  const relations = streamingRelations(plan);
  const sources = relations.map((r, i) =>
    lookupSource(r.format).create(r.options, StructOf(r.output.map((a) => field(a.name, a.type, a.nullable))), {
      metadataDir: checkpoint.sourceDir(i),
      timeZone: spec.timeZone,
      now: () => spec.clock.now(),
      ...(r.convert ? { convert: r.convert } : {}),
    }),
  );
  spec.onSources?.(sources);
  await checkpoint.acquireLock();
  try {
    const { streamingPlan, threads: threadCount } = planWithStateThreads(plan, spec.outputMode, conf, spec.keepLateRows, {
      columnarAggregation: columnarAggregationEnabled(checkpoint, conf),
      columnarStructBuffers: columnarStructBuffersEnabled(checkpoint, conf),
      ...routeCombining(conf),
      columnarJoin: columnarJoinEnabled(checkpoint, conf),
      paneAggregation: conf.getBool(PANE_AGGREGATION_CONF),
      oneEventTimeColumn: conf.getBool("spark.sql.streaming.statefulOperator.allowMultiple"),
    });
    if (checkpoint.dir) {
      await checkOperatorMetadata(
        checkpoint.dir,
        streamingPlan.statefulOperators.map((o) => ({
          operatorId: o.id,
          operatorName: o.name,
          numPartitions: checkpoint.numShufflePartitions,
          keySchema: o.keySchema,
          valueSchema: o.valueSchema,
          ...(o.stateVariables ? { stateVariables: true } : {}),
        })),
        (await checkpoint.offsets.latest()) !== undefined,
      );
    }
    const states = new StateStoreRegistry(checkpoint, conf, threadCount);
    // State threads boot (load the engine) while the sources start, not inside the first batch;
    // state that starts on the main thread boots them when it moves (a short query never does).
    const startsOnThreads = (op: PhysicalOperator) =>
      op.usesStateThreads === true && (op.stateMove?.startsOnThreads(states.stateInFiles) ?? true);
    if (someOperator(streamingPlan.physical, startsOnThreads)) states.threads();
    const output = outputOf(spec.plan);
    const sourceIds = relations.map((r) => r.sourceId);
    const stateLayout = { numPartitions: checkpoint.numShufflePartitions, threads: threadCount, inFiles: states.stateInFiles };
    const partial = usePartialAggregation(streamingPlan.physical, sources, sourceIds, conf, spec.keepLateRows, stateLayout);
    // the other JSON scans run their stateless stage on the decode threads
    const scanTasks = useScanTasks(streamingPlan.physical, sources, sourceIds, conf, partial, spec.keepLateRows, stateLayout);
    const preparedSources = new Set([...partial, ...scanTasks]);
    // after the partial aggregation is wired: explain() shows it
    const physicalText = explainPhysical(streamingPlan.physical);
    const execution = new MicroBatchExecution({
      id: spec.id,
      runId: spec.runId,
      name: spec.name,
      plan: streamingPlan,
      sourceIds,
      sources,
      preparedSources,
      sink: spec.sink,
      outputNames: output.map((a) => a.name),
      outputSchema: StructOf(output.map((a) => field(a.name, a.type, a.nullable))),
      outputMode: spec.outputMode,
      trigger: spec.trigger,
      conf,
      clock: spec.clock,
      checkpoint,
      states,
      events: spec.events,
      planningError: spec.planningError ?? null,
    });
    execution.status = { message: "Initializing sources", isDataAvailable: false, isTriggerActive: false };
    await execution.recover();
    spec.onStarted?.(execution);
    return { execution, sources, physicalText };
  } catch (e) {
    await checkpoint.releaseLock();
    throw e;
  }
}

/** Group mode: no sources or checkpoint logs of its own (Kafka holds offsets and state); the checkpoint directory, if any, is only locked. */
async function startGroupWorker(
  spec: StreamingQuerySpec,
  plan: LogicalPlan,
  cluster: NonNullable<StreamingQuerySpec["cluster"]>,
): Promise<StartedStream> {
  // a worker of a group refuses at start what a single query fails its first batch with
  if (spec.planningError) throw spec.planningError;
  const output = outputOf(spec.plan);
  const { execution, physicalText } = startGroupQuery({
    id: spec.id,
    runId: spec.runId,
    name: spec.name,
    plan,
    outputMode: spec.outputMode,
    trigger: spec.trigger,
    conf: spec.conf,
    clock: spec.clock,
    cluster: cluster.options,
    sinkFormat: cluster.sinkFormat,
    sinkOptions: cluster.sinkOptions,
    sink: spec.sink,
    outputNames: output.map((a) => a.name),
    outputSchema: StructOf(output.map((a) => field(a.name, a.type, a.nullable))),
    events: spec.events,
    checkpointDir: spec.checkpoint.dir,
  });
  spec.onSources?.([]);
  await spec.checkpoint.acquireLock();
  try {
    spec.onStarted?.(execution);
  } catch (e) {
    await spec.checkpoint.releaseLock();
    throw e;
  }
  return { execution, sources: [], physicalText };
}
