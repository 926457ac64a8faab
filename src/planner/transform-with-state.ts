/**
 * Planning groupBy(...).transformWithState / flatMapGroupsWithState / mapGroupsWithState: the
 * one operator (execution/stateful/tws/) with the processor (or the GroupState adapter), and
 * what the checkpoint records of it — the grouping key columns and each state variable's kind
 * and schema, collected by running the processor's `init` on a recording handle, as Spark's
 * driver does.
 */
import { outputOf } from "../analyzer/types.js";
import type { PhysicalOperator } from "../execution/operator.js";
import { eventTimeKeyIndex } from "../execution/stateful/common.js";
import { GroupsWithStateProcessor, timeModeOf } from "../execution/stateful/tws/groups-with-state.js";
import { SchemaCollectingHandle } from "../execution/stateful/tws/handle.js";
import { TransformWithStateExec } from "../execution/stateful/tws/transform-with-state.js";
import type { Attribute } from "../plan/expressions.js";
import type { LogicalPlan, TransformWithState } from "../plan/logical.js";
import type { StatefulProcessorLike, TimeMode } from "../plan/stateful-processor.js";
import { simpleString } from "../types/datatypes.js";

export interface PlannedTransformWithState {
  readonly exec: TransformWithStateExec;
  readonly timeMode: TimeMode;
  readonly progressName: string;
  readonly keySchema: string[];
  readonly valueSchema: string[];
}

export function planTransformWithState(
  p: TransformWithState,
  operatorId: number,
  planChild: (c: LogicalPlan) => PhysicalOperator,
): PlannedTransformWithState {
  const fn = p.fn;
  const child = planChild(p.child);
  let processor: StatefulProcessorLike;
  let timeMode: TimeMode;
  if (fn.kind === "transformWithState") {
    processor = fn.processor;
    timeMode = fn.timeMode;
  } else {
    // GroupState.getCurrentWatermarkMs works whenever the input carries a watermark (Spark's watermarkPresent)
    const watermarkPresent = eventTimeKeyIndex(child.output) >= 0;
    processor = new GroupsWithStateProcessor(fn.func, fn.stateSchema, fn.timeout, fn.kind === "mapGroupsWithState", watermarkPresent);
    timeMode = timeModeOf(fn.timeout);
  }
  const collector = new SchemaCollectingHandle(timeMode, p.values);
  processor.init(collector);
  processor.close?.();
  const groupingAttrs = p.groupingExprs as readonly Attribute[];
  const isTws = fn.kind === "transformWithState";
  const progressName = isTws ? "transformWithStateExec" : "flatMapGroupsWithState";
  const exec = new TransformWithStateExec(
    {
      operatorId,
      name: isTws ? "TransformWithState" : fn.kind === "mapGroupsWithState" ? "MapGroupsWithState" : "FlatMapGroupsWithState",
      progressName,
      processor,
      timeMode,
      groupingAttrs,
      output: p.output,
      values: p.values,
      filterLateRows: isTws || timeMode === "eventTime",
      eventTimeOutput: p.eventTimeColumnName === null ? -1 : p.output.findIndex((a) => a.name === p.eventTimeColumnName),
      initialState: p.initialState ? { plan: planChild(p.initialState), grouping: p.initialGrouping as readonly Attribute[] } : null,
      timesInEveryMode: !isTws,
      strictTimers: !isTws,
    },
    child,
  );
  const childOut = outputOf(p.child);
  return {
    exec,
    timeMode,
    progressName,
    keySchema: groupingAttrs.map((a) => `${a.name}: ${simpleString(childOut.find((c) => c.exprId === a.exprId)?.type ?? a.type)}`),
    valueSchema: [
      ...collector.decls.map((d) => `${d.name}: ${d.text}`),
      ...[...collector.deleted].filter((n) => !collector.decls.some((d) => d.name === n)).map((n) => `${n}: deleted`),
    ],
  };
}
