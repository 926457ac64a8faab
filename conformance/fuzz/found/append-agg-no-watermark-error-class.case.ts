import { defineCase } from "../../case.js";

// Found by conformance/fuzz (seed 2 case 47). The main harness does not compare arus's error class; fuzz/run.ts does.
export default defineCase({
  description:
    "Append mode over a streaming aggregation without a watermark: Spark 4.3 refuses it at start with STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION.",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "append",
  pyspark: `df.groupBy("k").count()`,
  arus: ({ df }) => df.groupBy("k").count(),
  expectError: "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
  notes:
    "Spark 4.3.0 (start): [STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: append. This output mode is not supported for streaming aggregations without watermark on streaming DataFrames/DataSets. SQLSTATE: 42KDE. " +
    "arus (start): AnalysisException with errorClass _LEGACY_ERROR_TEMP_3102 and the pre-4.0 text 'Append output mode not supported when there are streaming aggregations on streaming DataFrames/DataSets without watermark; ...' (src/analyzer/streaming-checks.ts). " +
    "modes/append-agg-without-watermark-rejected passes only because compare.ts checks Spark's error, not arus's.",
});
