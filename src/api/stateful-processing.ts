/**
 * groupBy(...).transformWithState / flatMapGroupsWithState / mapGroupsWithState: argument
 * checks with clear messages, and the plan node. The node carries the user-value conversions
 * (api/values.ts) and DDL parsing down to the operator, which sits below this layer.
 */
import { IllegalArgumentException } from "../common/errors.js";
import { attribute, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, Plans, type ProcessorValues, type StatefulFunction } from "../plan/logical.js";
import {
  GroupStateTimeout,
  type GroupsWithStateFunction,
  type StatefulProcessorLike,
  type StateSchema,
  type TimeMode,
} from "../plan/stateful-processor.js";
import { parseSchema } from "../sql/index.js";
import type { StructType } from "../types/datatypes.js";
import { toExternal, toInternal } from "./values.js";

const TIME_MODES: Record<string, TimeMode> = { none: "none", processingtime: "processingTime", eventtime: "eventTime" };

export function structOf(s: unknown, what: string): StructType {
  if (typeof s === "string") return parseSchema(s);
  if (s && typeof s === "object" && Array.isArray((s as StructType).fields)) return s as StructType;
  throw new IllegalArgumentException(
    `${what} must be a DDL string like "count BIGINT" or a StructType (got ${s === null ? "null" : typeof s}).`,
  );
}

export function processorValues(timeZone: string): ProcessorValues {
  return {
    schema: (s: StateSchema, what: string) => structOf(s, what),
    toInternal: (v, type, where) => toInternal(v, type, timeZone, where),
    toExternal: (v, type) => toExternal(v, type),
  };
}

export function parseOutputMode(mode: unknown, what: string): "append" | "update" {
  const m = typeof mode === "string" ? mode.toLowerCase() : "";
  if (m === "append" || m === "update") return m;
  throw new IllegalArgumentException(`${what}: outputMode must be "append" or "update" (got ${JSON.stringify(mode)}).`);
}

export function parseTimeMode(mode: unknown): TimeMode {
  const m = TIME_MODES[typeof mode === "string" ? mode.toLowerCase() : ""];
  if (!m)
    throw new IllegalArgumentException(
      `transformWithState: timeMode must be "none", "processingTime" or "eventTime" (got ${JSON.stringify(mode)}).`,
    );
  return m;
}

export function parseTimeout(t: unknown, what: string): GroupStateTimeout {
  const all = Object.values(GroupStateTimeout) as string[];
  const hit = all.find((x) => typeof t === "string" && x.toLowerCase() === t.toLowerCase());
  if (!hit) throw new IllegalArgumentException(`${what}: timeoutConf must be one of ${all.join(", ")} (got ${JSON.stringify(t)}).`);
  return hit as GroupStateTimeout;
}

export function checkProcessor(p: unknown): StatefulProcessorLike {
  const o = p as Partial<StatefulProcessorLike> | null;
  if (!o || typeof o !== "object" || typeof o.init !== "function" || typeof o.handleInputRows !== "function") {
    throw new IllegalArgumentException(
      "transformWithState needs a StatefulProcessor: an object (or class instance) with init(handle) and handleInputRows(key, rows, timerValues) methods.",
    );
  }
  return o as StatefulProcessorLike;
}

export interface StatefulNodeArgs {
  readonly child: LogicalPlan;
  readonly grouping: readonly Expr[];
  readonly fn: StatefulFunction;
  readonly outputSchema: StructType;
  readonly outputMode: "append" | "update";
  readonly timeZone: string;
  readonly initialState?: { readonly plan: LogicalPlan; readonly grouping: readonly Expr[] } | null;
  readonly eventTimeColumnName?: string | null;
}

export function statefulNode(a: StatefulNodeArgs): LogicalPlan {
  return Plans.transformWithState({
    groupingExprs: a.grouping,
    fn: a.fn,
    outputMode: a.outputMode,
    output: a.outputSchema.fields.map((f) => attribute(f.name, f.type, f.nullable)),
    eventTimeColumnName: a.eventTimeColumnName ? a.eventTimeColumnName : null,
    values: processorValues(a.timeZone),
    child: a.child,
    initialState: a.initialState?.plan ?? null,
    initialGrouping: a.initialState?.grouping ?? [],
  });
}

export function checkFunction(f: unknown, what: string): GroupsWithStateFunction<unknown> {
  if (typeof f !== "function") throw new IllegalArgumentException(`${what} needs a function (key, rows, state) => rows (got ${typeof f}).`);
  return f as GroupsWithStateFunction<unknown>;
}
