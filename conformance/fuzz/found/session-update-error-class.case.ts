import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 3 case 52). The main harness does not compare arus's error class; fuzz/run.ts does.
export default defineCase({
  description: "Update mode over a session window: Spark 4.3 refuses it at start with STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION.",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(1) }]] },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.session_window("ts", "10 seconds"), "k").count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.session_window("ts", "10 seconds"), "k").count(),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
  notes:
    "Spark 4.3.0 (start): [STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: update. This output mode is not supported for session window on streaming DataFrames/DataSets. " +
    "arus (start): _LEGACY_ERROR_TEMP_3102 'Update output mode not supported for session window on streaming DataFrames/DataSets; use append or complete.' (sessions/session-update-rejected passes only because compare.ts does not check arus's class).",
});
