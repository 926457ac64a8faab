/**
 * The analyzer: turns a plan built by the DataFrame API or the SQL parser into a resolved plan
 * (every column bound to an attribute, every call type-checked, implicit casts inserted,
 * `window()` rewritten, `*` expanded). It runs bottom-up, one node at a time.
 */
import { AnalysisException, WrongNumArgsException } from "../common/errors.js";
import { ifToCaseWhen } from "../functions/conditionals.js";
import { isGeneratorCall } from "../functions/generators.js";
import { isHigherOrderCall } from "../functions/higher-order-registry.js";
import { lookupFunction } from "../functions/index.js";
import { translateJavaRegex } from "../functions/java-regex.js";
import { castTo, checkAliasArity, typeMismatch } from "../functions/registry.js";
import {
  type Attribute,
  alias,
  anyExpr,
  type Call,
  call,
  type Expr,
  exprChildren,
  isDataFrameColumn,
  isQualifiedAccessOnly,
  literal,
  type SortOrder,
  transformDown,
  transformUp,
  withChildren,
  withoutAccessMark,
} from "../plan/expressions.js";
import { type Aggregate, isStreamingPlan, type LogicalPlan, Plans, planChildren, withPlanChildren } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerType, withAnsiWidening } from "../types/coercion.js";
import { StringType, sqlTypeName } from "../types/datatypes.js";
import { checkFilterCondition, checkFilteredCall } from "./aggregate-filter.js";
import { checkAggregate, isAggregateCall, resolveHiddenAggregates } from "./aggregate-rules.js";
import { castRefusal, castRefused } from "./cast-rules.js";
import { rewriteDateArithmetic } from "./date-arithmetic.js";
import { generatorOutsideSelect, liftAggregateGenerator, liftGenerators, resolveGenerate } from "./generators.js";
import { resolveGroupingSets, rewriteGroupingAbove } from "./grouping-sets.js";
import { withHiddenColumns } from "./hidden-columns.js";
import { inputFileColumn, readsInputFile } from "./input-file.js";
import { resolveJoin } from "./join-rules.js";
import { bindHigherOrder, LambdaScope } from "./lambdas.js";
import { withLateralAliases, withSelectAliases } from "./lateral-aliases.js";
import { resolveCollectMetrics } from "./observed-metrics.js";
import { expandPivot, expandUnpivot } from "./pivot-rules.js";
import { resolveColumn, unresolvedColumn } from "./resolve-names.js";
import { rewriteSetOperation } from "./set-operations.js";
import { resolveTransformWithState } from "./stateful-rules.js";
import {
  hasScalarSubquery,
  havingScalarSubqueries,
  isSubqueryCall,
  joinExistenceSubqueries,
  joinScalarSubqueries,
  joinSubqueries,
  subqueryOutsideWhere,
} from "./subqueries.js";
import { extractTimeWindow, hasTimeWindow } from "./time-windows.js";
import { outputOf, toAttribute, typeOf } from "./types.js";
import { resolveUnion } from "./union-rules.js";
import {
  checkWindowPlacement,
  extractWindows,
  hasAggregateOutsideWindow,
  hasWindow,
  refuseWindow,
  resolveWindowExpr,
  splitAggregateWindows,
} from "./window-rules.js";
import { isYearMonthMarker, resolveYearMonth, resolveYearMonthSequence, yearMonthOutsideArithmetic } from "./year-month.js";

/** Named relations the analyzer can see (temp views, memory-sink tables, saved tables). */
export interface Catalog {
  lookupRelation(name: string): LogicalPlan | undefined;
}

/** What analysis depends on beyond the plan: the ANSI setting (which casts Spark refuses, how FLOAT widens). */
export interface AnalysisSettings {
  readonly ansi: boolean;
}
/** The settings of the analysis running (it is synchronous); Spark 4's defaults outside one. */
let settings: AnalysisSettings = { ansi: true };

export function analyze(plan: LogicalPlan, catalog: Catalog, given?: AnalysisSettings): LogicalPlan {
  if (given === undefined) return analyzeNodes(plan, catalog, true);
  const outer = settings;
  settings = given;
  try {
    return withAnsiWidening(given.ansi, () => analyzeNodes(plan, catalog, true));
  } finally {
    settings = outer;
  }
}

/**
 * `root`: the node a DataFrame method just built (its children are analyzed DataFrames), whose
 * DataFrame-bound columns (`b.col("k")`) are checked against its input: refused when a self-join
 * beneath makes them ambiguous, looked for among a USING join's hidden keys when missing
 * (hidden-columns.ts).
 */
