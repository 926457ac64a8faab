/**
 * SQL's PIVOT and UNPIVOT clauses, expanded once the relation's columns are known (Spark's
 * ResolvePivot and ResolveUnpivot):
 * - `PIVOT (agg [AS a], ... FOR col IN (v [AS name], ...))` groups by every column neither
 *   aggregated nor pivoted, as Spark's two-phase pivot (the DataFrame `pivot()` does the same):
 *   aggregate by those columns and the pivot column, then per group take each value's aggregate
 *   (`first(if(col <=> v, agg))`), so a value without rows is NULL, even for `count`. A column is
 *   named by the value's name (or the value), followed by `_` and the aggregate's name when there
 *   are several. `FOR (c1, c2) IN ((v1, v2) AS name, ...)` pivots on several columns.
 * - `UNPIVOT [INCLUDE | EXCLUDE NULLS] (val FOR name IN (c1 [AS n1], ...))` turns each row into one
 *   row per listed column: the other columns, the column's name, its value (the values cast to
 *   their least common type, no STRING promotion); `((v1, v2) FOR name IN ((a, b) AS x, ...))`
 *   several values at once. EXCLUDE NULLS, the default, drops the rows whose values are all NULL.
 */
import { AnalysisException } from "../common/errors.js";
import { valueToString } from "../functions/cast.js";
import {
  type Attribute,
  alias,
  type Call,
  call,
  caseWhen,
  cast,
  collectAttributes,
  type Expr,
  literal,
  multiAlias,
} from "../plan/expressions.js";
import { type LogicalPlan, type Pivot, Plans, type Unpivot } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { BooleanType, IntegerType, StringType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { outputOf, typeOf } from "./types.js";
import { hasAggregateOutsideWindow } from "./window-rules.js";

type ResolveExpr = (e: Expr, input: readonly Attribute[]) => Expr;
/** Resolves one node whose children are resolved. */
type ResolveNode = (p: LogicalPlan) => LogicalPlan;

const and = (xs: readonly Expr[]): Expr => xs.reduce((a, b) => call("and", [a, b]));

export function expandPivot(p: Pivot, resolve: ResolveNode, resolveExpr: ResolveExpr): LogicalPlan {
  const input = outputOf(p.child);
  const aggs = p.aggregates.map((a) => resolveExpr(a, input));
  for (const a of aggs) {
    if (!hasAggregateOutsideWindow(a)) {
      throw new AnalysisException(
        "_LEGACY_ERROR_TEMP_1006",
        `Aggregate expression required for pivot, but '${exprToSql(unaliased(a))}' did not appear in any aggregate function.`,
      );
    }
  }
  const pivots = p.pivotColumns.map((c) => resolveExpr(c, input));
  const used = new Set([...aggs, ...pivots].flatMap((e) => collectAttributes(e).map((a) => a.exprId)));
  const groups = input.filter((a) => !used.has(a.exprId));
  const byPair = resolve(
    Plans.aggregate(
      [...groups, ...pivots],
      [...groups, ...pivots.map((c, j) => alias(c, `__pivot${j}`)), ...aggs.map((a, i) => alias(unaliased(a), `__agg${i}`))],
      p.child,
    ),
  );
  const out = outputOf(byPair);
  const groupOut = out.slice(0, groups.length);
  const pivotOut = out.slice(groups.length, groups.length + pivots.length);
  const aggOut = out.slice(groups.length + pivots.length);
  const aggNames = aggs.map((a) => (a.kind === "alias" ? a.name : exprToSql(a)));
  const picks: Expr[] = [];
  for (const v of p.values) {
    if (v.exprs.length !== pivots.length) {
      throw new AnalysisException(
        "PIVOT_VALUE_DATA_TYPE_MISMATCH",
        `[PIVOT_VALUE_DATA_TYPE_MISMATCH] Invalid pivot value '${v.exprs.map(exprToSql).join(", ")}': ${v.exprs.length} value(s) for ${pivots.length} pivot column(s).`,
      );
    }
    const values = v.exprs.map((e) => resolveExpr(e, []));
    const label = v.alias ?? valueLabel(values);
    const matches = and(values.map((x, j) => call("<=>", [pivotOut[j]!, x])));
    aggOut.forEach((a, i) => {
      const name = aggOut.length === 1 ? label : `${label}_${aggNames[i]}`;
      picks.push(alias(call("first", [caseWhen([[matches, a]], null), literal(true, BooleanType)]), name));
    });
  }
  return resolve(Plans.aggregate(groupOut, [...groupOut, ...picks], byPair));
}

function unaliased(e: Expr): Expr {
  return e.kind === "alias" ? e.child : e;
}

/** A pivot value's column name when it has none: the value as text (`x`, `3`, `null`), a tuple as `{1, x}`. */
function valueLabel(values: readonly Expr[]): string {
  // the value cast to STRING, as Spark names the column by the evaluated value
  const one = (e: Expr): string =>
    e.kind !== "literal" ? exprToSql(e) : e.value === null ? "null" : valueToString(e.value, e.type, "UTC");
  return values.length === 1 ? one(values[0]!) : `{${values.map(one).join(", ")}}`;
}

export function expandUnpivot(p: Unpivot, resolve: ResolveNode, resolveExpr: ResolveExpr): LogicalPlan {
  const input = outputOf(p.child);
  const width = p.valueColumns.length;
  const columns = p.columns.map((c) => {
    if (c.exprs.length !== width) {
      throw new AnalysisException(
        "UNPIVOT_VALUE_SIZE_MISMATCH",
        `[UNPIVOT_VALUE_SIZE_MISMATCH] All unpivot value columns must have the same size as there are value column names (${width}).`,
      );
    }
    return c.exprs.map((e) => resolveExpr(e, input));
  });
  const used = new Set(columns.flat().flatMap((e) => collectAttributes(e).map((a) => a.exprId)));
  const ids = input.filter((a) => !used.has(a.exprId));
  const types = Array.from({ length: width }, (_, j) => {
    const ofColumn = columns.map((c) => c[j]!);
    const t = widerTypeOfAll(
      ofColumn.map((e) => typeOf(e)),
      false,
    );
    if (!t) {
      const listed = [...ofColumn].sort((a, b) => sqlTypeName(typeOf(a)).localeCompare(sqlTypeName(typeOf(b))));
      throw new AnalysisException(
        "UNPIVOT_VALUE_DATA_TYPE_MISMATCH",
        `[UNPIVOT_VALUE_DATA_TYPE_MISMATCH] Unpivot value columns must share a least common type, some types do not: [${listed.map((e) => `"${sqlTypeName(typeOf(e))}" (\`${columnName(e)}\`)`).join(", ")}].`,
      );
    }
    return t;
  });
  const stackArgs: Expr[] = [literal(columns.length, IntegerType)];
  columns.forEach((c, i) => {
    const label = p.columns[i]!.alias ?? c.map(columnName).join("_");
    stackArgs.push(literal(label, StringType), ...c.map((e, j) => (typesEqual(typeOf(e), types[j]!) ? e : cast(e, types[j]!, true))));
  });
  const rows = multiAlias(call("stack", stackArgs), [p.nameColumn, ...p.valueColumns]);
  const unpivoted = resolve(Plans.project([...ids, rows], p.child));
  if (p.includeNulls) return unpivoted;
  const values = outputOf(unpivoted).slice(ids.length + 1);
  return resolve(Plans.filter(call("not", [and(values.map((v) => call("isnull", [v])))]), unpivoted));
}

function columnName(e: Expr): string {
  return e.kind === "attribute" ? e.name : exprToSql(e as Call);
}
