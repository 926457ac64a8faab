import { defineCase } from "../../case.js";

export default defineCase({
  description: "count(distinct x) on a stream is rejected at analysis (semantics 4.1).",
  input: { schema: "k STRING, v INT", batches: [[{ k: "a", v: 1 }]] },
  outputMode: "complete",
  pyspark: `df.groupBy("k").agg(F.count_distinct("v").alias("d"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.count_distinct("v").alias("d")),
  expectError: "Distinct aggregations are not supported",
});