function analyzeNodes(plan: LogicalPlan, catalog: Catalog, root = false): LogicalPlan {
  const children = planChildren(plan).map((c) => analyzeNodes(c, catalog));
  const p = children.length ? withPlanChildren(plan, children) : plan;
  if (!root) return resolveNode(p, catalog);
  const hidden = withHiddenColumns(p);
  return hidden.restore(resolveNode(hidden.plan, catalog));
}

function resolveNode(p: LogicalPlan, catalog: Catalog): LogicalPlan {
  switch (p.kind) {
    case "localRelation":
    case "range":
    case "fileRelation":
    case "streamingRelation":
    case "expand":
      return p;
    case "pivot":
      return expandPivot(p, (q) => resolveNode(q, catalog), resolveExpr);
    case "unpivot":
      return expandUnpivot(p, (q) => resolveNode(q, catalog), resolveExpr);
    case "unresolvedRelation": {
      const found = catalog.lookupRelation(p.name);
      if (!found) {
        throw new AnalysisException(
          "TABLE_OR_VIEW_NOT_FOUND",
          `[TABLE_OR_VIEW_NOT_FOUND] The table or view \`${p.name}\` cannot be found. Verify the spelling and correctness of the schema and catalog.`,
        );
      }
      return Plans.subqueryAlias(p.name, found);
    }
    case "project": {
      if (p.qualify) return resolveQualify(p, catalog);
      if (p.projectList.some(hasSubqueryCall)) {
        // `*` is the rows' own columns, expanded before the subqueries' joins add theirs
        const list = expandStars(p.projectList, outputOf(p.child));
        // x IN (SELECT ...) / EXISTS (...) as values: existence joins beneath (subqueries.ts)
        const existence = joinExistenceSubqueries(list, p.child, subquerySteps(catalog), true);
        if (existence) return resolveNode(Plans.project(existence.exprs, existence.child), catalog);
        const scalar = joinScalarSubqueries(list, p.child, subquerySteps(catalog));
        if (scalar) return resolveNode(Plans.project(scalar.exprs, scalar.child), catalog);
      }
      const input = outputOf(p.child);
      const items = withLateralAliases(expandStars(p.projectList, input), input, resolvesIn);
      const lifted = liftGenerators(items, p.child, resolveExpr);
      if (lifted) return resolveNode(lifted, catalog);
      let exprs = items.map((e) => resolveExpr(e, input));
      let child = p.child;
      if (hasTimeWindow(exprs)) ({ exprs, child } = extractTimeWindow(exprs, child));
      for (const e of exprs) checkWindowPlacement(e);
      if (exprs.some(hasAggregateOutsideWindow)) {
        // select(count(x)) without groupBy is a global aggregate, as in Spark.
        return resolveNode(Plans.aggregate([], exprs.map(named), child), catalog);
      }
      if (exprs.some(hasWindow)) {
        const items = exprs.map(named);
        if (!items.some(readsInputFile)) return extractWindows(items, child);
        // input_file_name() beside or in window functions: computed beneath them (input-file.ts)
        const file = inputFileColumn(child, resolveExpr);
        return extractWindows(items.map(file.replace), file.child);
      }
      // a DataFrame USING join's projection keeps its hidden keys when analyzed again, a self-join's copy its mark
      return p.hidden || p.selfJoinCopy ? Plans.reproject(p, exprs.map(named), child) : Plans.project(exprs.map(named), child);
    }
    case "filter": {
      // x IN (SELECT ...) / EXISTS (SELECT ...) conjuncts: semi and anti joins (subqueries.ts)
      const joined = joinSubqueries(p.condition, p.child, subquerySteps(catalog));
      if (joined) {
        const plan = joined.rest === null ? joined.plan : resolveNode(Plans.filter(joined.rest, joined.plan), catalog);
        // an existence join's flag column is the filter's own: not part of its output
        return outputOf(plan).length === outputOf(p.child).length ? plan : Plans.project(outputOf(p.child), plan);
      }
      if (p.child.kind !== "aggregate") {
        // (SELECT ...) in the condition: joined beneath it, its column dropped above
        const scalar = joinScalarSubqueries([p.condition], p.child, subquerySteps(catalog));
        if (scalar) return Plans.project(outputOf(p.child), resolveNode(Plans.filter(scalar.exprs[0]!, scalar.child), catalog));
      }
      const input = outputOf(p.child);
      refuseWindow(p.condition, p.child.kind === "aggregate" ? "HAVING" : "WHERE");
      if (p.child.kind === "aggregate" && hasScalarSubquery(p.condition)) {
        // (SELECT ...) in a HAVING: joined above the aggregate, its column dropped above the filter
        const agg = p.child;
        const lifted = havingScalarSubqueries(p.condition, agg, subquerySteps(catalog));
        const condition = rewriteGroupingAbove(lifted.condition, agg, resolveExpr);
        return resolveHiddenAggregates(
          agg,
          [condition],
          (widened, [cond]) => {
            requireBoolean(cond!, "filter");
            return Plans.project(outputOf(widened), Plans.filter(cond!, lifted.joinTo(widened)));
          },
          resolveExpr,
          lifted.beside,
        );
      }
      const condition = p.child.kind === "aggregate" ? rewriteGroupingAbove(p.condition, p.child, resolveExpr) : p.condition;
      if (p.child.kind === "aggregate" && anyExpr(condition, (e) => (e.kind === "call" && isAggregateCall(e)) || isGroupingCall(e))) {
        return resolveHiddenAggregates(p.child, [condition], (agg, [cond]) => Plans.filter(cond!, agg), resolveExpr);
      }
      if (p.child.kind === "aggregate" && !resolvesIn(condition, input)) {
        // A grouping expression the SELECT list does not name (`HAVING upper(g) > 'A'`); any
        // other column is unresolved there, as in Spark.
        try {
          return resolveHiddenAggregates(p.child, [condition], (agg, [cond]) => Plans.filter(cond!, agg), resolveExpr);
        } catch (e) {
          if (e instanceof AnalysisException && e.errorClass === "MISSING_AGGREGATION") resolveExpr(condition, input);
          throw e;
        }
      }
      let cond = resolveExpr(condition, input);
      let child = p.child;
      if (hasTimeWindow([cond])) [cond, child] = ((r) => [r.exprs[0]!, r.child] as const)(extractTimeWindow([cond], child));
      requireBoolean(cond, "filter");
      return child === p.child ? Plans.filter(cond, child) : Plans.project(input, Plans.filter(cond, child));
    }
    case "aggregate": {
      const aliased = withGroupByAliases(p);
      if (aliased !== p) return resolveNode(aliased, catalog);
      if (p.groupingSets) {
        return resolveGroupingSets(
          p,
          resolveExpr,
          (items, input) => withLateralAliases(expandStars(items, input), input, resolvesIn).map((e) => named(resolveExpr(e, input))),
          (agg) => resolveNode(agg, catalog),
        );
      }
      const withGenerator = liftAggregateGenerator(p, (agg) => resolveNode(agg, catalog));
      if (withGenerator) return resolveNode(withGenerator, catalog);
      const input = outputOf(p.child);
      let groups = p.groupingExprs.map((e) => resolveExpr(e, input));
      let child = p.child;
      let aggs: Expr[];
      try {
        aggs = withLateralAliases(expandStars(p.aggregateExprs, input), input, resolvesIn).map((e) => resolveExpr(e, input));
      } catch (err) {
        if (!(err instanceof AnalysisException) || !err.errorClass.startsWith("UNRESOLVED_COLUMN") || !hasTimeWindow(groups)) throw err;
        // `SELECT window.start ... GROUP BY window(ts, ...)`: names read the `window` column the
        // grouping adds beneath the aggregate (Spark's TimeWindowing, then its name resolution)
        const r = extractTimeWindow(groups, child);
        groups = r.exprs;
        child = r.child;
        const windowed = outputOf(child);
        aggs = withLateralAliases(expandStars(p.aggregateExprs, input), windowed, resolvesIn).map((e) => resolveExpr(e, windowed));
      }
      if (hasTimeWindow([...groups, ...aggs])) {
        const r = extractTimeWindow([...groups, ...aggs], child);
        groups = r.exprs.slice(0, groups.length);
        aggs = r.exprs.slice(groups.length);
        child = r.child;
      }
      for (const g of groups) refuseWindow(g, "GROUP BY");
      for (const e of aggs) checkWindowPlacement(e);
      if (aggs.some(hasWindow)) return splitAggregateWindows(groups, aggs.map(named), child, checkAggregate);
      const result = Plans.aggregate(groups, aggs.map(named), child);
      checkAggregate(result);
      return result;
    }
    case "sort": {
      const input = outputOf(p.child);
      if (p.child.kind === "aggregate") {
        const agg = p.child;
        const orders = p.orders.map((o) => rewriteGroupingAbove(o, agg, resolveExpr) as SortOrder);
        if (orders.some((o, i) => o !== p.orders[i])) return resolveSortWithHiddenColumns(orders, agg);
        // ORDER BY count(*): an aggregate without a column reference resolves against anything,
        // yet must be the aggregate's own (it was sorted as a scalar call and failed to run)
        if (orders.some((o) => anyExpr(o, (x) => x.kind === "call" && isAggregateCall(x))))
          return resolveSortWithHiddenColumns(orders, agg);
      }
      if (p.child.kind === "deduplicate" && p.child.keys === null) {
        const orders = distinctOrdinals(p.orders, input);
        if (orders !== p.orders) return resolveNode(Plans.sort(orders, p.child), catalog);
      }
      const having = havingBelow(p.child);
      if (having && p.orders.some((o) => anyExpr(o, (x) => x.kind === "call" && isAggregateCall(x)) || !resolvesIn(o, input))) {
        // ORDER BY an aggregate above a HAVING: the aggregate takes it (hidden), below the HAVING's filter
        const sorted = resolveHiddenAggregates(
          having.agg,
          p.orders.map((o) => rewriteGroupingAbove(o, having.agg, resolveExpr) as SortOrder),
          (agg, os) => Plans.sort(os as SortOrder[], Plans.filter(having.condition, agg)),
          resolveExpr,
        );
        return outputOf(sorted).length === input.length ? sorted : Plans.project(input, sorted);
      }
      const tryResolve = (e: Expr) => {
        try {
          return resolveExpr(e, input);
        } catch (err) {
          if (err instanceof AnalysisException && p.child.kind === "aggregate") return null;
          if (err instanceof AnalysisException && p.child.kind === "project") return null;
          throw err;
        }
      };
      for (const o of p.orders) {
        if (hasWindow(o)) {
          throw new AnalysisException(
            "UNSUPPORTED_FEATURE",
            `[UNSUPPORTED_FEATURE] A window function in ORDER BY (${exprToSql(o.child)}) is not supported in arus; select it as a column and order by that column.`,
          );
        }
      }
      const orders = p.orders.map(tryResolve) as (SortOrder | null)[];
      if (orders.every((o) => o !== null)) {
        if (!orders.some(readsInputFile)) return Plans.sort(orders, p.child);
        // input_file_name() among the keys: computed beneath the sort (input-file.ts)
        const file = inputFileColumn(p.child, resolveExpr);
        return Plans.project(input, Plans.sort(orders.map(file.replace), file.child));
      }
      return resolveSortWithHiddenColumns(p.orders, p.child);
    }
    case "subqueryAlias":
      return p.columnNames ? renameColumns(p, p.columnNames) : p;
    case "limit":
    case "window":
      return p;
    case "distinct": {
      // SQL DISTINCT (and UNION's) is Spark's Distinct: on a stream an aggregation over every
      // column (ReplaceDistinctWithAggregate), with the output-mode rules of one; in a batch the
      // same rows as dropping duplicates. (DataFrame.distinct() is dropDuplicates() itself.)
      if (!isStreamingPlan(p.child)) return Plans.deduplicate(null, p.child);
      const out = outputOf(p.child);
      return resolveNode(Plans.aggregate(out, out, p.child), catalog);
    }
    case "deduplicate": {
      const out = outputOf(p.child);
      for (const k of p.keys ?? []) if (!resolveColumn([k], out)) throw unresolvedColumn([k], out);
      return p;
    }
    case "collectMetrics":
      return resolveCollectMetrics(p, resolveExpr);
    case "watermark": {
      const out = outputOf(p.child);
      const ts = resolveColumn([p.eventTime], out);
      if (!ts) throw unresolvedColumn([p.eventTime], out);
      const t = typeOf(ts);
      const isWindow = t.kind === "struct" && t.fields.length === 2 && t.fields.every((f) => f.type.kind === "timestamp");
      if (t.kind !== "timestamp" && !isWindow) {
        throw new AnalysisException(
          "EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
          `[EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE] The event time \`${p.eventTime}\` has the invalid type "${sqlTypeName(t)}", but expected "TIMESTAMP".`,
        );
      }
      // the column's own name from here on (`withWatermark("TS")` on `ts`): planning, group mode
      // and progress then find it by name as they find any column
      if (ts.kind === "attribute" && ts.name !== p.eventTime) return Plans.watermark(ts.name, p.delayMs, p.child);
      return p;
    }
    case "union":
      return resolveUnion(p);
    case "setOperation":
      return analyze(rewriteSetOperation(p), catalog);
    case "join":
      return resolveJoin(p, resolveExpr);
    case "transformWithState":
      return resolveTransformWithState(p, resolveExpr);
    case "generate":
      return resolveGenerate(p, resolveExpr);
  }
}

