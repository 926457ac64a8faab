import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 1 cases 6/36, seed 2 case 54), minimised by hand.
export default defineCase({
  description:
    "dropDuplicatesWithinWatermark without a watermark in Complete mode: Spark reports the output mode first (STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION), not the missing watermark.",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(5) }]] },
  outputMode: "complete",
  pyspark: `df.dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.dropDuplicatesWithinWatermark(["k"]),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
  notes:
    "Spark 4.3.0 (start): [STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: complete. This output mode is not supported for no streaming aggregations ... " +
    "arus (start): _LEGACY_ERROR_TEMP_3102 'dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without watermark; call withWatermark(...) first.' (its plan walk checks the deduplicate node before the mode).",
});
