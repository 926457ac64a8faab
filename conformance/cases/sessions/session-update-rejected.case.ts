import { defineCase, t } from "../../case.js";

export default defineCase({
  description: "Update output mode is not supported for session windows (semantics 3.3).",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(1) }]] },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", "10 seconds"), "k").count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", "10 seconds"), "k").count(),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
});
