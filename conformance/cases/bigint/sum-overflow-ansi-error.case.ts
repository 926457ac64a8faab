import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A streaming sum(BIGINT) whose running total in state passes Long.MaxValue fails the query under ANSI (ARITHMETIC_OVERFLOW); the batch before, with a total beyond 2^53, is exact.",
  input: {
    schema: "k STRING, v BIGINT",
    files: ['{"k": "a", "v": 9223372036854775800}\n{"k": "a", "v": 6}\n{"k": "b", "v": 9007199254740993}\n', '{"k": "a", "v": 2}\n'],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.sum("v").alias("s"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.sum("v").alias("s")),
  expectError: "ARITHMETIC_OVERFLOW",
});
