import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "corr / covar_pop / covar_samp, median and percentile (a list of percentages) on a stream, update mode: the six-slot state (n, means, co-moments) carried and merged across batches as Spark merges it; pairs with a NULL skipped; one row gives NULL for covar_samp and corr, a constant column NULL for corr.",
  input: {
    schema: "k STRING, x DOUBLE, y INT",
    batches: [
      [
        { k: "a", x: 0.1, y: 3 },
        { k: "a", x: 2.5, y: 1 },
        { k: "b", x: 4.0, y: null },
        { k: "c", x: 1.0, y: 5 },
      ],
      [
        { k: "a", x: -3.75, y: 10 },
        { k: "b", x: 1.5, y: 2 },
        { k: "c", x: 1.0, y: 7 },
      ],
      [
        { k: "a", x: 1e3, y: -4 },
        { k: "b", x: null, y: 9 },
        { k: "b", x: 2.25, y: 4 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.corr("x", "y").alias("r"), F.covar_pop("x", "y").alias("cp"), F.covar_samp("x", "y").alias("cs"), F.median("y").alias("md"), F.percentile("x", [0.25, 0.9]).alias("pc"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.corr("x", "y").alias("r"),
        F.covar_pop("x", "y").alias("cp"),
        F.covar_samp("x", "y").alias("cs"),
        F.median("y").alias("md"),
        F.percentile("x", [0.25, 0.9]).alias("pc"),
      ),
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
