/**
 * GROUPING SETS, ROLLUP and CUBE (Spark's ResolveGroupingAnalytics): an Expand emits each input
 * row once per grouping set, with the grouping columns outside the set set to NULL and a
 * `spark_grouping_id` column (BIGINT; bit n-1-i set when grouping column i is rolled up), and a
 * plain Aggregate groups by the expanded columns plus that id. In the SELECT list, grouping
 * expressions read the expanded (nullable) columns, except inside aggregate functions, which
 * read the input's own values; grouping(c) and grouping_id(...) read the id.
 */
import { AnalysisException, arityError } from "../common/errors.js";
import { isAggregateCall, typeOf } from "../functions/typing.js";
import {
  type Attribute,
  alias,
  anyExpr,
  attribute,
  call,
  type Expr,
  exprChildren,
  literal,
  transformDown,
  withChildren,
} from "../plan/expressions.js";
import { type Aggregate, type LogicalPlan, Plans } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { exprToSql } from "../plan/sql-text.js";
import { IntegerType, LongType, StringType } from "../types/datatypes.js";
import { outputOf } from "./types.js";

type Resolve = (e: Expr, input: readonly Attribute[]) => Expr;

/** Rewrite an Aggregate with grouping sets into Aggregate(Expand(child)); `finish` resolves the rest as any Aggregate. */
export function resolveGroupingSets(
  p: Aggregate,
  resolveExpr: Resolve,
  prepareItems: (items: readonly Expr[], input: readonly Attribute[]) => Expr[],
  finish: (agg: Aggregate) => LogicalPlan,
): LogicalPlan {
  const input = outputOf(p.child);
  const groups = p.groupingExprs.map((g) => resolveExpr(g, input));
  const n = groups.length;
  if (n > 63)
    throw new AnalysisException(
      "GROUPING_SIZE_LIMIT_EXCEEDED",
      "[GROUPING_SIZE_LIMIT_EXCEEDED] Grouping sets size cannot be greater than 64.",
    );
  const expanded = groups.map((g) => attribute(g.kind === "attribute" ? g.name : exprToSql(g), typeOf(g), true));
  const ids = p.groupingSets!.map((set) => {
    let id = 0;
    for (let i = 0; i < n; i++) if (!set.includes(i)) id += 2 ** (n - 1 - i);
    return id;
  });
  // The same set twice (`GROUP BY k, ROLLUP(k)`) gives its groups twice, as Spark's Expand does
  // with its `_gen_grouping_pos` column: each set's rows aggregated apart, not summed together.
  const position = new Set(ids).size < ids.length ? attribute("_gen_grouping_pos", IntegerType, false) : null;
  const projections = p.groupingSets!.map((set, s) => [
    ...input,
    ...groups.map((g, i) => (set.includes(i) ? g : literal(null, typeOf(g)))),
    literal(ids[s]!, LongType),
    ...(position ? [literal(s, IntegerType)] : []),
  ]);

  const keys = groups.map(semanticKey);
  const gid = attribute("spark_grouping_id", LongType, false, {
    metadata: { [GROUPING_KEYS]: keys, [GROUPING_COLUMNS]: expanded.map((a) => a.exprId) },
  });
  const rewriteGrouping = (e: Expr) =>
    rewriteGroupingCalls(e, gid, groups.map(exprToSql), (a) => keys.indexOf(semanticKey(resolveExpr(a, input))));
  const expand = Plans.expand(projections, [...input, ...expanded, gid, ...(position ? [position] : [])], p.child);
  const items = prepareItems(p.aggregateExprs.map(rewriteGrouping), input);
  // Grouping expressions read the expanded columns, except inside aggregate functions.
  const byKey = new Map(keys.map((k, i) => [k, expanded[i]!]));
  const swap = (e: Expr): Expr => {
    if (e.kind !== "alias") {
      const hit = byKey.get(semanticKey(e));
      if (hit) return hit;
    }
    if (isAggregateCall(e)) return e;
    const kids = exprChildren(e);
    const next = kids.map(swap);
    return next.some((k, i) => k !== kids[i]) ? withChildren(e, next) : e;
  };
  const aggs = items.map((e) => (e.kind === "attribute" && byKey.has(semanticKey(e)) ? renamed(byKey.get(semanticKey(e))!, e) : swap(e)));
  return finish(Plans.aggregate([...expanded, gid, ...(position ? [position] : [])], aggs, expand));
}

/** Metadata of `spark_grouping_id`: the grouping expressions' semantic keys and the expanded columns' ids, for HAVING / ORDER BY. */
const GROUPING_KEYS = "arus.groupingKeys";
const GROUPING_COLUMNS = "arus.groupingColumns";

