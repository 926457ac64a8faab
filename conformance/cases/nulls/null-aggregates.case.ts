import { defineCase } from "../../case.js";

export default defineCase({
  description: "Aggregates skip NULLs: count(v) vs count(*), sum/avg/min/max over a group that is all NULL give NULL; complete mode.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: null },
        { k: "b", v: 1 },
        { k: "b", v: null },
      ],
      [
        { k: "a", v: null },
        { k: "b", v: 4 },
      ],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").agg(F.count("*").alias("n_all"), F.count("v").alias("n_v"), F.sum("v").alias("s"),
    F.avg("v").alias("a"), F.min("v").alias("mn"), F.max("v").alias("mx"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.count("*").alias("n_all"),
        F.count("v").alias("n_v"),
        F.sum("v").alias("s"),
        F.avg("v").alias("a"),
        F.min("v").alias("mn"),
        F.max("v").alias("mx"),
      ),
});
