/**
 * Logical plan nodes: frozen plain data with a `kind` discriminant; no session, no execution.
 *
 * Leaves carry their output attributes. `output(plan)` in ./output.ts derives every other node's
 * output, so nothing derivable is stored twice.
 */
import type { Batch } from "../columnar/batch.js";
import type { DataType, StructType } from "../types/datatypes.js";
import type { Attribute, Call, Expr, NamedExpr, SortOrder } from "./expressions.js";
import type { GroupStateTimeout, GroupsWithStateFunction, StatefulProcessorLike, StateSchema, TimeMode } from "./stateful-processor.js";

/**
 * `existence`: Spark's ExistenceJoin — every left row once, with a BOOLEAN column (`Join.exists`)
 * saying whether some right row matched; what an IN / EXISTS subquery inside an expression
 * becomes (analyzer/subqueries.ts).
 */
export type JoinType = "inner" | "left_outer" | "right_outer" | "full_outer" | "left_semi" | "left_anti" | "cross" | "existence";

/** In-memory rows (createDataFrame, memory-sink tables, a micro-batch's data). */
export interface LocalRelation {
  readonly kind: "localRelation";
  readonly output: readonly Attribute[];
  readonly batches: readonly Batch[];
  readonly isStreaming: boolean;
}
export interface RangeRelation {
  readonly kind: "range";
  readonly start: number;
  readonly end: number;
  readonly step: number;
  readonly output: readonly Attribute[];
}
/** A batch read of files (json/csv/parquet/text) or an on-disk arus table. */
export interface FileRelation {
  readonly kind: "fileRelation";
  readonly format: string;
  readonly paths: readonly string[];
  readonly options: Readonly<Record<string, string>>;
  readonly output: readonly Attribute[];
  /**
   * A CSV scan narrowed to the columns a query reads (optimizer/prune-columns.ts): the files'
   * columns, of which `output` is a subset. CSV finds its columns by position, so the reader
   * needs them all to know where each is; it converts only `output`'s, as Spark does.
   */
  readonly dataOutput?: readonly Attribute[];
}
/** An unbounded input; the runtime swaps it for a LocalRelation per micro-batch. */
export interface StreamingRelation {
  readonly kind: "streamingRelation";
  /** Index into the query's source list, assigned when the DataFrame is created. */
  readonly sourceId: string;
  readonly format: string;
  readonly options: Readonly<Record<string, string>>;
  readonly output: readonly Attribute[];
  /**
   * A CSV source's column pruning (optimizer/prune-columns.ts): the positions in `output` of the
   * columns the query reads, the only ones converted (the others stay NULL). Absent: all.
   */
  readonly convert?: readonly number[];
}
/** A name to be looked up in the catalog (temp views, tables): `FROM t`. */
export interface UnresolvedRelation {
  readonly kind: "unresolvedRelation";
  readonly name: string;
}
export interface Project {
  readonly kind: "project";
  readonly projectList: readonly Expr[];
  readonly child: LogicalPlan;
  /** SQL's QUALIFY condition: rows kept after the select list's window functions (the analyzer plans it). */
  readonly qualify?: Expr;
  /**
   * A DataFrame USING join's side keys the merged key replaced (Spark's Project.hiddenOutputTag):
   * not in the output, added to it when a column above names one (`b.col("k")`,
   * analyzer/hidden-columns.ts).
   */
  readonly hidden?: readonly Attribute[];
  /**
   * The second reading of a plan joined with itself: each column both sides share re-aliased
   * under a fresh id (analyzer/dedup-relations.ts), kept to tell which DataFrame column above the
   * join is ambiguous.
   */
  readonly selfJoinCopy?: true;
}
export interface Filter {
  readonly kind: "filter";
  readonly condition: Expr;
  readonly child: LogicalPlan;
}
export interface Aggregate {
  readonly kind: "aggregate";
  readonly groupingExprs: readonly Expr[];
  readonly aggregateExprs: readonly Expr[];
  readonly child: LogicalPlan;
  /**
   * GROUPING SETS / ROLLUP / CUBE before analysis: each set lists the positions in
   * `groupingExprs` it groups by. The analyzer rewrites it into an Expand and a plain
   * Aggregate (analyzer/grouping-sets.ts), so an analyzed plan has null here.
   */
  readonly groupingSets: readonly (readonly number[])[] | null;
}
export interface Join {
  readonly kind: "join";
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly joinType: JoinType;
  readonly condition: Expr | null;
  /** `join(other, ["k"])`: USING columns, merged into one output column each. */
  readonly usingColumns: readonly string[] | null;
  /** SQL's NATURAL JOIN: USING the columns both sides have (found by the analyzer, join-rules.ts). */
  readonly natural?: true;
  /** An existence join's BOOLEAN column: whether the left row matched (`joinType` "existence"). */
  readonly exists?: Attribute;
  /**
   * SQL's USING / NATURAL JOIN: each side's key stays reachable by its qualified name (`t2.k`)
   * and in `t2.*`, hidden from `*` and from unqualified names (analyzer/join-rules.ts).
   */
  readonly hiddenUsingKeys?: true;
}
export interface Sort {
  readonly kind: "sort";
  readonly orders: readonly SortOrder[];
  readonly child: LogicalPlan;
}
export interface Limit {
  readonly kind: "limit";
  /** Rows kept (Infinity: all, for an OFFSET alone). */
  readonly n: number;
  /** Rows skipped first (SQL OFFSET, `df.offset`): batch only. */
  readonly offset: number;
  readonly child: LogicalPlan;
}
export interface Union {
  readonly kind: "union";
  readonly children: readonly LogicalPlan[];
  readonly byName: boolean;
  readonly allowMissingColumns: boolean;
}
/**
 * INTERSECT / EXCEPT [ALL] (also `df.intersect`, `df.subtract`, `df.intersectAll`,
 * `df.exceptAll`): the analyzer rewrites it into joins, as Spark's optimizer does
 * (analyzer/set-operations.ts); no later phase sees it.
 */
