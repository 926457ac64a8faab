import { defineCase } from "../../case.js";

export default defineCase({
  description: "rollup on a stream is a streaming aggregation over the Expand: complete mode re-emits groups, subtotals and the total each batch.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
      ],
      [
        { k: "b", v: 3 },
        { k: "c", v: 4 },
      ],
    ],
  },
  outputMode: "complete",
  pyspark: `df.rollup("k").agg(F.sum("v").alias("s"), F.count("*").alias("n"))`,
  arus: ({ df, F }) => df.rollup("k").agg(F.sum("v").alias("s"), F.count("*").alias("n")),
});
