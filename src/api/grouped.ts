/**
 * GroupedData: the result of `groupBy(...)`, `rollup(...)`, `cube(...)` or `groupingSets(...)`;
 * `agg`, `count`, `sum`, ... build the Aggregate.
 * The grouping columns come first in the output, as in Spark.
 */
import { alias, call, type Expr } from "../plan/expressions.js";
import { Plans } from "../plan/logical.js";
import { Column, type ColumnOrName, toExpr } from "./column.js";
import type { DataFrame } from "./dataframe.js";

export class GroupedData {
  /** @internal */
  constructor(
    private readonly df: DataFrame,
    private readonly groupingExprs: readonly Expr[],
    /** rollup / cube / groupingSets: each set as positions in `groupingExprs`. */
    private readonly groupingSets: readonly (readonly number[])[] | null = null,
    /** The grouping columns shown in the output (groupingSets: its `cols`, which a set may go beyond). */
    private readonly shown: readonly Expr[] = groupingExprs,
  ) {}

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
  count(): DataFrame {
    return this.agg(new Column(alias(call("count", [{ kind: "literal", value: 1, type: { kind: "int" } }]), "count")));
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
