import { defineCase } from "../../case.js";

export default defineCase({
  description: "when/otherwise chains, including a NULL input falling through to otherwise, and a when without otherwise (NULL).",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 50 },
        { k: "c", v: null },
      ],
      [{ k: "d", v: 100 }],
    ],
  },
  pyspark: `df.select("k",
    F.when(df.v < 10, "small").when(df.v < 100, "medium").otherwise("large").alias("size"),
    F.when(df.v == 1, F.lit(True)).alias("is_one"))`,
  arus: ({ df, F }) =>
    df.select(
      "k",
      F.when(F.col("v").lt(10), "small").when(F.col("v").lt(100), "medium").otherwise("large").alias("size"),
      F.when(F.col("v").equalTo(1), F.lit(true)).alias("is_one"),
    ),
});
