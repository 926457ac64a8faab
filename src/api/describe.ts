/**
 * `df.describe(...cols)`: Spark's basic statistics as a DataFrame of strings — a `summary`
 * column (count, mean, stddev, min, max) and one column per described column. Without names,
 * the numeric and STRING columns are described. mean and stddev are NULL for a non-numeric
 * column; values are cast to STRING as Spark casts them (`2.0`, `1.4142135623730951`).
 */
import { isNumeric } from "../types/datatypes.js";
import { Column, col, lit } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { avg, count, max, min } from "./functions.js";
import { stddev } from "./functions-more.js";

const STATS = ["count", "mean", "stddev", "min", "max"] as const;

export function describe(df: DataFrame, names: readonly string[]): DataFrame {
  const out = df.output;
  const targets =
    names.length > 0
      ? names.map((n) => {
          df.select(col(n)); // Spark's UNRESOLVED_COLUMN for an unknown name
          return out.find((a) => a.name.toLowerCase() === n.toLowerCase())!;
        })
      : out.filter((a) => isNumeric(a.type) || a.type.kind === "string");
  const aggs: Column[] = [];
  targets.forEach((a, i) => {
    const c = new Column(a);
    const numeric = isNumeric(a.type);
    const stat = {
      count: count(c),
      mean: numeric ? avg(c) : lit(null),
      stddev: numeric ? stddev(c) : lit(null),
      min: min(c),
      max: max(c),
    };
    for (const s of STATS) aggs.push(stat[s].cast("string").alias(`${s}_${i}`));
  });
  const stats = df.agg(...aggs);
  const rows = STATS.map((s) => stats.select(lit(s).alias("summary"), ...targets.map((a, i) => col(`${s}_${i}`).alias(a.name))));
  return rows.slice(1).reduce((acc, r) => acc.union(r), rows[0]!);
}
