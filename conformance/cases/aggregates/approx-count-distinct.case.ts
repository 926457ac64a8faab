import { defineCase } from "../../case.js";

export default defineCase({
  description: "approx_count_distinct is allowed on streams (exact for small cardinalities), complete mode.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 1 },
        { k: "a", v: 2 },
      ],
      [
        { k: "a", v: 3 },
        { k: "b", v: null },
      ],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").agg(F.approx_count_distinct("v").alias("d"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.approx_count_distinct("v").alias("d")),
});
