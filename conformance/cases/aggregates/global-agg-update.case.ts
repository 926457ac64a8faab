import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Global aggregation in update mode: the single group is emitted in every batch that has input rows (what about empty ones?).",
  input: {
    schema: "v BIGINT",
    batches: [[{ v: 1 }], [], [{ v: 2 }, { v: 3 }]],
  },
  outputMode: "update",
  pyspark: `df.agg(F.count("*").alias("n"), F.sum("v").alias("s"))`,
  arus: ({ df, F }) => df.agg(F.count("*").alias("n"), F.sum("v").alias("s")),
});
