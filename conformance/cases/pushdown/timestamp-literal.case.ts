import { defineCase, t } from "../../case.js";

// From the differential fuzzer (conformance/fuzz, seed 1 case 21, seed 2 cases 10/19/36/44; was fuzz/found/timestamp-literal-filter-not-pushed), minimised by hand.
// In the notes, "arus:" is what arus did before the fix.
export default defineCase({
  description:
    "A comparison of a TIMESTAMP column with a timestamp literal is pushed into the JSON scan by Spark (LessThan(ts,2024-01-01 00:00:10.0)), so rows it removes are not numInputRows; no watermark involved.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "b", ts: t(50) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.filter("ts < TIMESTAMP '2024-01-01 00:00:10'")`,
  arus: ({ df }) => df.filter("ts < TIMESTAMP '2024-01-01 00:00:10'"),
  notes:
    "Spark 4.3.0: batch 0 rows [{k:'a',ts:'2024-01-01T00:00:05.000000Z'}], numInputRows 1 (PushedFilters: [IsNotNull(ts), LessThan(ts,2024-01-01 00:00:10.0)]). " +
    "arus: same rows, numInputRows 2; its explain shows PushedFilters: [IsNotNull(ts)] only. The same with F.col('ts') < F.lit('2024-01-01 00:00:10').cast('timestamp'), where arus also leaves the CAST unfolded in the optimized plan.",
});
