import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A window function on a streaming DataFrame fails at start() with NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING (only time windows are allowed on streams).",
  input: {
    schema: "k STRING, v INT",
    batches: [[{ k: "a", v: 1 }]],
  },
  pyspark: `df.withColumn("r", F.sum("v").over(Window.partitionBy("k")))`,
  arus: ({ df, F }) => {
    // Window is not in the arus context of a streaming case: build the spec through SQL.
    return df.withColumn("r", F.expr("sum(v) OVER (PARTITION BY k)"));
  },
  expectError: "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING",
});
