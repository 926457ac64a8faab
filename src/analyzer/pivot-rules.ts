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

import { constantVector, getValue } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { valueToString } from "../functions/cast.js";
import { castVector } from "../functions/index.js";
import { isAggregateCall } from "../functions/typing.js";
import {
  type Attribute,
  alias,
  type Call,
  call,
  caseWhen,
  cast,
  collectAttributes,
  conjunction,
  type Expr,
  isQualifiedAccessOnly,
  literal,
  multiAlias,
  transformDown,
  unaliased,
} from "../plan/expressions.js";
import { type LogicalPlan, type Pivot, Plans, type Unpivot } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { BooleanType, type DataType, IntegerType, isNumeric, StringType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { outputOf, typeOf } from "./types.js";
import { hasAggregateOutsideWindow } from "./window-rules.js";

type ResolveExpr = (e: Expr, input: readonly Attribute[]) => Expr;
/** Resolves one node whose children are resolved. */
type ResolveNode = (p: LogicalPlan) => LogicalPlan;

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
  // the relation's own columns: a USING join's hidden keys are not among them
  const groups = input.filter((a) => !used.has(a.exprId) && !isQualifiedAccessOnly(a));
  const aggNames = aggs.map((a) => (a.kind === "alias" ? a.name : exprToSql(a)));
  // each value cast to its pivot column's type (1.5 on an INT column is 1), named by the value as written
  const values = p.values.map((v) => {
    if (v.exprs.length !== pivots.length) {
      throw new AnalysisException(
        "PIVOT_VALUE_DATA_TYPE_MISMATCH",
        `[PIVOT_VALUE_DATA_TYPE_MISMATCH] Invalid pivot value '${v.exprs.map(exprToSql).join(", ")}': ${v.exprs.length} value(s) for ${pivots.length} pivot column(s).`,
      );
    }
    const written = v.exprs.map((e) => resolveExpr(e, []));
    const typed = written.map((x, j) => {
      const t = typeOf(pivots[j]!);
      return typesEqual(typeOf(x), t) ? x : cast(x, t);
    });
    return { typed, label: v.alias ?? valueLabel(written) };
  });
  const nameOf = (label: string, i: number) => (aggs.length === 1 ? label : `${label}_${aggNames[i]}`);
  const matching = (cols: readonly Expr[], typed: readonly Expr[]) => conjunction(typed.map((x, j) => call("<=>", [cols[j]!, x])));
  // Spark's rule: numeric and boolean aggregates pivot in two phases (a value without rows is NULL,
  // even for count); any other aggregates each value's rows (a count of none is 0, a list of none [])
  if (!aggs.every((a) => isNumeric(typeOf(a)) || typeOf(a).kind === "boolean")) {
    const picks = values.flatMap((v) =>
      aggs.map((a, i) => alias(onlyMatching(unaliased(a), matching(pivots, v.typed)), nameOf(v.label, i))),
    );
    return resolve(Plans.aggregate(groups, [...groups, ...picks], p.child));
  }
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
  const picks = values.flatMap((v) =>
    aggOut.map((a, i) =>
      alias(call("first", [caseWhen([[matching(pivotOut, v.typed), a]], null), literal(true, BooleanType)]), nameOf(v.label, i)),
    ),
  );
  return resolve(Plans.aggregate(groupOut, [...groupOut, ...picks], byPair));
}

/**
 * An aggregate over the rows `cond` holds for only: each aggregate function's non-constant
 * arguments are NULL elsewhere (aggregates skip NULLs; first / last are told to).
 */
function onlyMatching(agg: Expr, cond: Expr): Expr {
  const only = (x: Expr): Expr => (x.kind === "literal" ? x : caseWhen([[cond, x]], null));
  return transformDown(agg, (x) => {
    if (!isAggregateCall(x)) return x;
    const c = x as Call;
    if (FIRST_LAST.has(c.name)) return call(c.name, [only(c.args[0]!), literal(true, BooleanType)]);
    return Object.freeze({ ...c, args: Object.freeze(c.args.map(only)) });
  });
}

const FIRST_LAST = new Set(["first", "last", "first_value", "last_value", "any_value"]);

/** A pivot value's column name when it has none: the value cast to STRING (`x`, `3`, `null`, `2024-01-02`), a tuple as `{1, x}`. */
function valueLabel(values: readonly Expr[]): string {
  const one = (e: Expr): string => {
    const v = constantOf(e);
    return v === undefined ? exprToSql(e) : v.value === null ? "null" : valueToString(v.value, v.type, "UTC");
  };
  return values.length === 1 ? one(values[0]!) : `{${values.map(one).join(", ")}}`;
}

/** A literal, or a cast of one (`DATE '2024-01-02'`), evaluated; undefined for anything else. */
function constantOf(e: Expr): { value: unknown; type: DataType } | undefined {
  if (e.kind === "literal") return { value: e.value, type: e.type };
  if (e.kind !== "cast" || e.child.kind !== "literal") return undefined;
  const ctx = { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: true };
  try {
    return { value: getValue(castVector(constantVector(e.child.type, e.child.value, 1), e.to, 1, ctx), 0), type: e.to };
  } catch {
    return undefined;
  }
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
  const ids = input.filter((a) => !used.has(a.exprId) && !isQualifiedAccessOnly(a));
  for (const name of [p.nameColumn, ...p.valueColumns]) {
    const clash = ids.find((a) => a.name.toLowerCase() === name.toLowerCase());
    if (clash) {
      const q = clash.qualifier[0];
      throw new AnalysisException(
        "AMBIGUOUS_REFERENCE",
        `[AMBIGUOUS_REFERENCE] Reference \`${name}\` is ambiguous, could be: [\`${name}\`, \`${q ? `${q}\`.\`` : ""}${clash.name}\`].`,
      );
    }
  }
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
    // named as the query writes the column (`K`), not as the schema spells it
    const label = p.columns[i]!.alias ?? p.columns[i]!.exprs.map(writtenName).join("_");
    stackArgs.push(literal(label, StringType), ...c.map((e, j) => (typesEqual(typeOf(e), types[j]!) ? e : cast(e, types[j]!, true))));
  });
  const rows = multiAlias(call("stack", stackArgs), [p.nameColumn, ...p.valueColumns]);
  const unpivoted = resolve(Plans.project([...ids, rows], p.child));
  if (p.includeNulls) return unpivoted;
  const values = outputOf(unpivoted).slice(ids.length + 1);
  return resolve(Plans.filter(call("not", [conjunction(values.map((v) => call("isnull", [v])))]), unpivoted));
}

function writtenName(e: Expr): string {
  return e.kind === "column" ? e.nameParts[e.nameParts.length - 1]! : exprToSql(e);
}

function columnName(e: Expr): string {
  return e.kind === "attribute" ? e.name : exprToSql(e as Call);
}