const hasSubqueryCall = (e: Expr): boolean => anyExpr(e, isSubqueryCall);
const isGroupingCall = (e: Expr) => e.kind === "call" && (e.name === "__grouping_bit" || e.name === "__grouping_id");

function named(e: Expr): Expr {
  // a DataFrame's column selected is an ordinary output column (no longer checked where it lands)
  if (e.kind === "attribute") return withoutAccessMark(isDataFrameColumn(e) ? Object.freeze({ ...e }) : e);
  if (e.kind === "alias") return e;
  // Spark's ResolveAliases: a cast written on a column keeps the column's name (CAST(s AS INT) is `s`)
  if (e.kind === "cast" && !e.implicit && e.child.kind === "attribute") return alias(e, e.child.name);
  // a column path (`select("s.a")`) is named by its last part; inside an expression it is `s.a`
  if (e.kind === "call" && e.name === "getfield" && e.bare && e.args[1]?.kind === "literal") return alias(e, String(e.args[1].value));
  return alias(e, exprToSql(e));
}

/**
 * A select list's stars expanded: `*` and `t.*` into the input's columns, `s.*` into a struct's
 * fields, and a star among a function's arguments into its columns in place (`struct(*)`,
 * `hash(*)`, `to_json(struct(t.*))`, `count(DISTINCT *)`, as Spark's ResolveReferences expands
 * them; `count(*)` is count's own: count(1)).
 */
