import { defineCase } from "../../case.js";

export default defineCase({
  description: "Complete mode without an aggregation is rejected at start.",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "complete",
  pyspark: `df.select("k")`,
  arus: ({ df }) => df.select("k"),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
});
