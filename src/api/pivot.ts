/**
 * `groupBy(...).pivot(column, values)`: one output column per pivot value (per aggregate), as
 * Spark's two-phase pivot: aggregate by the grouping columns and the pivot column, then per
 * group take each value's aggregate (`first(if(pivot <=> value, agg, null))`), so a value with
 * no rows in a group is NULL, even for `count`. Column names are Spark's: the value itself with
 * one aggregate, `value_aggregateName` with several. The values must be given: Spark computes
 * them with a job when they are not, but arus builds a DataFrame synchronously (docs/differences.md).
 */
import { IllegalArgumentException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { AggregateShortcuts } from "./aggregate-shortcuts.js";
import { Column, lit } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { first, when } from "./functions.js";

const PIVOT = "__arus_pivot";
const AGG = "__arus_pivot_agg";

export class PivotedData extends AggregateShortcuts {
  /** @internal */
  constructor(
    private readonly df: DataFrame,
    private readonly groupingExprs: readonly Expr[],
    private readonly pivotCol: Expr,
    private readonly values: readonly unknown[],
  ) {
    super();
  }

  agg(...cols: (Column | Column[])[]): DataFrame {
    const aggs = cols.flat();
    if (aggs.length === 0) throw new IllegalArgumentException("[CANNOT_BE_EMPTY] agg() needs at least one aggregate.");
    // each aggregate's output name, as the grouped aggregation would name it
    const names = this.df.groupBy().agg(...aggs).columns;
    const byPair = this.df
      .groupBy(...this.groupingExprs.map((e) => new Column(e)), new Column(this.pivotCol).alias(PIVOT))
      .agg(...aggs.map((a, i) => a.alias(`${AGG}${i}`)));
    const out = byPair.output;
    const groups = out.slice(0, this.groupingExprs.length).map((a) => new Column(a));
    const pivot = new Column(out[this.groupingExprs.length]!);
    const picks: Column[] = [];
    for (const v of this.values) {
      const label = v === null || v === undefined ? "null" : String(v);
      aggs.forEach((_, i) => {
        const value = new Column(out[this.groupingExprs.length + 1 + i]!);
        const name = aggs.length === 1 ? label : `${label}_${names[i]}`;
        picks.push(first(when(pivot.eqNullSafe(lit(v)), value), true).alias(name));
      });
    }
    return byPair.groupBy(...groups).agg(...picks);
  }
}