export interface SetOperation {
  readonly kind: "setOperation";
  readonly op: "intersect" | "except";
  readonly all: boolean;
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
}
export interface Distinct {
  readonly kind: "distinct";
  readonly child: LogicalPlan;
}
/** dropDuplicates / dropDuplicatesWithinWatermark. `keys` null = all columns. */
export interface Deduplicate {
  readonly kind: "deduplicate";
  readonly keys: readonly string[] | null;
  readonly withinWatermark: boolean;
  readonly child: LogicalPlan;
}
/**
 * Where an observation's values go once computed (api/observation.ts holds the user's side). A
 * batch query completes it once; a streaming query reports the values per batch in progress
 * `observedMetrics` instead, so a streaming plan has none.
 */
export interface MetricsSink {
  complete(metrics: ObservedMetricsRow): void;
}

/** One evaluation of an observation's metrics: a one-row batch, a column per metric. */
export interface ObservedMetricsRow {
  readonly names: readonly string[];
  readonly types: readonly DataType[];
  readonly row: Batch;
}

/**
 * df.observe(name, ...metrics) (Spark's CollectMetrics): passes its child's rows through
 * unchanged and computes `metrics` (aliased aggregates, or literals) over them, once per batch
 * query or per micro-batch.
 */
export interface CollectMetrics {
  readonly kind: "collectMetrics";
  readonly name: string;
  readonly metrics: readonly Expr[];
  readonly sink: MetricsSink | null;
  readonly child: LogicalPlan;
}
export interface EventTimeWatermark {
  readonly kind: "watermark";
  readonly eventTime: string;
  readonly delayMs: number;
  readonly child: LogicalPlan;
}
export interface SubqueryAlias {
  readonly kind: "subqueryAlias";
  readonly alias: string;
  readonly child: LogicalPlan;
  /** SQL's `t(a, b)`: the child's columns renamed by position (the analyzer applies it). */
  readonly columnNames?: readonly string[];
}
/** One output row per projection per input row (sliding windows). */
export interface Expand {
  readonly kind: "expand";
  readonly projections: readonly (readonly Expr[])[];
  readonly output: readonly Attribute[];
  readonly child: LogicalPlan;
}

/**
 * A generator (explode, posexplode, inline, json_tuple; functions/generators.ts) run on each
 * child row (Spark's Generate): the output is the child's columns, except those at
 * `unrequiredChildIndex` (column pruning drops them), then `generatorOutput`, one row per
 * generated row. Built unresolved (`generatorOutput` null) by LATERAL VIEW and by the analyzer
 * when it lifts a generator out of a SELECT; `names` are the user's column names (empty: the
 * generator's defaults) and `qualifier` the LATERAL VIEW's table alias.
 */
export interface Generate {
  readonly kind: "generate";
  /** The generator call, e.g. `explode(arr)`; its name may end in `_outer`. */
  readonly generator: Call;
  /** explode_outer or LATERAL VIEW OUTER: a row that generates nothing gives one row of NULLs. */
  readonly outer: boolean;
  readonly names: readonly string[];
  readonly qualifier: string | null;
  readonly generatorOutput: readonly Attribute[] | null;
  readonly unrequiredChildIndex: readonly number[];
  readonly child: LogicalPlan;
}

