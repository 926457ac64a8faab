import { defineCase } from "../../case.js";

export default defineCase({
  description: "Under ANSI (Spark 4 default) integer division by zero fails the query with DIVIDE_BY_ZERO.",
  input: {
    schema: "a INT, b INT",
    batches: [[{ a: 1, b: 1 }], [{ a: 1, b: 0 }]],
  },
  pyspark: `df.select((df.a / df.b).alias("q"))`,
  arus: ({ df, F }) => df.select(F.col("a").divide(F.col("b")).alias("q")),
  expectError: "DIVIDE_BY_ZERO",
});
