import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "stddev / stddev_samp / stddev_pop / variance / var_samp / var_pop on a stream, update mode: the state (n, mean, m2) carried across batches and merged as Spark merges it; one row gives NULL for the sample forms, NULL rows are skipped, INT input is cast to DOUBLE.",
  input: {
    schema: "k STRING, v INT, x DOUBLE",
    batches: [
      [
        { k: "a", v: 1, x: 0.1 },
        { k: "a", v: 2, x: 0.2 },
        { k: "b", v: 5, x: null },
      ],
      [
        { k: "a", v: 4, x: 0.3 },
        { k: "b", v: 7, x: 1e10 },
        { k: "c", v: null, x: 2.5 },
      ],
      [
        { k: "a", v: 10, x: -3.75 },
        { k: "b", v: null, x: 1.5 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.stddev("v").alias("sd"), F.stddev_pop("v").alias("sdp"), F.variance("x").alias("vx"), F.var_pop("x").alias("vpx"), F.stddev_samp("x").alias("sdx"), F.var_samp("v").alias("vv"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.stddev("v").alias("sd"),
        F.stddev_pop("v").alias("sdp"),
        F.variance("x").alias("vx"),
        F.var_pop("x").alias("vpx"),
        F.stddev_samp("x").alias("sdx"),
        F.var_samp("v").alias("vv"),
      ),
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