function expandStars(exprs: readonly Expr[], input: readonly Attribute[]): Expr[] {
  return exprs.flatMap((top) => {
    const e = top.kind === "star" ? top : expandStarArguments(top, input);
    if (e.kind !== "star") return [e];
    if (e.regex !== undefined) return regexColumns(e.regex, e.qualifier, input);
    // `df.col("*")`: that DataFrame's columns, as Spark's ResolvedStar
    if (e.attributes) return [...e.attributes];
    // `*` leaves out a USING join's hidden keys; `t2.*` has them (join-rules.ts)
    if (e.qualifier === null) return input.filter((a) => !isQualifiedAccessOnly(a));
    const q = e.qualifier.toLowerCase();
    const hits = input.filter((a) => a.qualifier.some((x) => x.toLowerCase() === q));
    if (hits.length === 0) {
      // Spark's UnresolvedStar.expand: no relation has that name, so `s.*` is a struct column's
      // fields (also nested: `a.b.*`), each as getfield(s, name) named by the field.
      const target = resolveColumn(e.qualifier.split("."), input);
      const t = target ? typeOf(target) : null;
      if (target && t?.kind === "struct")
        return t.fields.map((f) => alias(call("getfield", [target, literal(f.name, StringType)]), f.name));
      if (target) {
        throw new AnalysisException(
          "INVALID_USAGE_OF_STAR_OR_REGEX",
          `[INVALID_USAGE_OF_STAR_OR_REGEX] Invalid usage of '*' in expression \`${e.qualifier}\`.* (can only star expand struct data types, not ${sqlTypeName(t!)}).`,
        );
      }
      throw new AnalysisException(
        "CANNOT_RESOLVE_STAR_EXPAND",
        `[CANNOT_RESOLVE_STAR_EXPAND] Cannot resolve \`${e.qualifier}\`.* given input columns ${input.map((a) => `\`${a.name}\``).join(", ")}.`,
      );
    }
    return hits;
  });
}

/**
 * colRegex's columns: those (of the qualifier's relation, when named) whose names the Java
 * regex matches whole, case-insensitively as Spark's default; none is no column, as in Spark.
 */
function regexColumns(regex: string, qualifier: string | null, input: readonly Attribute[]): Attribute[] {
  const { source, flags } = translateJavaRegex(regex);
  const whole = new RegExp(`^(?:${source})$`, `${flags.replace("i", "")}i`);
  const q = qualifier?.toLowerCase();
  return input.filter(
    (a) => !isQualifiedAccessOnly(a) && (q === undefined || a.qualifier.some((x) => x.toLowerCase() === q)) && whole.test(a.name),
  );
}

/**
 * SELECT ... QUALIFY cond: the select list computed with the condition beside it (the condition
 * may name the list's aliases, `QUALIFY r = 1`, which stand for their expressions where no input
 * column has the name), its rows kept where the condition holds, then the list alone — Spark's
 * Filter over the window functions' Project. A QUALIFY needs a window function in the list or
 * in the condition (QUALIFY_REQUIRES_WINDOW_FUNCTION).
 */
function resolveQualify(p: LogicalPlan & { kind: "project" }, catalog: Catalog): LogicalPlan {
  const input = outputOf(p.child);
  const items = expandStars(p.projectList, input);
  const aliases = new Map(items.flatMap((e) => (e.kind === "alias" ? [[e.name.toLowerCase(), e.child] as const] : [])));
  const cond = withSelectAliases(p.qualify!, aliases, input, resolvesIn);
  if (!items.some(hasWindow) && !hasWindow(cond)) {
    throw new AnalysisException(
      "QUALIFY_REQUIRES_WINDOW_FUNCTION",
      "[QUALIFY_REQUIRES_WINDOW_FUNCTION] The QUALIFY clause requires at least one window function in the current SELECT list or the QUALIFY condition.",
    );
  }
  const inner = resolveNode(Plans.project([...items, alias(cond, QUALIFY_COLUMN)], p.child), catalog);
  const out = outputOf(inner);
  const keep = out[out.length - 1]!;
  requireBoolean(keep, "QUALIFY");
  return Plans.project(out.slice(0, -1), Plans.filter(keep, inner));
}
const QUALIFY_COLUMN = "__qualify";

/** How subqueries.ts analyzes a subquery and resolves its conditions. */
function subquerySteps(catalog: Catalog) {
  return { analyze: (q: LogicalPlan) => analyzeNodes(q, catalog), resolveExpr };
}

function expandStarArguments(e: Expr, input: readonly Attribute[]): Expr {
  return transformUp(e, (x) =>
    x.kind === "call" && (x.name.toLowerCase() !== "count" || x.distinct) && x.args.some((a) => a.kind === "star")
      ? withChildren(x, expandStars(x.args, input))
      : x,
  );
}

function requireBoolean(e: Expr, where: string): void {
  const t = typeOf(e);
  if (t.kind !== "boolean" && t.kind !== "null") {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
      `[DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN] Cannot resolve "${exprToSql(e)}" due to data type mismatch: Filter expression "${exprToSql(e)}" of type "${sqlTypeName(t)}" is not a boolean. (in ${where})`,
    );
  }
}

/**
 * Resolve one expression against input attributes: bind names, check calls, insert casts.
 * `scope`: the lambda variables visible here (inside a higher-order function's lambda).
 */
export function resolveExpr(e: Expr, input: readonly Attribute[], scope: LambdaScope = LambdaScope.EMPTY): Expr {
  // A higher-order call is resolved whole, lambdas included (analyzer/lambdas.ts).
  const whole = new Set<Expr>();
  const bound = transformDown(e, (x) => {
    if (isHigherOrderCall(x)) {
      const r = resolveCall(bindHigherOrder(x as Call, input, scope, resolveExpr));
      whole.add(r);
      return r;
    }
    if (x.kind !== "column") return x;
    const r = scope.lookup(x.nameParts) ?? resolveColumn(x.nameParts, input);
    if (!r) throw unresolvedColumn(x.nameParts, input);
    return r;
  });
  return whole.size === 0 ? transformUp(bound, resolveCall) : transformUpExcept(bound, whole, resolveCall);
}

/** transformUp that leaves the nodes in `done` (and what is under them) as they are. */
function transformUpExcept(e: Expr, done: ReadonlySet<Expr>, fn: (e: Expr) => Expr): Expr {
  if (done.has(e)) return e;
  const kids = exprChildren(e);
  const next = kids.map((k) => transformUpExcept(k, done, fn));
  return fn(next.some((k, i) => k !== kids[i]) ? withChildren(e, next) : e);
}

function resolveCall(e: Expr): Expr {
  if (e.kind === "caseWhen") return resolveCaseWhen(e);
  if (e.kind === "windowExpr") return resolveWindowExpr(e);
  if (e.kind === "cast") {
    // a cast the user wrote (TRY_CAST by the ANSI rules always), refused as Spark refuses it (cast-rules.ts)
    if (!e.implicit) {
      const from = typeOf(e.child);
      const refusal = castRefusal(from, e.to, settings.ansi || e.tryCast === true);
      if (refusal !== null) throw castRefused(e, from, refusal);
    }
    return e;
  }
  if (e.kind !== "call") return e;
  if (isSubqueryCall(e)) throw subqueryOutsideWhere(e);
  if (e.name === "window" || e.name === "session_window") return e;
  if (e.name === "if") return resolveCaseWhen(ifToCaseWhen(e) as Expr & { kind: "caseWhen" });
  if (isYearMonthMarker(e)) return e; // for the + or - above it
  const ym = resolveYearMonth(e);
  if (ym !== null) return isYearMonthMarker(ym) ? ym : resolveCall(ym);
  const ymSequence = resolveYearMonthSequence(e);
  if (ymSequence !== null) return resolveCall(ymSequence);
  if (e.args.some(isYearMonthMarker)) throw yearMonthOutsideArithmetic();
  const dated = rewriteDateArithmetic(e);
  if (dated !== null) return resolveCall(dated);
  if (isGeneratorCall(e)) throw generatorOutsideSelect(e as Call);
  // s['b'] / col("s").getItem("b") on a struct is Spark's GetStructField, named `s.b`
  if (e.name === "getitem" && e.args.length === 2 && e.args[1]!.kind === "literal" && typeOf(e.args[0]!).kind === "struct") {
    return resolveCall(call("getfield", e.args));
  }
  const fn = lookupFunction(e.name);
  if (!fn || (e.fromText && fn.kind === "scalar" && fn.internal)) {
    throw new AnalysisException(
      "UNRESOLVED_ROUTINE",
      `[UNRESOLVED_ROUTINE] Cannot resolve routine \`${e.name}\` on search path [\`system\`.\`builtin\`, \`system\`.\`session\`].`,
    );
  }
  if (e.args.some((a) => a.kind === "star") && !(e.name === "count")) {
    throw new AnalysisException("INVALID_USAGE_OF_STAR_OR_REGEX", `[INVALID_USAGE_OF_STAR_OR_REGEX] Invalid usage of '*' in ${e.name}.`);
  }
  const args =
    e.name === "count"
      ? e.args.map((a) => (a.kind === "star" ? ({ kind: "literal", value: 1, type: { kind: "int" } } as Expr) : a))
      : e.args;
  if (e.aggFilter) checkFilteredCall(e, fn.kind === "aggregate");
  checkAliasArity(e.name, args);
  const types = args.map(typeOf);
  try {
    const r = fn.kind === "aggregate" ? fn.resolve(args, types, e, e.distinct) : fn.resolve(args, types, e);
    refuseComplexToString(e, r.args);
    return withChildren(e, r.args);
  } catch (err) {
    // Spark names a function with the wrong argument count as it was called (`substr`, `mean`)
    throw err instanceof WrongNumArgsException && !err.nameIsSparks && err.functionName !== e.name ? err.renamed(e.name) : err;
  }
}

