/**
 * The aggregate shortcuts of PySpark's GroupedData (`count()`, `sum(...)`, `avg(...)`,
 * `mean(...)`, `min(...)`, `max(...)`), written once over `agg` for every grouped form
 * (grouped.ts, pivot.ts).
 */
import { alias, call, literal } from "../plan/expressions.js";
import { IntegerType } from "../types/datatypes.js";
import { Column, type ColumnOrName, toExpr } from "./column.js";
import type { DataFrame } from "./dataframe.js";

export abstract class AggregateShortcuts {
  abstract agg(...cols: Column[]): DataFrame;

  count(): DataFrame {
    return this.agg(new Column(alias(call("count", [literal(1, IntegerType)]), "count")));
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
