import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 2 case 37). The main harness does not compare arus's error class; fuzz/run.ts does.
export default defineCase({
  description:
    "Complete mode without a streaming aggregation: Spark 4.3 refuses it at start with STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION.",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(5) }]] },
  outputMode: "complete",
  pyspark: `df.withWatermark("ts", "5 seconds").dropDuplicates(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").dropDuplicates(["k"]),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
  notes:
    "Spark 4.3.0 (start): [STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: complete. This output mode is not supported for no streaming aggregations on streaming DataFrames/DataSets. SQLSTATE: 42KDE. " +
    "arus (start): _LEGACY_ERROR_TEMP_3102 'Complete output mode not supported when there are no streaming aggregations on streaming DataFrames/Datasets; use append or update.'",
});
