/**
 * `groupBy(...).pivot(column, values)`: one output column per pivot value (per aggregate), as
 * Spark's two-phase pivot: aggregate by the grouping columns and the pivot column, then per
 * group take each value's aggregate (`first(if(pivot <=> value, agg, null))`), so a value with
 * no rows in a group is NULL, even for `count`. Column names are Spark's: the value itself with
 * one aggregate, `value_aggregateName` with several. The values must be given: Spark computes
 * them with a job when they are not, but arus builds a DataFrame synchronously (docs/differences.md).
 */
import { IllegalArgumentException } from "../common/errors.js";
import { call, type Expr, literal } from "../plan/expressions.js";
import { IntegerType } from "../types/datatypes.js";
import { Column, type ColumnOrName, lit, toExpr } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { first, when } from "./functions.js";

const PIVOT = "__arus_pivot";
const AGG = "__arus_pivot_agg";

export class PivotedData {
  /** @internal */
  constructor(
    private readonly df: DataFrame,
    private readonly groupingExprs: readonly Expr[],
    private readonly pivotCol: Expr,
    private readonly values: readonly unknown[],
  ) {}

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
  count(): DataFrame {
    return this.agg(new Column(call("count", [literal(1, IntegerType)])).alias("count"));
  }
  private each(fn: string, cols: ColumnOrName[]): DataFrame {
    return this.agg(...cols.map((c) => new Column(call(fn, [toExpr(c)]))));
  }
  sum(...cols: ColumnOrName[]): DataFrame {
    return this.each("sum", cols);
  }
  avg(...cols: ColumnOrName[]): DataFrame {
    return this.each("avg", cols);
  }
  mean(...cols: ColumnOrName[]): DataFrame {
    return this.each("avg", cols);
  }
  min(...cols: ColumnOrName[]): DataFrame {
    return this.each("min", cols);
  }
  max(...cols: ColumnOrName[]): DataFrame {
    return this.each("max", cols);
  }
}
