import { defineCase } from "../../case.js";

export default defineCase({
  description: "df.rollup, df.cube and df.groupingSets with F.grouping_id() inside foreachBatch, unaliased names included.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
        { k: "a", v: 2 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    pyspark: `(df.rollup("k", "v").agg(F.sum("v"), F.grouping_id()).withColumn("api", F.lit("rollup"))
      .unionByName(df.cube("k", "v").agg(F.sum("v"), F.grouping_id()).withColumn("api", F.lit("cube")))
      .unionByName(df.groupingSets([["k"], ["v"], []], "k", "v").agg(F.sum("v"), F.grouping_id()).withColumn("api", F.lit("sets"))))`,
    arus: ({ df, F }) =>
      df
        .rollup("k", "v")
        .agg(F.sum("v"), F.grouping_id())
        .withColumn("api", F.lit("rollup"))
        .unionByName(df.cube("k", "v").agg(F.sum("v"), F.grouping_id()).withColumn("api", F.lit("cube")))
        .unionByName(df.groupingSets([["k"], ["v"], []], "k", "v").agg(F.sum("v"), F.grouping_id()).withColumn("api", F.lit("sets"))),
  },
  // Spark counts the micro-batch's rows once per scan of the batch DataFrame (once per UNION
  // branch here); arus hands foreachBatch the batch's rows once. Not a grouping-sets matter.
  compare: { ignoreProgress: ["numInputRows"] },
});