/**
 * Window functions over one window specification (Spark's Window node): the output is the
 * child's columns followed by one column per `windowExprs` entry (aliases of `windowExpr`
 * nodes that all share `partitionBy` and `orderBy`).
 */
export interface Window {
  readonly kind: "window";
  readonly windowExprs: readonly NamedExpr[];
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly SortOrder[];
  readonly child: LogicalPlan;
}

/**
 * User values crossing into and out of a processor. api/ owns the conversion of user values
 * (and DDL parsing), so it hands these functions down with the plan node.
 */
export interface ProcessorValues {
  schema(s: StateSchema, what: string): StructType;
  toInternal(v: unknown, type: DataType, where: string): unknown;
  toExternal(v: unknown, type: DataType): unknown;
}

/** The user code of an arbitrary stateful operator. */
export type StatefulFunction =
  | { readonly kind: "transformWithState"; readonly processor: StatefulProcessorLike; readonly timeMode: TimeMode }
  | {
      readonly kind: "flatMapGroupsWithState" | "mapGroupsWithState";
      readonly func: GroupsWithStateFunction<unknown>;
      readonly stateSchema: StructType;
      readonly timeout: GroupStateTimeout;
    };

/**
 * groupBy(...).transformWithState / flatMapGroupsWithState / mapGroupsWithState: per grouping
 * key, user code with keyed state. `initialState` (transformWithState only) is a batch plan
 * grouped by `initialGrouping`; it is the node's second child.
 */
export interface TransformWithState {
  readonly kind: "transformWithState";
  readonly groupingExprs: readonly Expr[];
  readonly fn: StatefulFunction;
  readonly outputMode: "append" | "update";
  readonly output: readonly Attribute[];
  readonly eventTimeColumnName: string | null;
  readonly values: ProcessorValues;
  readonly child: LogicalPlan;
  readonly initialState: LogicalPlan | null;
  readonly initialGrouping: readonly Expr[];
}

/** One `IN` entry of SQL's PIVOT / UNPIVOT: a value (or column) tuple and its optional name. */
export interface PivotEntry {
  readonly exprs: readonly Expr[];
  readonly alias: string | null;
}
/**
 * SQL's `PIVOT (aggs FOR cols IN (values))`, as parsed: the analyzer expands it into two
 * aggregates (analyzer/pivot-rules.ts) once the child's columns are known.
 */
export interface Pivot {
  readonly kind: "pivot";
  readonly aggregates: readonly Expr[];
  readonly pivotColumns: readonly Expr[];
  readonly values: readonly PivotEntry[];
  readonly child: LogicalPlan;
}
/** SQL's `UNPIVOT [INCLUDE | EXCLUDE NULLS] (values FOR name IN (columns))`, as parsed (analyzer/pivot-rules.ts). */
export interface Unpivot {
  readonly kind: "unpivot";
  readonly valueColumns: readonly string[];
  readonly nameColumn: string;
  readonly columns: readonly PivotEntry[];
  readonly includeNulls: boolean;
  readonly child: LogicalPlan;
}

export type LogicalPlan =
  | LocalRelation
  | RangeRelation
  | FileRelation
  | StreamingRelation
  | UnresolvedRelation
  | Project
  | Filter
  | Aggregate
  | Join
  | Sort
  | Limit
  | Union
  | SetOperation
  | Distinct
  | Deduplicate
  | CollectMetrics
  | EventTimeWatermark
  | SubqueryAlias
  | Expand
  | Generate
  | Window
  | TransformWithState
  | Pivot
  | Unpivot;

export type PlanKind = LogicalPlan["kind"];

const f = Object.freeze;

