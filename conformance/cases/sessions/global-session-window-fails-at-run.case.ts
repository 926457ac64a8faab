import { defineCase, t } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 3 case 28), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "A session window without another grouping key: Spark 4.3 accepts the query at start() and fails in the first batch's planning (AggUtils.planStreamingAggregationForSession: 'Global aggregation with session window in streaming query is not supported.').",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(1) }], [{ k: "b", ts: t(20) }]] },
  outputMode: "complete",
  pyspark: `df.groupBy(F.session_window("ts", "3 seconds")).count()`,
  arus: ({ df, F }) => df.groupBy(F.session_window("ts", "3 seconds")).count(),
  expectError: "Global aggregation with session window in streaming query is not supported",
  notes:
    "Spark 4.3.0: phase run (start() returns; the query terminates with AnalysisException 'Global aggregation with session window in streaming query is not supported.', no error class), no batch delivered. " +
    "arus (before the fix): phase start, AnalysisException 'Grouping key must be specified when using sessionWindow: add a column besides session_window(...) to groupBy().' (streaming-checks.ts), a text Spark does not have.",
});
