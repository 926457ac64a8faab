import { defineCase } from "../../case.js";

export default defineCase({
  description: "Append mode with a streaming aggregation and no watermark is rejected at start (semantics 4.1).",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "append",
  pyspark: `df.groupBy("k").count()`,
  arus: ({ df }) => df.groupBy("k").count(),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
});