/**
 * Spark never casts an ARRAY, MAP or STRUCT to a STRING implicitly: a function whose resolution
 * did (`btrim(array(1))`, `levenshtein(map(...), 'a')`) is refused as Spark refuses it, instead
 * of working on the value's text.
 */
function refuseComplexToString(call: Expr, args: readonly Expr[]): void {
  args.forEach((a, i) => {
    if (a.kind !== "cast" || !a.implicit || a.to.kind !== "string") return;
    const from = typeOf(a.child);
    if (from.kind === "array" || from.kind === "map" || from.kind === "struct") throw typeMismatch(call, i, '"STRING"', a.child, from);
  });
}

/** `t(a, b)` on a relation: its columns renamed by position, as Spark's column aliases. */
function renameColumns(p: LogicalPlan & { kind: "subqueryAlias" }, names: readonly string[]): LogicalPlan {
  const out = outputOf(p.child);
  if (names.length !== out.length) {
    throw p.child.kind === "range"
      ? new AnalysisException(
          "NUM_TABLE_VALUE_ALIASES_MISMATCH",
          "[NUM_TABLE_VALUE_ALIASES_MISMATCH] Number of given aliases does not match number of output columns.",
        )
      : new AnalysisException(
          "ASSIGNMENT_ARITY_MISMATCH",
          `[ASSIGNMENT_ARITY_MISMATCH] The number of columns or variables assigned or aliased: ${out.length} does not match the number of source expressions: ${names.length}.`,
        );
  }
  return Plans.subqueryAlias(
    p.alias,
    Plans.project(
      out.map((a, i) => alias(a, names[i]!)),
      p.child,
    ),
  );
}