/**
 * grouping(c) → `__grouping_bit(gid, n-1-i, 'c')`, grouping_id(...) → `__grouping_id(gid, ...)`;
 * `indexOf` finds an argument's grouping column (-1: not one). The names only name the column.
 */
export function rewriteGroupingCalls(e: Expr, gid: Attribute, groupNames: readonly string[], indexOf: (arg: Expr) => number): Expr {
  const n = groupNames.length;
  return transformDown(e, (x) => {
    if (x.kind !== "call" || (x.name !== "grouping" && x.name !== "grouping_id")) return x;
    const positions = x.args.map(indexOf);
    const text = (a: Expr, i: number) => (positions[i]! >= 0 ? groupNames[positions[i]!]! : exprToSql(a));
    if (x.name === "grouping") {
      if (x.args.length !== 1) {
        throw arityError("grouping", "1", x.args.length);
      }
      if (positions[0]! < 0) {
        throw new AnalysisException(
          "GROUPING_COLUMN_MISMATCH",
          `[GROUPING_COLUMN_MISMATCH] Column of grouping (${exprToSql(x.args[0]!)}) can't be found in grouping columns ${groupNames.join(",")}.`,
        );
      }
      return call("__grouping_bit", [gid, literal(n - 1 - positions[0]!, IntegerType), literal(text(x.args[0]!, 0), StringType)]);
    }
    if (x.args.length > 0 && (x.args.length !== n || positions.some((p, i) => p !== i))) {
      throw new AnalysisException(
        "GROUPING_ID_COLUMN_MISMATCH",
        `[GROUPING_ID_COLUMN_MISMATCH] Columns of grouping_id (${x.args.map(exprToSql).join(",")}) does not match grouping columns (${groupNames.join(",")}).`,
      );
    }
    return call("__grouping_id", [gid, ...x.args.map((a, i) => literal(text(a, i), StringType))]);
  });
}

/** HAVING / ORDER BY over an aggregation with grouping sets: grouping() calls read its grouping id. */
export function rewriteGroupingAbove(e: Expr, agg: Aggregate, resolveExpr: Resolve): Expr {
  const gid = agg.groupingExprs.find((g) => g.kind === "attribute" && g.metadata[GROUPING_KEYS] !== undefined) as Attribute | undefined;
  if (!gid || !anyExpr(e, (x) => x.kind === "call" && (x.name === "grouping" || x.name === "grouping_id"))) return e;
  const keys = gid.metadata[GROUPING_KEYS] as string[];
  const columns = gid.metadata[GROUPING_COLUMNS] as number[];
  const visible = outputOf(agg);
  const below = outputOf(agg.child).filter((a) => !columns.includes(a.exprId) && a.exprId !== gid.exprId);
  const names = agg.groupingExprs.slice(0, columns.length).map(exprToSql);
  const indexOf = (a: Expr): number => {
    let r: Expr;
    try {
      r = resolveExpr(a, visible);
    } catch {
      r = resolveExpr(a, below);
    }
    if (r.kind === "attribute" && columns.includes(r.exprId)) return columns.indexOf(r.exprId);
    const item = agg.aggregateExprs.find((x) => r.kind === "attribute" && x.kind === "alias" && x.exprId === r.exprId);
    if (item?.kind === "alias" && item.child.kind === "attribute" && columns.includes(item.child.exprId))
      return columns.indexOf(item.child.exprId);
    return keys.indexOf(semanticKey(r));
  };
  return rewriteGroupingCalls(e, gid, names, indexOf);
}

/**
 * An aggregation with grouping sets: each grouping expression's semantic key (over the input)
 * → its expanded column, so a HAVING / ORDER BY naming `upper(g)` reads the column ROLLUP(upper(g))
 * nulled. Empty for any other aggregation.
 */
export function expandedGroupingColumns(agg: Aggregate): Map<string, Attribute> {
  const gid = agg.groupingExprs.find((g) => g.kind === "attribute" && g.metadata[GROUPING_KEYS] !== undefined) as Attribute | undefined;
  if (!gid) return new Map();
  const keys = gid.metadata[GROUPING_KEYS] as string[];
  const columns = gid.metadata[GROUPING_COLUMNS] as number[];
  const byId = new Map(agg.groupingExprs.flatMap((g) => (g.kind === "attribute" ? [[g.exprId, g] as const] : [])));
  return new Map(keys.flatMap((k, i) => (byId.has(columns[i]!) ? [[k, byId.get(columns[i]!)!] as const] : [])));
}

/** A select item that is a grouping column keeps its own name (`k`, not the expanded column's). */
function renamed(expanded: Attribute, item: Attribute): Expr {
  return expanded.name === item.name ? expanded : alias(expanded, item.name);
}
