/**
 * Logical → physical planning. One case per logical node; stateful streaming variants are
 * chosen by src/planner/streaming.ts when the plan runs inside a micro-batch.
 */

import { resolveColumn } from "../analyzer/resolve-names.js";
import { outputOf } from "../analyzer/types.js";
import { AnalysisException } from "../common/errors.js";
import type { PhysicalOperator } from "../execution/operator.js";
import { HashAggregateExec } from "../execution/operators/aggregate.js";
import { ExpandExec, FilterExec, LimitExec, LocalScanExec, ProjectExec, RangeExec, UnionExec } from "../execution/operators/basic.js";
import { CollectMetricsExec } from "../execution/operators/collect-metrics.js";
import { DeduplicateExec } from "../execution/operators/deduplicate.js";
import { FileScanExec } from "../execution/operators/file-scan.js";
import { GenerateExec } from "../execution/operators/generate.js";
import { HashJoinExec } from "../execution/operators/join.js";
import { MergeSessionsExec } from "../execution/operators/merge-sessions.js";
import { SortExec } from "../execution/operators/sort.js";
import { WindowExec } from "../execution/operators/window.js";
import type { Attribute, Expr } from "../plan/expressions.js";
import { extractEquiKeys } from "../plan/join-keys.js";
import type { LogicalPlan } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { planTransformWithState } from "./transform-with-state.js";

/** Hooks the streaming planner uses to substitute stateful operators. */
export interface PlannerHooks {
  plan(p: LogicalPlan, planChild: (c: LogicalPlan) => PhysicalOperator): PhysicalOperator | null;
}

export function planPhysical(p: LogicalPlan, hooks?: PlannerHooks): PhysicalOperator {
  const planChild = (c: LogicalPlan) => planPhysical(c, hooks);
  const hooked = hooks?.plan(p, planChild);
  if (hooked) return hooked;
  switch (p.kind) {
    case "localRelation":
      return new LocalScanExec(p.output, p.batches);
    case "range":
      return new RangeExec(p.output, p.start, p.end, p.step);
    case "fileRelation":
      return new FileScanExec(p.format, p.paths, p.options, p.output, p.dataOutput);
    case "streamingRelation":
      throw new AnalysisException("STREAMING_QUERY_REQUIRED", "Queries with streaming sources must be executed with writeStream.start();");
    case "unresolvedRelation":
      throw new Error(`unresolved relation ${p.name} reached the planner`);
    case "pivot":
    case "unpivot":
      throw new Error(`unexpanded ${p.kind} reached the planner`);
    case "project":
      return new ProjectExec(p.projectList, outputOf(p), planChild(p.child));
    case "filter":
      return new FilterExec(p.condition, planChild(p.child));
    case "aggregate": {
      let child = planChild(p.child);
      const session = sessionColumns(p.groupingExprs, child.output);
      if (session) child = new MergeSessionsExec(session.keyColumns, session.sessionColumn, child);
      return new HashAggregateExec(p.groupingExprs, p.aggregateExprs, outputOf(p), child);
    }
    case "join": {
      const left = planChild(p.left);
      const right = planChild(p.right);
      const { leftKeys, rightKeys, residual } = extractEquiKeys(p.condition, left.output, right.output);
      return new HashJoinExec(leftKeys, rightKeys, p.joinType, residual, left, right, outputOf(p));
    }
    case "sort":
      return new SortExec(p.orders, planChild(p.child));
    case "limit":
      return new LimitExec(p.n, planChild(p.child), p.offset);
    case "union":
      return new UnionExec(p.children.map(planChild));
    case "setOperation":
      throw new Error("a set operation reached the planner (the analyzer rewrites it into joins)");
    case "expand":
      return new ExpandExec(p.projections, p.output, planChild(p.child));
    case "generate":
      if (!p.generatorOutput) throw new Error(`unresolved generator ${p.generator.name} reached the planner`);
      return new GenerateExec(p.generator, p.outer, p.generatorOutput, p.unrequiredChildIndex, planChild(p.child));
    case "window":
      return new WindowExec(p.windowExprs, p.partitionBy, p.orderBy, planChild(p.child));
    case "deduplicate":
      return new DeduplicateExec(dedupKeys(p.keys, outputOf(p.child)), planChild(p.child));
    case "collectMetrics":
      return new CollectMetricsExec(p.name, p.metrics, p.sink, planChild(p.child));
    case "watermark":
    case "subqueryAlias":
      // Batch queries ignore watermarks (Spark's EliminateEventTimeWatermark).
      return planChild(p.child);
    case "distinct":
      throw new Error("distinct is rewritten by the analyzer");
    case "transformWithState":
      // A batch DataFrame: the operator runs once over a throwaway store, as Spark's does.
      return planTransformWithState(p, 0, planChild).exec;
  }
}

/** A grouping key's column: an aliased one (`session_window(...) AS s`) is the column it names. */
const groupingColumn = (e: Expr): Expr => (e.kind === "alias" && e.child.kind === "attribute" ? e.child : e);

/** Is this aggregation grouped by a session window (aliased or not)? */
export function isSessionAggregation(groupingExprs: readonly Expr[]): boolean {
  return groupingExprs.some((g) => {
    const c = groupingColumn(g);
    return c.kind === "attribute" && c.metadata["spark.sessionWindow"] === true;
  });
}

/** For a session-window aggregate: the column of the session window and of the other keys. */
export function sessionColumns(
  groupingExprs: readonly Expr[],
  input: readonly Attribute[],
): { sessionColumn: number; keyColumns: number[] } | null {
  const keys = groupingExprs.map(groupingColumn);
  const isSession = (e: Expr) => e.kind === "attribute" && e.metadata["spark.sessionWindow"] === true;
  const s = keys.find(isSession) as Attribute | undefined;
  if (!s) return null;
  const index = (a: Expr) => {
    const i = a.kind === "attribute" ? input.findIndex((x) => x.exprId === a.exprId) : -1;
    if (i < 0)
      throw new AnalysisException("UNSUPPORTED_FEATURE", `Group by a column (not an expression) next to session_window: ${exprToSql(a)}.`);
    return i;
  };
  return { sessionColumn: index(s), keyColumns: keys.filter((e) => !isSession(e)).map(index) };
}

export function dedupKeys(keys: readonly string[] | null, out: readonly Attribute[]): Attribute[] {
  if (!keys) return [...out];
  return keys.map((k) => resolveColumn([k], out) as Attribute);
}
