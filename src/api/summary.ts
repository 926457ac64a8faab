/**
 * `df.summary(...statistics)`: Spark's StatFunctions.summary. A `summary` column naming each
 * statistic (as given, in order) and one STRING column per numeric or STRING column. As Spark,
 * each column's statistics go into one map (`statistic -> value as text`) computed by a single
 * aggregate, and the rows are the statistics exploded and looked up in the maps — so a
 * statistic given twice is Spark's DUPLICATED_MAP_KEY when the query runs.
 *
 * mean, stddev and the percentiles (`percentile_approx(x, [p...], 10000)`) read a STRING
 * column through `try_cast(x AS DOUBLE)`; count, count_distinct, approx_count_distinct, min
 * and max read the column itself.
 */
import { IllegalArgumentException } from "../common/errors.js";
import { parseJavaDouble } from "../connectors/files/text-values.js";
import { call } from "../plan/expressions.js";
import { isNumeric } from "../types/datatypes.js";
import { Column, col, lit } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { approx_count_distinct, avg, count, count_distinct, element_at, max, min } from "./functions.js";
import { explode } from "./functions-generators.js";
import { create_map, stddev } from "./functions-more.js";
import { get, percentile_approx } from "./functions-spark.js";

const DEFAULT_STATISTICS = ["count", "mean", "stddev", "min", "25%", "50%", "75%", "max"];
/** Spark's ApproximatePercentile.DEFAULT_PERCENTILE_ACCURACY. */
const ACCURACY = 10000;

const unrecognized = (statistic: string) =>
  new IllegalArgumentException(
    `[UNRECOGNIZED_STATISTIC] The statistic '${statistic}' is not recognized. Valid statistics include \`count\`, \`count_distinct\`, \`approx_count_distinct\`, \`mean\`, \`stddev\`, \`min\`, \`max\`, and percentile values. Percentile must be a numeric value followed by '%', within the range 0% to 100%.`,
    "UNRECOGNIZED_STATISTIC",
  );

/** The fraction a `NN%` statistic asks for (Java's toDouble of the text before `%`, over 100). */
function percentile(statistic: string): number {
  const p = parseJavaDouble(statistic.slice(0, -1));
  if (p === null) throw unrecognized(statistic);
  return p / 100;
}

export function summary(df: DataFrame, statistics: readonly string[]): DataFrame {
  const stats = statistics.length > 0 ? statistics : DEFAULT_STATISTICS;
  const percentiles = stats.filter((s) => s.endsWith("%")).map(percentile);
  if (!percentiles.every((p) => p >= 0 && p <= 1)) {
    throw new IllegalArgumentException("requirement failed: Percentiles must be in the range [0, 1]");
  }
  // Spark's percentile_approx gives a DECIMAL column's percentiles as Decimal(double), printed
  // without the column's scale (`1.5`); count_distinct's rewrite (an Expand and a second
  // aggregate) stores them in rows of the column's type on the way, which restores it (`1.50`).
  const decimalsRescaled = stats.some((s) => s.toLowerCase() === "count_distinct");
  const targets = df.output.filter((a) => isNumeric(a.type) || a.type.kind === "string");
  if (targets.length === 0) return df.agg(count(lit(1))).select(explode(lit([...stats])).alias("summary"));

  const maps = targets.map((a) => {
    const column = col(a.name); // by name, as Spark: a name with a dot is UNRESOLVED_COLUMN there too
    const casted = a.type.kind === "string" ? column.try_cast("double") : column;
    const quantiles = percentiles.length > 0 ? percentile_approx(casted, percentiles, ACCURACY) : null;
    const asDecimalOfDouble = a.type.kind === "decimal" && !decimalsRescaled;
    let next = 0;
    const value = (statistic: string): Column => {
      switch (statistic.toLowerCase()) {
        case "count":
          return count(column);
        case "count_distinct":
          return count_distinct(column);
        case "approx_count_distinct":
          return approx_count_distinct(column);
        case "mean":
          return avg(casted);
        case "stddev":
          return stddev(casted);
        case "min":
          return min(column);
        case "max":
          return max(column);
      }
      if (!statistic.endsWith("%")) throw unrecognized(statistic);
      const q = get(quantiles!, next++);
      return asDecimalOfDouble ? new Column(call("__decimal_of_double_text", [q.expr])) : q;
    };
    return create_map(...stats.flatMap((s) => [lit(s), value(s).cast("string")])).alias(a.name);
  });
  return df
    .agg(...maps)
    .withColumn("summary", explode(lit([...stats])))
    .select(col("summary"), ...targets.map((a) => element_at(col(a.name), col("summary")).alias(a.name)));
}
