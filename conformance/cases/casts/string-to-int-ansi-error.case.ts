import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Spark 4 runs with spark.sql.ansi.enabled=true by default: casting a non-numeric string to INT fails the query (CAST_INVALID_INPUT) instead of returning NULL.",
  input: {
    schema: "s STRING",
    batches: [[{ s: "12" }], [{ s: "abc" }]],
  },
  pyspark: `df.select(df.s.cast("int").alias("i"))`,
  arus: ({ df, F }) => df.select(F.col("s").cast("int").alias("i")),
  expectError: "CAST_INVALID_INPUT",
});
