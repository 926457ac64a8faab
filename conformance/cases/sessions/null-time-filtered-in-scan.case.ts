import { defineCase, t } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 11 case 12), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "session_window(ts) filters out rows with a NULL event time; Spark pushes the inferred IsNotNull(ts) into the JSON scan, so such rows are not numInputRows (as for window(), where arus already matches).",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(5) },
        { k: "b", v: 2, ts: null },
        { k: "a", v: 1, ts: t(6) },
      ],
      [{ k: "b", v: 3, ts: t(30) }],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy(F.session_window("ts", "5 seconds"), "k").count()`,
  arus: ({ df, F }) => df.groupBy(F.session_window("ts", "5 seconds"), "k").count(),
  notes:
    "Spark 4.3.0: rows as arus; batch 0 numInputRows 2 (the NULL-time row is dropped in the scan), batch 1 1. " +
    "arus (before the fix): batch 0 numInputRows 3. The same query with window('ts', '10 seconds') or a sliding window gives 2 in both engines.",
});
