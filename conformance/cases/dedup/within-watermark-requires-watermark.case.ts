import { defineCase } from "../../case.js";

export default defineCase({
  description: "dropDuplicatesWithinWatermark without any watermark is rejected (semantics 2.3).",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "append",
  pyspark: `df.dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.dropDuplicatesWithinWatermark(["k"]),
  expectError: "watermark",
});