function resolveCaseWhen(e: Expr & { kind: "caseWhen" }): Expr {
  if (e.filterMask) checkFilterCondition(e);
  const values = [...e.branches.map((b) => b[1]), ...(e.otherwise ? [e.otherwise] : [])];
  let t = typeOf(values[0]!);
  for (const v of values.slice(1)) {
    const w = widerType(t, typeOf(v));
    if (!w) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
        `[DATATYPE_MISMATCH.DATA_DIFF_TYPES] Cannot resolve "${exprToSql(e)}" due to data type mismatch: Input to \`casewhen\` should all be the same type, but it's [${values.map((x) => `"${sqlTypeName(typeOf(x))}"`).join(", ")}].`,
      );
    }
    t = w;
  }
  // Spark's CaseWhen takes BOOLEAN conditions only, a NULL literal's VOID too; `if` takes a NULL
  // (its coercion makes it a BOOLEAN NULL); a FILTER clause's mask was checked above
  e.branches.forEach(([c], i) => {
    const ct = typeOf(c);
    if (ct.kind === "boolean" || e.filterMask || (e.fromIf && ct.kind === "null")) return;
    throw typeMismatch(e, i, '"BOOLEAN"', c, ct);
  });
  const fix = (v: Expr) => castTo(v, typeOf(v), t);
  const kids = exprChildren(e).map((k, i) => (i < e.branches.length * 2 ? (i % 2 === 1 ? fix(k) : k) : fix(k)));
  return withChildren(e, kids);
}

