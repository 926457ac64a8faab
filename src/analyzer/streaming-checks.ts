/**
 * Spark's UnsupportedOperationChecker for streaming queries: which plan shapes each output
 * mode accepts. Its rejections happen at start() with a message that says what to change; the
 * two Spark only makes when it plans a batch (a join without an equality, a global session
 * window) are returned for the first batch to fail with.
 */
import { AnalysisException } from "../common/errors.js";
import { type Attribute, anyExpr, type Expr, type WindowExpr } from "../plan/expressions.js";
import { stateValueOffsetMs, watermarkKeyIndex } from "../plan/join-cleanup.js";
import { extractEquiKeys } from "../plan/join-keys.js";
import { anyPlan, isStreamingPlan, type LogicalPlan, planChildren } from "../plan/logical.js";
import { exprToSql, windowSpecSql } from "../plan/sql-text.js";
import { isAggregateCall } from "./aggregate-rules.js";
import { comparesSides } from "./join-equality.js";
import { outputOf, toAttribute } from "./types.js";

type Mode = "append" | "update" | "complete";

function fail(msg: string): never {
  throw new AnalysisException("_LEGACY_ERROR_TEMP_3102", msg);
}

const WATERMARK_DELAY = "spark.watermarkDelayMs";

/** The grouping columns an aggregation's state is keyed by (an aliased one, `window(ts) AS w`, keeps its metadata). */
const groupingColumns = (p: LogicalPlan & { kind: "aggregate" }): Attribute[] =>
  p.groupingExprs.flatMap((g) => (g.kind === "attribute" ? [g] : g.kind === "alias" ? [toAttribute(g)] : []));

const hasWatermarkMeta = (p: LogicalPlan & { kind: "aggregate" }): boolean =>
  groupingColumns(p).some((g) => g.metadata[WATERMARK_DELAY] !== undefined);

const isSessionAgg = (p: LogicalPlan & { kind: "aggregate" }): boolean =>
  groupingColumns(p).some((g) => g.metadata["spark.sessionWindow"] === true);

/** The confs the checks follow. */
export interface StreamingCheckOptions {
  /** spark.sql.streaming.statefulOperator.allowMultiple */
  readonly allowMultipleStatefulOperators?: boolean;
  /** spark.sql.streaming.statefulOperator.checkCorrectness.enabled */
  readonly checkCorrectness?: boolean;
}

/**
 * Refuses at start() what Spark's UnsupportedOperationChecker refuses there. Returns what Spark
 * only finds when it plans the first batch (its physical planning strategies), for the query to
 * fail with then, after start() returned: null when there is nothing.
 */
