import { defineCase, t } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 6 cases 18/21, seed 7 cases 37/42), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "Two withWatermark calls on one lineage: Spark 4.3 accepts the query at start(), runs batch 0 (watermark 0) and fails planning batch 1, the first with a non-zero watermark ('Redefining watermark is disallowed', from the watermark propagation over the physical plan, wrapped in STREAM_FAILED).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(5) }], [{ k: "b", ts: t(30) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").withWatermark("ts", "1 minute")`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").withWatermark("ts", "1 minute"),
  expectError: "Redefining watermark is disallowed",
  notes:
    "Spark 4.3.0: batch 0 delivered [{k:'a',ts:'2024-01-01T00:00:05.000000Z'}] (watermark 1970), then phase run: [STREAM_FAILED] ... terminated with exception: Redefining watermark is disallowed. You can set the config 'spark.sql.streaming.statefulOperator.allowMultiple' to 'false' .... " +
    "arus (before the fix): phase start (streaming-checks.ts), same text, no batch. " +
    "Spark checks only once the watermark is non-zero: with a filter between the two calls that removes every row (the second watermark node never sees an event time, the global minimum stays 0), Spark runs the whole query without error where arus refuses it at start.",
});
