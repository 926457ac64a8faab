/**
 * Inline tables, `VALUES (1, 'a'), (2, 'b') [AS] t(id, name)` (Spark's ResolveInlineTables):
 * every value is a constant expression, resolved here with no input columns; each column takes
 * the common type of its values (no STRING promotion: `VALUES (1), ('2')` is
 * INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE) and is named `col1, col2, ...` unless
 * the alias names it. The table is an Expand of one projection per row over the one-row
 * relation, so the values are computed when the query runs, in its session's time zone.
 */

import type { Batch } from "../columnar/batch.js";
import { AnalysisException } from "../common/errors.js";
import { castTo, isNotFoldable } from "../functions/registry.js";
import { nullableOf, typeOf } from "../functions/typing.js";
import { anyExpr, attribute, type Expr } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { resolveExpr } from "./analyzer.js";

const ONE_ROW: Batch = Object.freeze({ columns: Object.freeze([]) as unknown as Batch["columns"], numRows: 1 });

function invalid(sub: string, message: string): AnalysisException {
  return new AnalysisException(`INVALID_INLINE_TABLE.${sub}`, `[INVALID_INLINE_TABLE.${sub}] Invalid inline table. ${message}`);
}

/** `rows` of expressions as an inline table; `names`: the alias's column names, if it has them. */
export function inlineTable(rows: readonly (readonly Expr[])[], names: readonly string[] | null): LogicalPlan {
  const width = names?.length ?? rows[0]?.length ?? 0;
  rows.forEach((r, i) => {
    if (r.length !== width)
      throw invalid("NUM_COLUMNS_MISMATCH", `Inline table expected ${width} columns but found ${r.length} columns in row ${i}.`);
  });
  const resolved = rows.map((r) =>
    r.map((e) => {
      const x = resolveExpr(e, []);
      if (anyExpr(x, (y) => y.kind === "call" && isNotFoldable(y.name))) {
        throw invalid(
          "CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE",
          `Cannot evaluate the expression "${exprToSql(x)}" in inline table definition.`,
        );
      }
      return x;
    }),
  );
  const colNames = names ?? Array.from({ length: width }, (_, c) => `col${c + 1}`);
  const types = colNames.map((name, c) => {
    const t = widerTypeOfAll(
      resolved.map((r) => typeOf(r[c]!)),
      false,
    );
    if (t === null)
      throw invalid("INCOMPATIBLE_TYPES_IN_INLINE_TABLE", `Found incompatible types in the column \`${name}\` for inline table.`);
    return t;
  });
  const projections = resolved.map((r) => r.map((e, c) => castTo(e, typeOf(e), types[c]!)));
  const output = colNames.map((name, c) =>
    attribute(
      name,
      types[c]!,
      projections.some((r) => nullableOf(r[c]!)),
    ),
  );
  return Plans.expand(projections, output, Plans.localRelation([], [ONE_ROW]));
}
