/**
 * GroupedData: the result of `groupBy(...)`, `rollup(...)`, `cube(...)` or `groupingSets(...)`;
 * `agg`, `count`, `sum`, ... build the Aggregate.
 * The grouping columns come first in the output, as in Spark.
 */
import { IllegalArgumentException } from "../common/errors.js";
import { alias, call, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import type {
  GroupStateTimeout,
  GroupsWithStateFunction,
  StatefulProcessorLike,
  StateSchema,
  TimeMode,
} from "../plan/stateful-processor.js";
import { AggregateShortcuts } from "./aggregate-shortcuts.js";
import { Column, type ColumnOrName, toExpr } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { PivotedData } from "./pivot.js";
import {
  checkFunction,
  checkProcessor,
  parseOutputMode,
  parseTimeMode,
  parseTimeout,
  statefulNode,
  structOf,
} from "./stateful-processing.js";

export class GroupedData extends AggregateShortcuts {
  /** @internal */
  constructor(
    /** @internal */
    readonly df: DataFrame,
    /** @internal */
    readonly groupingExprs: readonly Expr[],
    /** rollup / cube / groupingSets: each set as positions in `groupingExprs`. */
    private readonly groupingSets: readonly (readonly number[])[] | null = null,
    /** The grouping columns shown in the output (groupingSets: its `cols`, which a set may go beyond). */
    private readonly shown: readonly Expr[] = groupingExprs,
  ) {
    super();
  }

  /**
   * One output column per value of `column` (per aggregate): `groupBy("k").pivot("year", [2020,
   * 2021]).sum("v")`. The values must be given (pivot.ts). Batch only, as in Spark.
   */
  pivot(column: ColumnOrName, values?: readonly unknown[]): PivotedData {
    if (this.groupingSets)
      throw new IllegalArgumentException("[UNSUPPORTED_FEATURE] pivot() after rollup / cube / groupingSets is not supported.");
    if (values === undefined) {
      throw new IllegalArgumentException(
        "[UNSUPPORTED_FEATURE] pivot() needs its values in arus: pivot(column, [v1, v2, ...]) (Spark computes them with a job; arus builds DataFrames synchronously). " +
          "Get them with `(await df.select(column).distinct().collect())`.",
      );
    }
    if (this.df.isStreaming)
      throw new IllegalArgumentException("[UNSUPPORTED_FEATURE] pivot() is not supported on streaming DataFrames/Datasets.");
    return new PivotedData(this.df, this.groupingExprs, toExpr(column), values);
  }

  /** `agg(F.count("*"), F.sum("x"))`, or `agg({ x: "sum", y: "max" })` as in PySpark. */
  agg(...exprs: (Column | Column[] | Record<string, string>)[]): DataFrame {
    const cols: Expr[] = [];
    for (const e of exprs) {
      if (e instanceof Column) cols.push(e.expr);
      else if (Array.isArray(e)) cols.push(...e.map((c) => c.expr));
      else for (const [c, fn] of Object.entries(e)) cols.push(alias(call(fn, [toExpr(c)]), `${fn}(${c})`));
    }
    const plan = Plans.aggregate(this.groupingExprs, [...this.shown, ...cols], this.df.plan, this.groupingSets);
    return new (this.df.constructor as typeof DataFrame)(this.df.session, plan);
  }

  /**
   * PySpark's `transformWithState`: per grouping key, `processor` with keyed state, timers and
   * TTL (docs/stateful-processing.md). `initialState` is a batch DataFrame's groupBy(...) with the
   * same key types (read in the first batch); `eventTimeColumnName` names the output column that
   * carries the watermark on to a stateful operator after this one.
   */
  transformWithState(
    statefulProcessor: StatefulProcessorLike,
    outputStructType: StateSchema,
    outputMode: "append" | "update" | "Append" | "Update",
    timeMode: TimeMode | "None" | "ProcessingTime" | "EventTime",
    initialState?: GroupedData | null,
    eventTimeColumnName?: string | null,
  ): DataFrame {
    const processor = checkProcessor(statefulProcessor);
    const mode = parseTimeMode(timeMode);
    if (initialState !== undefined && initialState !== null && !(initialState instanceof GroupedData)) {
      throw new IllegalArgumentException("transformWithState: initialState must be a GroupedData (a batch DataFrame's groupBy(...)).");
    }
    return this.stateful({
      fn: { kind: "transformWithState", processor, timeMode: mode },
      outputSchema: structOf(outputStructType, "transformWithState's outputStructType"),
      outputMode: parseOutputMode(outputMode, "transformWithState"),
      initialState: initialState ? { plan: initialState.df.plan, grouping: initialState.groupingExprs } : null,
      eventTimeColumnName: eventTimeColumnName ?? null,
    });
  }

  /**
   * Spark's flatMapGroupsWithState (PySpark's applyInPandasWithState argument order): `func(key,
   * rows, state)` returns the key's output rows; `state` is a GroupState over `stateStructType`.
   */
  flatMapGroupsWithState<S = Record<string, unknown>>(
    func: GroupsWithStateFunction<S>,
    outputStructType: StateSchema,
    stateStructType: StateSchema,
    outputMode: "append" | "update" | "Append" | "Update",
    timeoutConf: GroupStateTimeout = "NoTimeout",
  ): DataFrame {
    return this.stateful({
      fn: {
        kind: "flatMapGroupsWithState",
        func: checkFunction(func, "flatMapGroupsWithState"),
        stateSchema: structOf(stateStructType, "flatMapGroupsWithState's stateStructType"),
        timeout: parseTimeout(timeoutConf, "flatMapGroupsWithState"),
      },
      outputSchema: structOf(outputStructType, "flatMapGroupsWithState's outputStructType"),
      outputMode: parseOutputMode(outputMode, "flatMapGroupsWithState"),
    });
  }

  /** Spark's mapGroupsWithState: `func(key, rows, state)` returns exactly one row per call; Update output mode only. */
  mapGroupsWithState<S = Record<string, unknown>>(
    func: (
      key: readonly unknown[],
      rows: readonly Record<string, unknown>[],
      state: Parameters<GroupsWithStateFunction<S>>[2],
    ) => Record<string, unknown>,
    outputStructType: StateSchema,
    stateStructType: StateSchema,
    timeoutConf: GroupStateTimeout = "NoTimeout",
  ): DataFrame {
    return this.stateful({
      fn: {
        kind: "mapGroupsWithState",
        func: checkFunction(func, "mapGroupsWithState") as unknown as GroupsWithStateFunction<unknown>,
        stateSchema: structOf(stateStructType, "mapGroupsWithState's stateStructType"),
        timeout: parseTimeout(timeoutConf, "mapGroupsWithState"),
      },
      outputSchema: structOf(outputStructType, "mapGroupsWithState's outputStructType"),
      outputMode: "update",
    });
  }

  private stateful(a: Omit<Parameters<typeof statefulNode>[0], "child" | "grouping" | "timeZone">): DataFrame {
    if (this.groupingSets !== null) {
      throw new IllegalArgumentException(
        `${a.fn.kind} needs groupBy(...); rollup, cube and groupingSets are not supported with it (as in Spark).`,
      );
    }
    const plan: LogicalPlan = statefulNode({ ...a, child: this.df.plan, grouping: this.groupingExprs, timeZone: this.df.session.timeZone });
    return new (this.df.constructor as typeof DataFrame)(this.df.session, plan);
  }
}
