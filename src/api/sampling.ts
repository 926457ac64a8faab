/**
 * `df.sample` and `df.randomSplit` (Bernoulli sampling by `rand(seed)`, as Spark samples a row
 * when its random number falls in [lower, upper); with replacement a Poisson count per row; the
 * same seed gives the same rows, but not Spark's rows: Spark draws per partition with its own
 * generator).
 */
import { IllegalArgumentException } from "../common/errors.js";
import { call, literal } from "../plan/expressions.js";
import { DoubleType, LongType } from "../types/datatypes.js";
import { Column, col } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { lit } from "./functions.js";
import { array_repeat } from "./functions-extra.js";
import { explode } from "./functions-generators.js";
import { rand } from "./functions-spark.js";

const SPLIT_COLUMN = "__random_split";
const REPEAT_COLUMN = "__sample_times";

/** A seed when none is given (Spark draws one too). */
const anySeed = () => Math.floor(Math.random() * 2 ** 31);

/** PySpark's argument shapes: sample(fraction), sample(fraction, seed), sample(withReplacement, fraction, seed?). */
export function sample(df: DataFrame, args: readonly (boolean | number | undefined)[]): DataFrame {
  const [withReplacement, fraction, seed] = typeof args[0] === "boolean" ? args : [false, ...args];
  if (typeof fraction !== "number" || !(fraction >= 0)) {
    throw new IllegalArgumentException(
      `[INVALID_PARAMETER_VALUE] sample: fraction must be a number of 0 or more, got ${String(fraction)}.`,
    );
  }
  if (withReplacement === true) return withReplacementSample(df, fraction, (seed as number | undefined) ?? anySeed());
  if (fraction > 1)
    throw new IllegalArgumentException(
      `[INVALID_PARAMETER_VALUE] sample without replacement: fraction must be at most 1, got ${fraction}.`,
    );
  return df.filter(rand((seed as number | undefined) ?? anySeed()).lt(fraction));
}

/**
 * Spark's PoissonSampler: each row repeated a Poisson(fraction) number of times (0 drops it),
 * so the expected size is fraction × the rows and fraction may exceed 1.
 */
function withReplacementSample(df: DataFrame, fraction: number, seed: number): DataFrame {
  const times = new Column(call("__poisson_sample", [literal(fraction, DoubleType), literal(seed, LongType)]));
  return df
    .withColumn(REPEAT_COLUMN, times)
    .filter(col(REPEAT_COLUMN).gt(0))
    .withColumn(REPEAT_COLUMN, explode(array_repeat(lit(true), col(REPEAT_COLUMN))))
    .drop(REPEAT_COLUMN);
}

/** The DataFrame split by `weights` (normalized): every row in exactly one part, by one random number per row. */
export function randomSplit(df: DataFrame, weights: readonly number[], seed = anySeed()): DataFrame[] {
  if (weights.length === 0 || weights.some((w) => !(w >= 0)) || !(weights.reduce((a, b) => a + b, 0) > 0)) {
    throw new IllegalArgumentException(
      `[INVALID_PARAMETER_VALUE] randomSplit: weights must be non-negative with a positive sum, got [${weights.join(", ")}].`,
    );
  }
  const total = weights.reduce((a, b) => a + b, 0);
  const parts: DataFrame[] = [];
  let lower = 0;
  // one random number per row, drawn once and compared with both bounds
  const drawn = df.withColumn(SPLIT_COLUMN, rand(seed));
  const r = col(SPLIT_COLUMN);
  weights.forEach((w, i) => {
    const last = i === weights.length - 1;
    const upper = last ? 1 : lower + w / total;
    parts.push(drawn.filter(r.geq(lower).and(last ? r.leq(1) : r.lt(upper))).drop(SPLIT_COLUMN));
    lower = upper;
  });
  return parts;
}
