import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "abs, round (HALF_UP, also for doubles and negative scale), floor and ceil (BIGINT results) on doubles; floor(1e20) is past Long.MaxValue: ARITHMETIC_OVERFLOW under ANSI (Spark 4.3), after batch 0's rows.",
  input: {
    schema: "x DOUBLE, i INT",
    batches: [
      [
        { x: 2.5, i: -15 },
        { x: -2.5, i: 25 },
        { x: 0.125, i: 149 },
      ],
      [{ x: 1e20, i: 0 }],
    ],
  },
  pyspark: `df.select("x", F.abs("i").alias("a"), F.round("x").alias("r0"), F.round("x", 2).alias("r2"),
    F.round("i", -1).alias("ri"), F.floor("x").alias("fl"), F.ceil("x").alias("ce"))`,
  arus: ({ df, F }) =>
    df.select(
      "x",
      F.abs("i").alias("a"),
      F.round("x").alias("r0"),
      F.round("x", 2).alias("r2"),
      F.round("i", -1).alias("ri"),
      F.floor("x").alias("fl"),
      F.ceil("x").alias("ce"),
    ),
  expectError: "ARITHMETIC_OVERFLOW",
});