/** A HAVING below an ORDER BY: its filter's condition and the aggregate under it (a projection may hide the HAVING's own hidden aggregates). */
function havingBelow(p: LogicalPlan): { condition: Expr; agg: Aggregate } | null {
  const filter = p.kind === "project" && p.child.kind === "filter" ? p.child : p;
  if (filter.kind !== "filter" || filter.child.kind !== "aggregate") return null;
  return { condition: filter.condition, agg: filter.child };
}

/**
 * GROUP BY a select-list alias (`SELECT id % 2 AS m ... GROUP BY m`, ROLLUP(m) too): a one-part
 * name the input does not have, but an item of the SELECT list is named, stands for that item's
 * expression (Spark's spark.sql.groupByAliases, on by default). Returns `p` when none applies.
 */
function withGroupByAliases(p: Aggregate): Aggregate {
  const input = outputOf(p.child);
  const aliases = new Map<string, Expr>();
  for (const item of p.aggregateExprs) {
    if (item.kind === "alias" && !anyExpr(item.child, (x) => x.kind === "call" && isAggregateCall(x)))
      if (!aliases.has(item.name.toLowerCase())) aliases.set(item.name.toLowerCase(), item.child);
  }
  const groups = p.groupingExprs.map((g) => withSelectAliases(g, aliases, input, resolvesIn));
  return groups.some((g, i) => g !== p.groupingExprs[i]) ? { ...p, groupingExprs: groups } : p;
}

