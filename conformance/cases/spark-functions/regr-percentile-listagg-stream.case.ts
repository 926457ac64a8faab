import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "regr_slope / regr_intercept / regr_r2 / regr_count, percentile_approx (one percentage and an array), listagg, try_sum and try_avg on a stream in update mode: state merged across batches; Spark's names and values.",
  input: {
    schema: "k STRING, y INT, x INT, s STRING",
    batches: [
      [
        { k: "a", y: 1, x: 2, s: "p" },
        { k: "a", y: 2, x: 4, s: "q" },
        { k: "b", y: 5, x: 1, s: null },
      ],
      [
        { k: "a", y: 3, x: 7, s: "r" },
        { k: "a", y: null, x: 1, s: "s" },
        { k: "b", y: 6, x: 3, s: "t" },
      ],
      [
        { k: "a", y: 9, x: 5, s: null },
        { k: "b", y: 2, x: null, s: "u" },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.regr_slope("y", "x"), F.regr_intercept("y", "x"), F.regr_r2("y", "x"), F.regr_count("y", "x"), F.percentile_approx("y", 0.5), F.percentile_approx("x", [0.25, 0.75], 100), F.listagg("s", "-"), F.try_sum("y"), F.try_avg("x"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.regr_slope("y", "x"),
        F.regr_intercept("y", "x"),
        F.regr_r2("y", "x"),
        F.regr_count("y", "x"),
        F.percentile_approx("y", 0.5),
        F.percentile_approx("x", [0.25, 0.75], 100),
        F.listagg("s", "-"),
        F.try_sum("y"),
        F.try_avg("x"),
      ),
});
