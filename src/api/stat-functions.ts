/**
 * `df.stat` (Spark's DataFrameStatFunctions) and the statistics it shares with the DataFrame:
 * corr, cov, approxQuantile and freqItems here, crosstab in crosstab.ts. Arguments are checked
 * as PySpark checks them (its NOT_EXPECTED_TYPE / NEGATIVE_VALUE / VALUE_NOT_ALLOWED), then as
 * Spark's StatFunctions does (its `requirement failed: ...` IllegalArgumentExceptions).
 */
import { IllegalArgumentException } from "../common/errors.js";
import { javaDoubleToString } from "../common/show.js";
import { call, literal } from "../plan/expressions.js";
import { type DataType, IntegerType, isNumeric, simpleString, treeTypeName } from "../types/datatypes.js";
import { Column, col, lit } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { isnull, when } from "./functions.js";
import { corr as corrAgg, covar_samp } from "./functions-extra.js";
import { isnan } from "./functions-more.js";
import { percentile_approx } from "./functions-spark.js";
import { checkNames, notExpected, pythonTypeName } from "./pyspark-args.js";

const requirement = (message: string) => new IllegalArgumentException(`requirement failed: ${message}`);

/** Scala's DataType.toString (`StringType`, `ArrayType(IntegerType,true)`), as Spark's messages print types. */
function scalaTypeName(t: DataType): string {
  if (t.kind === "array") return `ArrayType(${scalaTypeName(t.elementType)},${t.containsNull})`;
  if (t.kind === "map") return `MapType(${scalaTypeName(t.keyType)},${scalaTypeName(t.valueType)},${t.valueContainsNull})`;
  if (t.kind === "decimal") return `DecimalType(${t.precision},${t.scale})`;
  if (t.kind === "struct" || t.kind === "interval") return simpleString(t);
  if (t.kind === "null") return "NullType";
  const name = treeTypeName(t);
  return `${name[0]!.toUpperCase()}${name.slice(1)}Type`;
}

/** The two columns as Spark's corr / cov read them: numeric, NULL taken as 0.0. */
function pairAsDoubles(df: DataFrame, col1: string, col2: string, what: string): [Column, Column] {
  const [a, b] = [col1, col2].map((name) => {
    const t = df.select(col(name)).output[0]!.type; // UNRESOLVED_COLUMN for an unknown name
    if (!isNumeric(t)) throw requirement(`Currently ${what} calculation for columns with dataType ${simpleString(t)} not supported.`);
    return when(isnull(col(name)), lit(0.0)).otherwise(col(name).cast("double"));
  });
  return [a!, b!];
}

async function single(df: DataFrame): Promise<number> {
  const [[v]] = (await df.toArray()) as [[number]];
  return v;
}

/** Pearson's correlation (Spark's StatFunctions.pearsonCorrelation): NaN where corr is NULL. */
export function correlation(df: DataFrame, col1: string, col2: string, method?: string | null): Promise<number> {
  checkNames(["col1", col1], ["col2", col2]);
  if (method && method !== "pearson") {
    throw new IllegalArgumentException(
      "[VALUE_NOT_ALLOWED] Value for `method` has to be amongst the following values: ['pearson'].",
      "VALUE_NOT_ALLOWED",
    );
  }
  const c = corrAgg(...pairAsDoubles(df, col1, col2, "correlation"));
  return single(df.select(when(isnull(c), lit(Number.NaN)).otherwise(c).alias("corr")));
}

/** The sample covariance (Spark's StatFunctions.calculateCov): 0.0 where covar_samp is NULL. */
export function covariance(df: DataFrame, col1: string, col2: string): Promise<number> {
  checkNames(["col1", col1], ["col2", col2]);
  const c = covar_samp(...pairAsDoubles(df, col1, col2, "covariance"));
  return single(df.select(when(isnull(c), lit(0.0)).otherwise(c).alias("cov")));
}

/**
 * Spark's multipleApproxQuantiles: each column's non-NULL, non-NaN values as DOUBLE through
 * approx_percentile with accuracy ceil(1 / relativeError) (Int.MaxValue for 0: exact); a
 * column without such values gives [].
 */
