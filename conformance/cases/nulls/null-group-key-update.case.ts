import { defineCase } from "../../case.js";

export default defineCase({
  description: "NULL grouping keys form one group of their own; update mode emits only the groups touched in each batch.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: null, v: 1 },
        { k: "a", v: 2 },
        { k: null, v: 3 },
      ],
      [{ k: null, v: 10 }],
      [{ k: "a", v: null }],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.count("*").alias("n"), F.sum("v").alias("s"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.count("*").alias("n"), F.sum("v").alias("s")),
});
