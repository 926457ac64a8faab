/**
 * Chooses, at a streaming query's start, the JSON file scans whose stateless stage runs on the
 * decode threads (`arus.exec.scanTasks`, default true; docs/parallel-execution.md): with files
 * decoded on threads (`local[N]`, N ≥ 2) that can load the task module, every streaming JSON
 * scan not read by a partial aggregation (partial-aggregation.ts) and feeding nothing else hands
 * each file to the threads, which run its pushed filter and the filters / projections (and the
 * watermark's statistics) above it (execution/partial/scan-stage.ts); the run's top operator
 * then reads their rows. Everything else reads rows as before; `false` is exactly the old path.
 */
import type { RuntimeConfig } from "../common/conf.js";
import { scanThreads } from "../connectors/files/decode-pool.js";
import type { StreamSource } from "../connectors/source.js";
import { forEachOperator, type PhysicalOperator } from "../execution/operator.js";
import type { JoinRouting } from "../execution/parallel/join-routing.js";
import { readThroughFileTask, stageAFileTask, stageAThreadsAvailable } from "../execution/partial/partial-read.js";
import { scanStagesOf } from "../execution/partial/scan-stage.js";
import { standIn } from "../execution/partial/scan-stage-exec.js";
import type { StageASpec } from "../execution/partial/stage-a.js";
import { StreamStreamJoinExec } from "../execution/stateful/stream-join.js";
import { rebuildableOnThread } from "../execution/thread-portable.js";

export const SCAN_TASKS_CONF = "arus.exec.scanTasks";

/** The scans whose stateless stage the decode threads can run (none when off or without threads). */
function scanStages(physical: PhysicalOperator, conf: RuntimeConfig, taken: ReadonlySet<string>) {
  if (!conf.getBool(SCAN_TASKS_CONF) || scanThreads() < 2 || !stageAThreadsAvailable()) return [];
  return scanStagesOf(physical, { timeZone: conf.timeZone, ansi: conf.getBool("spark.sql.ansi.enabled") }, taken);
}

/** Would some streaming JSON scan of this plan run its stateless stage on the decode threads? */
export function scanTasksApply(physical: PhysicalOperator, conf: RuntimeConfig): boolean {
  return scanStages(physical, conf, new Set()).length > 0;
}

/** Wires the scans' stateless stages; returns the ids of the sources now read through a file task. */
export function useScanTasks(
  physical: PhysicalOperator,
  sources: readonly StreamSource[],
  sourceIds: readonly string[],
  conf: RuntimeConfig,
  taken: ReadonlySet<string>,
  keepLateRows: boolean,
  state: { readonly numPartitions: number; readonly threads: number; readonly inFiles: boolean },
): Set<string> {
  const chosen = new Set<string>();
  const threads = scanThreads();
  for (const found of scanStages(physical, conf, taken)) {
    // (a join's rows dropped as late on a state thread would not reach the late-rows handler)
    const routed = keepLateRows ? null : joinRoutingOf(physical, found.top, state);
    // the split by owner starts when the join's state is on the threads (StateMove.fromThreads)
    const spec: { -readonly [K in keyof StageASpec]: StageASpec[K] } = { ...found.spec };
    routed?.join.stateMove?.fromThreads(state.inFiles, () => {
      spec.joinRouting = routed.routing;
    });
    const plan = { ...found, spec };
    if (!readThroughFileTask(sources, sourceIds, plan.spec.sourceId, () => stageAFileTask(plan.spec, threads, null))) continue;
    standIn(plan);
    chosen.add(plan.spec.sourceId);
  }
  return chosen;
}

/**
 * How the decode threads split the rows of stage top `top` when it is a side of a stream-stream
 * join whose state is on the state threads: by the thread owning each row's join key, so the
 * main thread only forwards them (parallel/join-routing.ts); with the join, which says when its
 * state is there. Null otherwise, or when a key expression could not be rebuilt on a thread.
 */
function joinRoutingOf(
  physical: PhysicalOperator,
  top: PhysicalOperator,
  state: { readonly numPartitions: number; readonly threads: number },
): { routing: JoinRouting; join: StreamStreamJoinExec } | null {
  let found: { routing: JoinRouting; join: StreamStreamJoinExec } | null = null;
  forEachOperator(physical, (op) => {
    if (!(op instanceof StreamStreamJoinExec) || !op.usesStateThreads || op.left === op.right) return;
    const keys = op.left === top ? op.leftKeys : op.right === top ? op.rightKeys : null;
    if (keys === null || !keys.every(rebuildableOnThread)) return;
    found = { routing: { keys, numPartitions: state.numPartitions, owners: state.threads }, join: op };
  });
  return found;
}
