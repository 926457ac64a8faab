import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "a = b AND a = 1: Spark infers b = 1 through the equality and pushes both comparisons into the JSON scan, so rows with a = 1 but another b are not numInputRows.",
  input: {
    schema: "a INT, b INT, k STRING",
    batches: [
      [
        { a: 1, b: 1, k: "x" },
        { a: 1, b: 2, k: "y" },
        { a: 2, b: 2, k: "z" },
        { a: 1, b: null, k: "w" },
      ],
      [
        { a: 3, b: 1, k: "v" },
        { a: 1, b: 1, k: "u" },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.filter((F.col("a") == F.col("b")) & (F.col("a") == 1))`,
  arus: ({ df, F }) => df.filter(F.col("a").equalTo(F.col("b")).and(F.col("a").equalTo(1))),
});
