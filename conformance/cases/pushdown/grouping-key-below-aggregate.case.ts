import { defineCase } from "../../case.js";

// From the differential fuzzer (conformance/fuzz, seed 1 case 27, seed 2 case 45; was fuzz/found/filter-on-grouping-key-below-aggregate), minimised by hand.
// In the notes, "arus:" is what arus did before the fix.
export default defineCase({
  description:
    "A filter on a grouping column after a streaming aggregation is pushed below the aggregate by Spark (PushPredicateThroughNonJoin), down into the scan: the other groups never reach the state store and their rows are not numInputRows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
      ],
      [{ k: "a", v: 3 }],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.sum("v").alias("s")).filter(F.col("k") == "a")`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.sum("v").alias("s")).filter(F.col("k").equalTo("a")),
  notes:
    "Spark 4.3.0: rows batch 0 [{k:'a',s:1}], batch 1 [{k:'a',s:4}] (arus the same); progress batch 0 numInputRows 1, stateStoreSave numRowsTotal 1, numRowsUpdated 1; batch 1 numRowsTotal 1. " +
    "arus: batch 0 numInputRows 2, numRowsTotal 2, numRowsUpdated 2; batch 1 numRowsTotal 2 (the filter stays above the aggregate, group b is stored). " +
    "Through a watermark the pushed filter also stops rows from moving the watermark: with withWatermark before the groupBy, Spark's watermark stayed at 0 where arus's advanced (fuzz seed 1 case 27), and with a window in append mode arus then runs extra no-data batches Spark does not (seed 8 case 6: foreachBatch ids Spark [0..4], arus [0..6]).",
});
