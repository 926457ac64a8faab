/**
 * Chooses, at a streaming query's start, the aggregations whose stage A runs on the decode
 * threads (`arus.exec.partialAggregation`, docs/parallel-execution.md): a streaming aggregation
 * over a JSON file source whose stage A qualifies (execution/partial/stage-a.ts), when files are
 * decoded on threads (`local[N]`, N ≥ 2) that can load stage A (not a bundle without its
 * module), no late-rows sink wants the late rows themselves, and
 * the source scan feeds nothing else. Its source then hands each file to the decode threads and
 * the aggregation merges their partial groups. Everything else reads rows as before.
 */
import type { RuntimeConfig } from "../common/conf.js";
import { IllegalArgumentException } from "../common/errors.js";
import { scanThreads } from "../connectors/files/decode-pool.js";
import type { StreamSource } from "../connectors/source.js";
import { forEachOperator, type PhysicalOperator } from "../execution/operator.js";
import { MovingBackend } from "../execution/parallel/moving-backend.js";
import { StateThreadsBackend } from "../execution/parallel/threads-backend.js";
import type { SkipSettings } from "../execution/partial/adaptive-skip.js";
import { readThroughFileTask, stageAFileTask, stageAThreadsAvailable } from "../execution/partial/partial-read.js";
import { type StageAPlan, type StageASpec, scansPerSource, stageAOf } from "../execution/partial/stage-a.js";
import { StreamingAggregateExec } from "../execution/stateful/streaming-aggregate.js";

export const PARTIAL_AGGREGATION_CONF = "arus.exec.partialAggregation";

/** The adaptive skipping's settings (execution/partial/adaptive-skip.ts). */
function skipSettings(conf: RuntimeConfig): SkipSettings {
  const probeRows = Number(conf.get(`${PARTIAL_AGGREGATION_CONF}.probeRows`));
  const maxGroupRatio = Number(conf.get(`${PARTIAL_AGGREGATION_CONF}.maxGroupRatio`));
  if (!Number.isFinite(probeRows) || probeRows < 0)
    throw new IllegalArgumentException(
      `${PARTIAL_AGGREGATION_CONF}.probeRows must be a number of rows, got '${conf.get(`${PARTIAL_AGGREGATION_CONF}.probeRows`)}'.`,
    );
  if (!Number.isFinite(maxGroupRatio) || maxGroupRatio < 0)
    throw new IllegalArgumentException(
      `${PARTIAL_AGGREGATION_CONF}.maxGroupRatio must be a ratio of 0 or more, got '${conf.get(`${PARTIAL_AGGREGATION_CONF}.maxGroupRatio`)}'.`,
    );
  return { probeRows, maxGroupRatio };
}

/**
 * The planner's `routeCombining` (execution/parallel/route-combiner.ts): rows the main thread
 * routes to the state threads are grouped first, under `arus.exec.partialAggregation` and its
 * adaptive settings.
 */
export function routeCombining(conf: RuntimeConfig): { routeCombining?: SkipSettings } {
  return conf.getBool(PARTIAL_AGGREGATION_CONF) ? { routeCombining: skipSettings(conf) } : {};
}

/**
 * The aggregations whose stage A qualifies, each with its stage: routed to the state threads'
 * owners when they hold the state; when the state moves there after a while (moving-backend.ts),
 * the stage's spec is routed from the move on (each file's task posts the spec as it is then; a
 * file read ahead before comes unsplit, and the threads' backend splits its groups).
 */
function qualifying(
  physical: PhysicalOperator,
  conf: RuntimeConfig,
  keepLateRows: boolean,
  state: { readonly numPartitions: number; readonly threads: number; readonly inFiles?: boolean },
): { op: StreamingAggregateExec; stage: StageAPlan; toThreads: boolean }[] {
  if (!conf.getBool(PARTIAL_AGGREGATION_CONF) || scanThreads() < 2 || keepLateRows || !stageAThreadsAvailable()) return [];
  const scans = scansPerSource(physical);
  const out: { op: StreamingAggregateExec; stage: StageAPlan; toThreads: boolean }[] = [];
  const taken = new Set<string>();
  forEachOperator(physical, (op) => {
    if (!(op instanceof StreamingAggregateExec)) return;
    const found = stageAOf(op, { timeZone: conf.timeZone, ansi: conf.getBool("spark.sql.ansi.enabled") });
    if (!found || scans.get(found.spec.sourceId) !== 1 || taken.has(found.spec.sourceId)) return;
    taken.add(found.spec.sourceId);
    // with the state threads, stage A splits its groups by owner (the main thread then only forwards them)
    const b = op.backend;
    const threads = b instanceof StateThreadsBackend ? b : b instanceof MovingBackend ? b.threads : null;
    const spec: { -readonly [K in keyof StageASpec]: StageASpec[K] } = { ...found.spec };
    if (threads) {
      const routing = { schema: threads.aggregation.plan.schema, numPartitions: state.numPartitions, owners: state.threads };
      const route = () => {
        spec.routing = routing;
      };
      // state that moves there later: the split by owner starts at the move (StateMove.fromThreads)
      if (b.move) b.move.fromThreads(state.inFiles ?? true, route);
      else route();
    }
    out.push({ op, stage: { ...found, spec }, toThreads: threads !== null });
  });
  return out;
}

/**
 * Would some aggregation of this plan run its stage A on the decode threads? (`arus.state.threads`
 * = auto gives such a query the state threads: its batches are files, large enough to pay.)
 */
export function partialAggregationApplies(physical: PhysicalOperator, conf: RuntimeConfig, keepLateRows: boolean): boolean {
  return qualifying(physical, conf, keepLateRows, { numPartitions: 1, threads: 1 }).length > 0;
}

/** Wires stage A where it applies; returns the ids of the sources now read through a file task. */
export function usePartialAggregation(
  physical: PhysicalOperator,
  sources: readonly StreamSource[],
  sourceIds: readonly string[],
  conf: RuntimeConfig,
  keepLateRows: boolean,
  state: { readonly numPartitions: number; readonly threads: number; readonly inFiles: boolean },
): Set<string> {
  const chosen = new Set<string>();
  const found = qualifying(physical, conf, keepLateRows, state);
  if (found.length === 0) return chosen;
  const skip = skipSettings(conf);
  const threads = scanThreads();
  for (const { op, stage, toThreads } of found) {
    // Routed to the state threads, partial groups are never merged on the main thread, which
    // only forwards them: skipping would hand it the rows to aggregate and route itself
    // (Nexmark q5 at full size: main-thread CPU 0.5 s with groups routed, 1.5 s with rows).
    // State that starts on the main thread and moves keeps the threads' settings throughout.
    const settings = toThreads ? { ...skip, maxGroupRatio: Number.POSITIVE_INFINITY } : skip;
    if (!readThroughFileTask(sources, sourceIds, stage.spec.sourceId, () => stageAFileTask(stage.spec, threads, settings))) continue;
    op.usePartialInput(stage);
    chosen.add(stage.spec.sourceId);
  }
  return chosen;
}

/**
 * For a streaming DataFrame's explain() (no sources opened): marks the aggregations whose stage
 * A would run on the decode threads, so that explain() shows their partial aggregation. A JSON
 * scan is a file source, whose file task is always taken.
 */
export function showPartialAggregation(physical: PhysicalOperator, conf: RuntimeConfig, threads: number): void {
  const found = qualifying(physical, conf, false, { numPartitions: conf.getInt("spark.sql.shuffle.partitions"), threads });
  if (found.length > 0) skipSettings(conf); // refused as at the start
  for (const { op, stage } of found) op.showPartialInput(stage);
}