export function checkStreamingPlan(plan: LogicalPlan, mode: Mode, options: StreamingCheckOptions = {}): AnalysisException | null {
  const { allowMultipleStatefulOperators = true, checkCorrectness = true } = options;
  let atPlanning: AnalysisException | null = null;
  const refuseAtPlanning = (e: AnalysisException) => {
    atPlanning ??= e;
  };
  const aggs: (LogicalPlan & { kind: "aggregate" })[] = [];
  const visit = (p: LogicalPlan): void => {
    planChildren(p).forEach(visit);
    if (!isStreamingPlan(p)) return;
    switch (p.kind) {
      case "aggregate": {
        aggs.push(p);
        // the state's rows are the groups: their keys are the columns that could carry event time
        if (allowMultipleStatefulOperators) oneEventTimeColumn(groupingColumns(p));
        if (p.aggregateExprs.some((e) => anyExpr(e, (x) => x.kind === "call" && x.distinct && isAggregateCall(x)))) {
          fail("Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using approx_count_distinct() instead.");
        }
        // Spark's AggUtils.planStreamingAggregationForSession, when it plans the first batch
        if (isSessionAgg(p) && p.groupingExprs.length < 2)
          refuseAtPlanning(
            new AnalysisException(
              "UNSUPPORTED_FEATURE",
              "Global aggregation with session window in streaming query is not supported. (Grouping key must be specified when using sessionWindow: add a column besides session_window(...) to groupBy().)",
            ),
          );
        break;
      }
      case "sort":
        if (!(mode === "complete" && anyPlan(p.child, (c) => c.kind === "aggregate"))) {
          fail(
            "Sorting is not supported on streaming DataFrames/Datasets, unless it is on aggregated DataFrame/Dataset in Complete output mode.",
          );
        }
        break;
      case "limit":
        if (p.offset > 0) fail("Offset is not supported on streaming DataFrames/Datasets.");
        if (mode === "update") fail("Limits are not supported on streaming DataFrames/Datasets in Update output mode.");
        break;
      case "union":
        if (p.children.some((c) => !isStreamingPlan(c))) fail("Union between streaming and batch DataFrames/Datasets is not supported.");
        break;
      case "deduplicate":
        // Spark looks for an event-time column among the input's columns, not for a watermark
        // below: `withColumn("ts", ts + INTERVAL 1 SECOND)` after withWatermark("ts") has none
        if (p.withinWatermark && !outputOf(p.child).some((a) => a.metadata[WATERMARK_DELAY] !== undefined)) {
          fail(
            "dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without watermark; call withWatermark(...) first.",
          );
        }
        break;
      case "join":
        checkJoin(p, mode, refuseAtPlanning);
        break;
      case "window": {
        const first = p.windowExprs[0]!;
        const w = (first.kind === "alias" ? first.child : first) as WindowExpr;
        throw new AnalysisException(
          "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING",
          `[NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING] Window function is not supported in ${exprToSql(w.fn).toUpperCase()} (as column \`${first.name}\`) on streaming DataFrames/Datasets.\n` +
            `Structured Streaming only supports time-window aggregation using the WINDOW function. (window specification: ${windowSpecSql(w).toUpperCase()})`,
        );
      }
      case "transformWithState":
        groupsWithState.push(p);
        break;
    }
  };
  const groupsWithState: (LogicalPlan & { kind: "transformWithState" })[] = [];
  checkOutputMode(plan, mode);
  visit(plan);
  for (const p of groupsWithState) checkGroupsWithState(p, mode, aggs.length > 0);
  if (checkCorrectness && ((aggs.length > 1 && mode !== "append") || statefulAboveLateRows(plan, mode))) {
    fail(
      "Detected pattern of possible 'correctness' issue due to global watermark. The query contains stateful operation which can emit rows older than the current watermark plus allowed late record delay, which are \"late rows\" in downstream stateful operations and these rows can be discarded. Please refer the programming guide doc for more details. If you understand the possible risk of correctness issue and still need to run the query, you can disable this check by setting the config `spark.sql.streaming.statefulOperator.checkCorrectness.enabled` to false.",
    );
  }
  return atPlanning;
}

/**
 * The output mode against the query's streaming aggregations, before any other check (Spark's
 * order: an append aggregation without a watermark is reported before, say, its DISTINCT).
 * As Spark, only the topmost aggregation is looked at.
 */
function checkOutputMode(plan: LogicalPlan, mode: Mode): void {
  const top = topmostStreamingAggregate(plan);
  // The class and text of the spec (Spark 4.0's _LEGACY_ERROR_TEMP_3102), a hint, then Spark
  // 4.3's wording of the same refusal, so code written against either finds its text.
  const unsupported = (legacy: string, hint: string, operation: string): never =>
    fail(
      `${legacy}; ${hint} (Spark 4.3: [STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: ${mode}. ` +
        `This output mode is not supported for ${operation} on streaming DataFrames/DataSets.)`,
    );
  if (mode === "append" && top && !hasWatermarkMeta(top)) {
    unsupported(
      "Append output mode not supported when there are streaming aggregations on streaming DataFrames/DataSets without watermark",
      "add withWatermark(...) on the event-time column and group by it (or by a window over it), or use outputMode('update') / ('complete').",
      "streaming aggregations without watermark",
    );
  }
  if (mode === "update" && top && isSessionAgg(top)) {
    unsupported(
      "Update output mode not supported for session window on streaming DataFrames/DataSets",
      "use append or complete.",
      "session window streaming aggregations",
    );
  }
  if (mode === "complete" && !top) {
    unsupported(
      "Complete output mode not supported when there are no streaming aggregations on streaming DataFrames/Datasets",
      "use append or update.",
      "no streaming aggregations",
    );
  }
}

