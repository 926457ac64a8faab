import { defineCase } from "../../case.js";

export default defineCase({
  description: "orderBy on a non-aggregated stream is rejected.",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "append",
  pyspark: `df.orderBy("k")`,
  arus: ({ df }) => df.orderBy("k"),
  expectError: "Sorting is not supported",
});