export const Plans = {
  localRelation(output: readonly Attribute[], batches: readonly Batch[], isStreaming = false): LocalRelation {
    return f({ kind: "localRelation", output: f([...output]), batches: f([...batches]), isStreaming });
  },
  range(start: number, end: number, step: number, output: readonly Attribute[]): RangeRelation {
    return f({ kind: "range", start, end, step, output: f([...output]) });
  },
  fileRelation(
    format: string,
    paths: readonly string[],
    options: Record<string, string>,
    output: readonly Attribute[],
    dataOutput?: readonly Attribute[],
  ): FileRelation {
    const rel = { kind: "fileRelation" as const, format, paths: f([...paths]), options: f({ ...options }), output: f([...output]) };
    return f(dataOutput ? { ...rel, dataOutput: f([...dataOutput]) } : rel);
  },
  streamingRelation(
    sourceId: string,
    format: string,
    options: Record<string, string>,
    output: readonly Attribute[],
    convert?: readonly number[],
  ): StreamingRelation {
    const rel = { kind: "streamingRelation" as const, sourceId, format, options: f({ ...options }), output: f([...output]) };
    return f(convert ? { ...rel, convert: f([...convert]) } : rel);
  },
  pivot(aggregates: readonly Expr[], pivotColumns: readonly Expr[], values: readonly PivotEntry[], child: LogicalPlan): Pivot {
    return f({ kind: "pivot", aggregates: f([...aggregates]), pivotColumns: f([...pivotColumns]), values: f([...values]), child });
  },
  unpivot(
    valueColumns: readonly string[],
    nameColumn: string,
    columns: readonly PivotEntry[],
    includeNulls: boolean,
    child: LogicalPlan,
  ): Unpivot {
    return f({ kind: "unpivot", valueColumns: f([...valueColumns]), nameColumn, columns: f([...columns]), includeNulls, child });
  },
  unresolvedRelation(name: string): UnresolvedRelation {
    return f({ kind: "unresolvedRelation", name });
  },
  project(projectList: readonly Expr[], child: LogicalPlan, qualify?: Expr): Project {
    return f({ kind: "project", projectList: f([...projectList]), child, ...(qualify ? { qualify } : {}) });
  },
  /** The second reading of a plan joined with itself, its shared columns re-aliased (analyzer/dedup-relations.ts). */
  selfJoinCopy(projectList: readonly Expr[], child: LogicalPlan): Project {
    return f({ kind: "project", projectList: f([...projectList]), child, selfJoinCopy: true });
  },
  /** `p`'s list and child replaced, its hidden columns and self-join mark kept. */
  reproject(p: Project, projectList: readonly Expr[], child: LogicalPlan): Project {
    return f({ ...p, projectList: f([...projectList]), child });
  },
  /** A projection keeping `hidden` reachable by the columns above it (a DataFrame USING join's side keys). */
  projectHiding(projectList: readonly Expr[], child: LogicalPlan, hidden: readonly Attribute[]): Project {
    if (hidden.length === 0) return Plans.project(projectList, child);
    return f({ kind: "project", projectList: f([...projectList]), child, hidden: f([...hidden]) });
  },
  filter(condition: Expr, child: LogicalPlan): Filter {
    return f({ kind: "filter", condition, child });
  },
  aggregate(
    groupingExprs: readonly Expr[],
    aggregateExprs: readonly Expr[],
    child: LogicalPlan,
    groupingSets: readonly (readonly number[])[] | null = null,
  ): Aggregate {
    return f({
      kind: "aggregate",
      groupingExprs: f([...groupingExprs]),
      aggregateExprs: f([...aggregateExprs]),
      child,
      groupingSets: groupingSets ? f(groupingSets.map((s) => f([...s]))) : null,
    });
  },
  join(
    left: LogicalPlan,
    right: LogicalPlan,
    joinType: JoinType,
    condition: Expr | null,
    usingColumns: readonly string[] | null = null,
    natural = false,
    hiddenUsingKeys = false,
  ): Join {
    return f({
      kind: "join",
      left,
      right,
      joinType,
      condition,
      usingColumns: usingColumns ? f([...usingColumns]) : null,
      ...(natural ? { natural: true as const } : {}),
      ...(hiddenUsingKeys ? { hiddenUsingKeys: true as const } : {}),
    });
  },
  /** Spark's ExistenceJoin: `left` with `exists` telling whether a row of `right` matched `condition`. */
  existenceJoin(left: LogicalPlan, right: LogicalPlan, condition: Expr | null, exists: Attribute): Join {
    return f({ kind: "join", left, right, joinType: "existence", condition, usingColumns: null, exists });
  },
  /** `p` with new sides and condition, everything else kept (an existence join's column too). */
  rejoin(p: Join, left: LogicalPlan, right: LogicalPlan, condition: Expr | null): Join {
    return f({ ...p, left, right, condition });
  },
  sort(orders: readonly SortOrder[], child: LogicalPlan): Sort {
    return f({ kind: "sort", orders: f([...orders]), child });
  },
  limit(n: number, child: LogicalPlan, offset = 0): Limit {
    return f({ kind: "limit", n, offset, child });
  },
  setOperation(op: "intersect" | "except", all: boolean, left: LogicalPlan, right: LogicalPlan): SetOperation {
    return f({ kind: "setOperation", op, all, left, right });
  },
  union(children: readonly LogicalPlan[], byName = false, allowMissingColumns = false): Union {
    return f({ kind: "union", children: f([...children]), byName, allowMissingColumns });
  },
  distinct(child: LogicalPlan): Distinct {
    return f({ kind: "distinct", child });
  },
  deduplicate(keys: readonly string[] | null, child: LogicalPlan, withinWatermark = false): Deduplicate {
    return f({ kind: "deduplicate", keys: keys ? f([...keys]) : null, withinWatermark, child });
  },
  collectMetrics(name: string, metrics: readonly Expr[], sink: MetricsSink | null, child: LogicalPlan): CollectMetrics {
    return f({ kind: "collectMetrics", name, metrics: f([...metrics]), sink, child });
  },
  watermark(eventTime: string, delayMs: number, child: LogicalPlan): EventTimeWatermark {
    return f({ kind: "watermark", eventTime, delayMs, child });
  },
  subqueryAlias(alias: string, child: LogicalPlan, columnNames?: readonly string[]): SubqueryAlias {
    return f(
      columnNames ? { kind: "subqueryAlias", alias, child, columnNames: f([...columnNames]) } : { kind: "subqueryAlias", alias, child },
    );
  },
  window(windowExprs: readonly NamedExpr[], partitionBy: readonly Expr[], orderBy: readonly SortOrder[], child: LogicalPlan): Window {
    return f({
      kind: "window",
      windowExprs: f([...windowExprs]),
      partitionBy: f([...partitionBy]),
      orderBy: f([...orderBy]),
      child,
    });
  },
  transformWithState(node: Omit<TransformWithState, "kind">): TransformWithState {
    return f({
      ...node,
      kind: "transformWithState",
      groupingExprs: f([...node.groupingExprs]),
      output: f([...node.output]),
      initialGrouping: f([...node.initialGrouping]),
    });
  },
  generate(
    generator: Call,
    outer: boolean,
    names: readonly string[],
    qualifier: string | null,
    generatorOutput: readonly Attribute[] | null,
    child: LogicalPlan,
    unrequiredChildIndex: readonly number[] = [],
  ): Generate {
    return f({
      kind: "generate",
      generator,
      outer,
      names: f([...names]),
      qualifier,
      generatorOutput: generatorOutput ? f([...generatorOutput]) : null,
      unrequiredChildIndex: f([...unrequiredChildIndex]),
      child,
    });
  },
  expand(projections: readonly (readonly Expr[])[], output: readonly Attribute[], child: LogicalPlan): Expand {
    return f({ kind: "expand", projections: f(projections.map((p) => f([...p]))), output: f([...output]), child });
  },
};