function topmostStreamingAggregate(p: LogicalPlan): (LogicalPlan & { kind: "aggregate" }) | null {
  if (p.kind === "aggregate" && isStreamingPlan(p)) return p;
  for (const c of planChildren(p)) {
    const found = topmostStreamingAggregate(c);
    if (found) return found;
  }
  return null;
}

/**
 * Spark's checkStreamingQueryGlobalWatermarkLimit: a stateful operator above one that can emit
 * rows older than the watermark (an aggregation outside Append mode, [flat]MapGroupsWithState
 * with EventTimeTimeout), whose rows it would then drop as late.
 */
function statefulAboveLateRows(plan: LogicalPlan, mode: Mode): boolean {
  const emitsLateRows = (p: LogicalPlan): boolean =>
    isStreamingPlan(p) &&
    ((p.kind === "aggregate" && mode !== "append") ||
      (p.kind === "transformWithState" && p.fn.kind !== "transformWithState" && p.fn.timeout === "EventTimeTimeout"));
  const isStateful = (p: LogicalPlan): boolean => {
    if (!isStreamingPlan(p)) return false;
    switch (p.kind) {
      case "aggregate":
      case "transformWithState":
        return true;
      case "join":
        return isStreamingPlan(p.left) && isStreamingPlan(p.right);
      case "deduplicate":
        return p.withinWatermark || dedupHasEventTimeKey(p);
      default:
        return false;
    }
  };
  return anyPlan(plan, (p) => isStateful(p) && planChildren(p).some((c) => anyPlan(c, emitsLateRows)));
}

/** Does a deduplication key on a watermarked column (all columns when it names none)? */
function dedupHasEventTimeKey(p: LogicalPlan & { kind: "deduplicate" }): boolean {
  const cols = outputOf(p.child);
  const keys = p.keys === null ? cols : cols.filter((a) => p.keys!.some((k) => k.toLowerCase() === a.name.toLowerCase()));
  return keys.some((a) => a.metadata[WATERMARK_DELAY] !== undefined);
}

/** Spark's rules for transformWithState and [flatMap|map]GroupsWithState on a stream. */
function checkGroupsWithState(p: LogicalPlan & { kind: "transformWithState" }, mode: Mode, aggsInQuery: boolean): void {
  const watermarked = outputOf(p.child).some((a) => a.metadata["spark.watermarkDelayMs"] !== undefined);
  const fn = p.fn;
  if (fn.kind === "transformWithState") {
    if (fn.timeMode === "eventTime" && !watermarked) {
      fail(
        'transformWithState with timeMode "eventTime" needs a watermark: event-time timers fire by it. Call withWatermark(...) on the input before groupBy(...), or use timeMode "processingTime".',
      );
    }
    return;
  }
  const name = fn.kind;
  if (fn.kind === "mapGroupsWithState") {
    if (aggsInQuery) fail("mapGroupsWithState is not supported with aggregation on a streaming DataFrame/Dataset");
    if (mode !== "update")
      fail(`mapGroupsWithState is not supported with ${cap(mode)} output mode on a streaming DataFrame/Dataset; use outputMode("update").`);
  } else if (!aggsInQuery) {
    if (p.outputMode !== mode) {
      fail(
        `flatMapGroupsWithState in ${p.outputMode} mode is not supported with ${cap(mode)} output mode on a streaming DataFrame/Dataset; the query's output mode must be ${p.outputMode}.`,
      );
    }
  } else {
    if (p.outputMode === "update")
      fail("flatMapGroupsWithState in update mode is not supported with aggregation on a streaming DataFrame/Dataset");
    if (anyPlan(p.child, (c) => c.kind === "aggregate")) {
      fail("flatMapGroupsWithState in append mode is not supported after aggregation on a streaming DataFrame/Dataset");
    }
  }
  if (fn.timeout === "EventTimeTimeout" && !watermarked) {
    fail(
      `Watermark must be specified in the query using '[Dataset/DataFrame].withWatermark()' for using event-time timeout in a ${name}. Event-time timeout not supported without watermark.`,
    );
  }
}

const cap = (m: string) => `${m[0]!.toUpperCase()}${m.slice(1)}`;

