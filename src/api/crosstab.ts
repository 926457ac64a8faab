/**
 * `df.crosstab(col1, col2)`: Spark's StatFunctions.crossTabulate, a pivot of pair counts. The
 * first column, `col1_col2`, is col1's values as text ("null" for NULL); then one BIGINT column
 * per distinct value of col2 as text (backticks removed, "null" for NULL), in STRING order,
 * each holding how many rows have that pair (0 for none). Spark finds col2's values with a job
 * when it builds the DataFrame; arus builds DataFrames synchronously, so crosstab is async.
 */
import { AnalysisException } from "../common/errors.js";
import { type Column, col, lit } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { isnull, regexp_replace, when } from "./functions.js";
import { checkNames } from "./pyspark-args.js";

const VALUE = "__crosstab_value";

/** A column's values as crosstab's text: "null" for NULL. */
const asText = (c: Column) => when(isnull(c), lit("null")).otherwise(c.cast("string"));

export async function crosstab(df: DataFrame, col1: string, col2: string): Promise<DataFrame> {
  checkNames(["col1", col1], ["col2", col2]);
  if (df.isStreaming) {
    throw new AnalysisException("_LEGACY_ERROR_TEMP_3063", "pivot is not supported on a streaming DataFrames/Datasets");
  }
  const rows = asText(col(col1)).alias(`${col1}_${col2}`);
  const columns = when(isnull(col(col2)), lit("null")).otherwise(regexp_replace(col(col2).cast("string"), "`", ""));
  // Spark's pivot without values: distinct, at most pivotMaxValues (+ 1 to tell), sorted
  const max = Number(df.sparkSession.conf.get("spark.sql.pivotMaxValues", "10000"));
  const values = (
    await df
      .select(columns.alias(VALUE))
      .distinct()
      .limit(max + 1)
      .sort(VALUE)
      .toArray()
  ).map((r) => r[0] as string);
  if (values.length > max) {
    throw new AnalysisException(
      "_LEGACY_ERROR_TEMP_1324",
      `The pivot column CASE WHEN isNull(${col2}) THEN 'null' ELSE regexp_replace(CAST(${col2} AS STRING), '\`', '') END has more than ${max} distinct values, this could indicate an error. If this was intended, set spark.sql.pivotMaxValues to at least the number of distinct values of the pivot column.`,
    );
  }
  return df.groupBy(rows).pivot(columns, values).count().na.fill(0);
}
