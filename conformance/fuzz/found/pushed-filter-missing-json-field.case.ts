import { defineCase } from "../../case.js";

// Found by conformance/fuzz (seed 1 case 16, seed 2 cases 20/35/55, ...), minimised by hand.
export default defineCase({
  description:
    "A filter pushed into the JSON scan is never evaluated on a line that lacks the filtered field, so Spark counts that line in numInputRows (the Filter above the scan drops it later); an explicit null is evaluated and filtered in the scan.",
  input: {
    schema: "k STRING, v INT",
    batches: [[{ k: "a", v: 1 }, { v: 2 }, { k: null, v: 3 }, { k: "b", v: 4 }]],
  },
  outputMode: "append",
  pyspark: `df.filter(F.col("k") == "a")`,
  arus: ({ df, F }) => df.filter(F.col("k").equalTo("a")),
  notes:
    "Spark 4.3.0: batch 0 rows [{k:'a',v:1}], numInputRows 2 (the line {v:2} passes the pushed IsNotNull(k)/EqualTo(k,a): JsonFilters only runs a filter once all its fields were set, and k never is). " +
    "arus: same rows, numInputRows 1 (it evaluates the pushed filter on the NULL it fills in for the missing field). Same cause when the missing field is the event-time column under window() (its IsNotNull(ts) is pushed).",
});
