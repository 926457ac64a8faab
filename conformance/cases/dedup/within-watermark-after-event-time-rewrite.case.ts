import { defineCase, t } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 6 case 23, seed 7 case 59), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "withWatermark('ts') and then withColumn('ts', ts + interval): the new ts column carries no watermark, so Spark refuses dropDuplicatesWithinWatermark at start as if there were no watermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "a", ts: t(6) },
      ],
      [{ k: "b", ts: t(30) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").withColumn("ts", F.expr("ts + INTERVAL 1 SECOND")).dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df, F }) =>
    df.withWatermark("ts", "5 seconds").withColumn("ts", F.expr("ts + INTERVAL 1 SECOND")).dropDuplicatesWithinWatermark(["k"]),
  expectError: "dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without watermark",
  notes:
    "Spark 4.3.0 (start, _LEGACY_ERROR_TEMP_3102): 'dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without watermark;' (the plan shows Project [..., cast(ts#-T5000ms + INTERVAL '01' SECOND as timestamp) AS ts] over the EventTimeWatermark: no watermark metadata on its output). " +
    "arus (before the fix) ran the query and emits rows (streaming-checks.ts only looks for a watermark node below the deduplicate, not for an event-time column in its input). " +
    "The same rewrite before a windowed aggregation in append mode is refused by both (with the error-class difference of append-agg-no-watermark-error-class).",
});
