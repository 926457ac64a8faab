import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Stateless projection with integer arithmetic: +, -, *, / (always double), % and unary minus, plus default column names Spark derives from the expressions.",
  input: {
    schema: "k STRING, v INT, w BIGINT",
    batches: [
      [
        { k: "a", v: 7, w: 2 },
        { k: "b", v: -7, w: 3 },
      ],
      [{ k: "c", v: 0, w: 5 }],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("k", df.v + 1, df.v - df.w, df.v * 2, df.v / df.w, df.v % 3, (-df.v).alias("neg"))`,
  arus: ({ df, F }) =>
    df.select(
      "k",
      F.col("v").plus(1),
      F.col("v").minus(F.col("w")),
      F.col("v").multiply(2),
      F.col("v").divide(F.col("w")),
      F.col("v").mod(3),
      F.col("v").multiply(-1).alias("neg"),
    ),
  notes: "Default names are Spark's: (v + 1), (v - w), (v * 2), (v / w), (v % 3).",
});
