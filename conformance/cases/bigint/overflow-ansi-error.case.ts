import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Under ANSI (Spark 4's default), BIGINT + BIGINT past Long.MaxValue fails the query (ARITHMETIC_OVERFLOW) instead of wrapping.",
  input: {
    schema: "a BIGINT",
    files: ['{"a": 9007199254740993}\n', '{"a": 9223372036854775807}\n'],
  },
  pyspark: `df.select((df.a + 1).alias("b"))`,
  arus: ({ df, F }) => df.select(F.col("a").plus(1).alias("b")),
  expectError: "ARITHMETIC_OVERFLOW",
});