export async function approxQuantile(
  df: DataFrame,
  cols: string | readonly string[],
  probabilities: readonly number[],
  relativeError: number,
): Promise<number[] | number[][]> {
  if (typeof cols !== "string" && !Array.isArray(cols)) throw notExpected("col", "list, str or tuple", cols);
  const names: readonly unknown[] = typeof cols === "string" ? [cols] : cols;
  for (const c of names) {
    if (typeof c !== "string") {
      throw new IllegalArgumentException(
        `[DISALLOWED_TYPE_FOR_CONTAINER] Argument \`col\`(type: list) should only contain a type in [str], got ${pythonTypeName(c)}`,
        "DISALLOWED_TYPE_FOR_CONTAINER",
      );
    }
  }
  if (!Array.isArray(probabilities)) throw notExpected("probabilities", "list or tuple", probabilities);
  for (const p of probabilities as unknown[]) {
    if (typeof p !== "number" || p < 0 || p > 1) throw notExpected("probabilities", "list[float, int]", p);
  }
  if (typeof relativeError !== "number") throw notExpected("relativeError", "float or int", relativeError);
  if (relativeError < 0) {
    throw new IllegalArgumentException(
      `[NEGATIVE_VALUE] Value for \`relativeError\` must be greater than or equal to 0, got '${relativeError}'.`,
      "NEGATIVE_VALUE",
    );
  }
  if (!(relativeError >= 0)) throw requirement(`Relative Error must be non-negative but got ${javaDoubleToString(relativeError)}`);
  if (!probabilities.every((p) => p >= 0 && p <= 1)) throw requirement("percentile should be in the range [0.0, 1.0]");
  const values = (names as string[]).map((name) => {
    const t = df.select(col(name)).output[0]!.type; // UNRESOLVED_COLUMN for an unknown name
    if (!isNumeric(t)) throw requirement(`Quantile calculation for column ${name} with data type ${scalaTypeName(t)} is not supported.`);
    const x = col(name).cast("double");
    return when(isnan(x).not(), x);
  });
  // (Spark 4.3 fails with a NullPointerException here; arus answers no quantiles)
  if (probabilities.length === 0) return typeof cols === "string" ? [] : names.map(() => []);
  const accuracy = relativeError === 0 ? 2147483647 : Math.min(2147483647, Math.ceil(1 / relativeError));
  const [row] = await df.agg(...values.map((x, i) => percentile_approx(x, probabilities, accuracy).alias(`q${i}`))).toArray();
  const quantiles = row!.map((q) => ((q as number[] | null) ?? []).map(Number));
  return typeof cols === "string" ? quantiles[0]! : quantiles;
}

/**
 * Spark's freqItems: per column, the items of its Karp–Schenker–Papadimitriou counter of
 * floor(1 / support) entries (functions/frequent-items.ts): every item in more than `support`
 * of the rows, possibly others. `support` 0 or missing is 1%, as PySpark's `if not support`.
 */
export function freqItems(df: DataFrame, cols: readonly string[], support?: number | null): DataFrame {
  if (!Array.isArray(cols)) throw notExpected("cols", "list or tuple", cols);
  const s = support || 0.01;
  if (!(s >= 1e-4 && s <= 1)) throw requirement(`Support must be in [1e-4, 1], but got ${javaDoubleToString(s)}.`);
  const size = literal(Math.trunc(1 / s), IntegerType);
  const items = cols.map((c) => new Column(call("__collect_frequent_items", [col(c).expr, size])).alias(`${c}_freqItems`));
  return items.length === 0 ? df.select() : df.agg(...items);
}

/** PySpark's `df.stat`: the statistics of a DataFrame under one name. */
export class DataFrameStatFunctions {
  constructor(private readonly df: DataFrame) {}
  approxQuantile(col: string, probabilities: readonly number[], relativeError: number): Promise<number[]>;
  approxQuantile(cols: readonly string[], probabilities: readonly number[], relativeError: number): Promise<number[][]>;
  approxQuantile(
    cols: string | readonly string[],
    probabilities: readonly number[],
    relativeError: number,
  ): Promise<number[] | number[][]> {
    return this.df.approxQuantile(cols as string, probabilities, relativeError);
  }
  corr(col1: string, col2: string, method?: string | null): Promise<number> {
    return this.df.corr(col1, col2, method);
  }
  cov(col1: string, col2: string): Promise<number> {
    return this.df.cov(col1, col2);
  }
  crosstab(col1: string, col2: string): Promise<DataFrame> {
    return this.df.crosstab(col1, col2);
  }
  freqItems(cols: readonly string[], support?: number | null): DataFrame {
    return this.df.freqItems(cols, support);
  }
}