export function planChildren(p: LogicalPlan): readonly LogicalPlan[] {
  switch (p.kind) {
    case "localRelation":
    case "range":
    case "fileRelation":
    case "streamingRelation":
    case "unresolvedRelation":
      return [];
    case "join":
    case "setOperation":
      return [p.left, p.right];
    case "union":
      return p.children;
    case "transformWithState":
      return p.initialState ? [p.child, p.initialState] : [p.child];
    default:
      return [p.child];
  }
}

export function withPlanChildren(p: LogicalPlan, c: readonly LogicalPlan[]): LogicalPlan {
  switch (p.kind) {
    case "localRelation":
    case "range":
    case "fileRelation":
    case "streamingRelation":
    case "unresolvedRelation":
      return p;
    case "join":
    case "setOperation":
      return f({ ...p, left: c[0]!, right: c[1]! });
    case "union":
      return f({ ...p, children: f([...c]) });
    case "transformWithState":
      return f({ ...p, child: c[0]!, initialState: c[1] ?? null });
    default:
      return f({ ...p, child: c[0]! }) as LogicalPlan;
  }
}

export function transformPlanUp(p: LogicalPlan, fn: (p: LogicalPlan) => LogicalPlan): LogicalPlan {
  const kids = planChildren(p);
  let node = p;
  if (kids.length > 0) {
    const next = kids.map((k) => transformPlanUp(k, fn));
    if (next.some((k, i) => k !== kids[i])) node = withPlanChildren(p, next);
  }
  return fn(node);
}

export function anyPlan(p: LogicalPlan, pred: (p: LogicalPlan) => boolean): boolean {
  return pred(p) || planChildren(p).some((c) => anyPlan(c, pred));
}

export function isStreamingPlan(p: LogicalPlan): boolean {
  return anyPlan(p, (n) => n.kind === "streamingRelation" || (n.kind === "localRelation" && n.isStreaming));
}

export function namedOutput(e: NamedExpr): string {
  return e.name;
}
