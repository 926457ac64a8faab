import { defineCase } from "../../case.js";

export default defineCase({
  description: "Global aggregation (no keys) in complete mode: one row per batch, also for an empty first batch (count 0, sum NULL).",
  input: {
    schema: "v BIGINT",
    batches: [[], [{ v: 5 }, { v: 6 }], [{ v: null }]],
  },
  outputMode: "complete",
  pyspark: `df.agg(F.count("*").alias("n"), F.sum("v").alias("s"), F.max("v").alias("mx"))`,
  arus: ({ df, F }) => df.agg(F.count("*").alias("n"), F.sum("v").alias("s"), F.max("v").alias("mx")),
});
