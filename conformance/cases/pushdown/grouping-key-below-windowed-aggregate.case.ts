import { defineCase, t } from "../../case.js";

// From the differential fuzzer (conformance/fuzz, seed 1 case 27 and seed 8 case 6, noted in
// fuzz/found/filter-on-grouping-key-below-aggregate), written out by hand.
export default defineCase({
  description:
    "A filter on a grouping key written after a windowed aggregation with a watermark is pushed below the aggregate, the window projection and the watermark into the JSON scan: the other key's late-arriving time at :50 neither counts in numInputRows nor moves the watermark, so window [0,10) is still open in batch 1.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(1) },
        { k: "b", v: 2, ts: t(50) },
      ],
      [
        { k: "a", v: 3, ts: t(4) },
        { k: "b", v: 4, ts: t(12) },
      ],
      [{ k: "a", v: 5, ts: t(30) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds"), "k").agg(F.sum("v").alias("s")).filter(F.col("k") == "a")`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds"), F.col("k"))
      .agg(F.sum("v").alias("s"))
      .filter(F.col("k").equalTo("a")),
});