/**
 * Spark's WatermarkSupport.findEventTimeColumn under `statefulOperator.allowMultiple` (the
 * default): a stateful operator's input may carry one event-time column only (a window over the
 * watermarked column, or a copy of it, is one more), else it could not tell which to evict by.
 */
export function oneEventTimeColumn(columns: readonly Expr[]): void {
  const timed = columns.filter((a): a is Attribute => a.kind === "attribute" && a.metadata[WATERMARK_DELAY] !== undefined);
  if (timed.length <= 1) return;
  const names = timed.map((a) => `${a.name}#${a.exprId}-T${a.metadata[WATERMARK_DELAY]}ms`).join(",");
  throw new AnalysisException(
    "MULTIPLE_EVENT_TIME_COLUMNS",
    `[MULTIPLE_EVENT_TIME_COLUMNS] More than one event time columns are available. Please ensure there is at most one event time column per stream. event time columns: (${names})`,
  );
}

function checkJoin(p: LogicalPlan & { kind: "join" }, mode: Mode, refuseAtPlanning: (e: AnalysisException) => void): void {
  const ls = isStreamingPlan(p.left);
  const rs = isStreamingPlan(p.right);
  const jt = p.joinType;
  const name = {
    left_outer: "LeftOuter",
    right_outer: "RightOuter",
    full_outer: "FullOuter",
    left_semi: "LeftSemi",
    left_anti: "LeftAnti",
    existence: "Existence",
    inner: "Inner",
    cross: "Cross",
  }[jt];
  if (ls && rs) {
    if (mode !== "append")
      fail(
        `Join between two streaming DataFrames/Datasets is not supported in ${mode[0]!.toUpperCase()}${mode.slice(1)} output mode, only in Append output mode.`,
      );
    if (jt === "left_anti") fail("Left anti joins between two streaming DataFrames/Datasets are not supported.");
    if (jt === "existence")
      fail("An IN or EXISTS subquery over a stream inside a larger expression is not supported in a stream-stream query.");
    const l = outputOf(p.left);
    const r = outputOf(p.right);
    const { leftKeys, rightKeys } = extractEquiKeys(p.condition, l, r);
    // Spark's StreamingJoinStrategy plans a stream-stream join only as a hash join on keys
    // (`<=>`, and what its optimizer makes `=` of, `NOT (a != b)`, `(a = b) = true`, count).
    // (a planning strategy: the query starts, its first batch fails)
    if (leftKeys.length === 0 && !comparesSides(p.condition, l, r))
      refuseAtPlanning(new AnalysisException("_LEGACY_ERROR_TEMP_1181", "Stream-stream join without equality predicate is not supported."));
    if (jt === "inner" || jt === "cross") return;
    // Spark's checkForStreamStreamJoinWatermark: the row side's bound need not be usable at run
    // time (a side without a watermark of its own is then never evicted), only derivable.
    const bounds = (mine: typeof l, theirs: typeof l) => stateValueOffsetMs(mine, theirs, p.condition) !== null;
    const ok =
      watermarkKeyIndex(leftKeys, rightKeys) >= 0 ||
      (jt === "left_outer" || jt === "left_semi" ? bounds(l, r) : jt === "right_outer" ? bounds(r, l) : bounds(l, r) || bounds(r, l));
    if (!ok) {
      fail(
        `Stream-stream ${name} join between two streaming DataFrame/Datasets is not supported without a watermark in the join keys, or a watermark on the nullable side and an appropriate range condition; ` +
          "add withWatermark(...) on both sides and a condition such as `l.ts >= r.ts - interval 5 minutes AND l.ts <= r.ts + interval 5 minutes`.",
      );
    }
    return;
  }
  if (ls && (jt === "right_outer" || jt === "full_outer")) {
    fail(`${name} join with a streaming DataFrame/Dataset on the left and a static DataFrame/DataSet on the right not supported.`);
  }
  if (rs && (jt === "left_outer" || jt === "left_semi" || jt === "left_anti" || jt === "existence" || jt === "full_outer")) {
    fail(`${name} join with a streaming DataFrame/Dataset on the right and a static DataFrame/DataSet on the left not supported.`);
  }
}
