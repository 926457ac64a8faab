/**
 * Logical → physical planning. One case per logical node; stateful streaming variants are
 * chosen by src/planner/streaming.ts when the plan runs inside a micro-batch.
 */
import { outputOf } from "../analyzer/types.js";
import { FileScanExec } from "../execution/operators/file-scan.js";
import { HashAggregateExec } from "../execution/operators/aggregate.js";
import {
  ExpandExec,
  FilterExec,
  LimitExec,
  LocalScanExec,
  ProjectExec,
  RangeExec,
  UnionExec,
} from "../execution/operators/basic.js";
import { DeduplicateExec } from "../execution/operators/deduplicate.js";
import { HashJoinExec } from "../execution/operators/join.js";
import { SortExec } from "../execution/operators/sort.js";
import type { PhysicalOperator } from "../execution/operator.js";
import { AnalysisException } from "../common/errors.js";
import type { LogicalPlan } from "../plan/logical.js";
import { extractEquiKeys } from "./join-keys.js";
import { resolveColumn } from "../analyzer/resolve-names.js";
import type { Attribute } from "../plan/expressions.js";

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
      return new FileScanExec(p.format, p.paths, p.options, p.output);
    case "streamingRelation":
      throw new AnalysisException(
        "STREAMING_QUERY_REQUIRED",
        "Queries with streaming sources must be executed with writeStream.start();",
      );
    case "unresolvedRelation":
      throw new Error(`unresolved relation ${p.name} reached the planner`);
    case "project":
      return new ProjectExec(p.projectList, outputOf(p), planChild(p.child));
    case "filter":
      return new FilterExec(p.condition, planChild(p.child));
    case "aggregate":
      return new HashAggregateExec(p.groupingExprs, p.aggregateExprs, outputOf(p), planChild(p.child));
    case "join": {
      const left = planChild(p.left);
      const right = planChild(p.right);
      const { leftKeys, rightKeys, residual } = extractEquiKeys(p.condition, left.output, right.output);
      return new HashJoinExec(leftKeys, rightKeys, p.joinType, residual, left, right, outputOf(p));
    }
    case "sort":
      return new SortExec(p.orders, planChild(p.child));
    case "limit":
      return new LimitExec(p.n, planChild(p.child));
    case "union":
      return new UnionExec(p.children.map(planChild));
    case "expand":
      return new ExpandExec(p.projections, p.output, planChild(p.child));
    case "deduplicate":
      return new DeduplicateExec(dedupKeys(p.keys, outputOf(p.child)), planChild(p.child));
    case "watermark":
    case "subqueryAlias":
      // Batch queries ignore watermarks (Spark's EliminateEventTimeWatermark).
      return planChild(p.child);
    case "distinct":
      throw new Error("distinct is rewritten by the analyzer");
  }
}

export function dedupKeys(keys: readonly string[] | null, out: readonly Attribute[]): Attribute[] {
  if (!keys) return [...out];
  return keys.map((k) => resolveColumn([k], out) as Attribute);
}
