import { defineCase } from "../../case.js";

export default defineCase({
  description: "Under ANSI, INT + INT overflow fails the query (ARITHMETIC_OVERFLOW) instead of wrapping.",
  input: {
    schema: "a INT",
    batches: [[{ a: 2147483647 }]],
  },
  pyspark: `df.select((df.a + 1).alias("b"))`,
  arus: ({ df, F }) => df.select(F.col("a").plus(1).alias("b")),
  expectError: "ARITHMETIC_OVERFLOW",
});