/**
 * ORDER BY n over SELECT DISTINCT: the n-th output column, also when its item is an unnamed
 * expression (`SELECT DISTINCT k % 2 ... ORDER BY 1`), which the DISTINCT's output cannot
 * resolve as written (Spark refuses `ORDER BY k % 2` there, and so does arus). Returns `orders`
 * when nothing was replaced.
 */
function distinctOrdinals(orders: readonly SortOrder[], input: readonly Attribute[]): SortOrder[] {
  let changed = false;
  const out = orders.map((o) => {
    if (o.ordinal === undefined || !input[o.ordinal - 1] || resolvesIn(o, input)) return o;
    changed = true;
    return { ...o, child: input[o.ordinal - 1]! };
  });
  return changed ? out : (orders as SortOrder[]);
}

function resolvesIn(e: Expr, input: readonly Attribute[]): boolean {
  try {
    resolveExpr(e, input);
    return true;
  } catch (err) {
    if (err instanceof AnalysisException) return false;
    throw err;
  }
}

function resolveSortWithHiddenColumns(orders: readonly SortOrder[], child: LogicalPlan): LogicalPlan {
  if (child.kind === "aggregate") {
    return resolveHiddenAggregates(child, orders, (agg, os) => Plans.sort(os as SortOrder[], agg), resolveExpr);
  }
  if (child.kind !== "project") throw new Error("unreachable");
  const visible = outputOf(child);
  const below = outputOf(child.child);
  const resolved = orders.map((o) => {
    try {
      return resolveExpr(o, visible) as SortOrder;
    } catch {
      return resolveExpr(o, below) as SortOrder;
    }
  });
  const visibleIds = new Set(visible.map((a) => a.exprId));
  const extra: Attribute[] = [];
  for (const o of resolved) {
    transformUp(o, (x) => {
      if (x.kind === "attribute" && !visibleIds.has(x.exprId) && !extra.some((a) => a.exprId === x.exprId)) extra.push(x);
      return x;
    });
  }
  const widened = Plans.project([...child.projectList, ...extra], child.child);
  return Plans.project(visible, Plans.sort(resolved, widened));
}

export { semanticKey, toAttribute };
