import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Two observations in a stateless query, one before and one after a filter, with default metric names (Spark names an unaliased metric by its SQL text): each batch reports both, over the rows at its own point of the plan.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(1) },
        { k: "b", v: 6, ts: t(2) },
        { k: "c", v: null, ts: t(3) },
      ],
      [{ k: "d", v: 10, ts: t(4) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.observe("before", F.count(F.lit(1)), F.count("v"), F.min("k")).filter(F.col("v") > 2).observe("after", F.count(F.lit(1)).alias("n"), F.max("v"), F.max("ts"))`,
  arus: ({ df, F }) =>
    df
      .observe("before", F.count(F.lit(1)), F.count("v"), F.min("k"))
      .filter(F.col("v").gt(2))
      .observe("after", F.count(F.lit(1)).alias("n"), F.max("v"), F.max("ts")),
});
