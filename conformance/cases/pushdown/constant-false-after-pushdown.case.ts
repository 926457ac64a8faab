import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 21 case 37), minimised by hand; fixed by folding constants
// again after the push-down (src/optimizer/optimizer.ts).
export default defineCase({
  description:
    "A filter on a constant grouping column (c = lit(1), then c > 1 after the aggregation) becomes 1 > 1 once pushed through the aggregate and the projection; Spark folds it to false and pushes it into the JSON scan, so no row is read.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "b", ts: t(6) },
      ],
      [{ k: "b", ts: t(30) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").withColumn("c", F.lit(1)).groupBy(F.window("ts", "10 seconds"), "c").count().filter(F.col("c") > 1)`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .withColumn("c", F.lit(1))
      .groupBy(F.window("ts", "10 seconds"), "c")
      .count()
      .filter(F.col("c").gt(1)),
  notes:
    "Spark 4.3.0: batches 0 and 1 empty, numInputRows 0 and 0, watermark 1970 both times, stateStoreSave numRowsTotal 0. " +
    "Before the fix arus gave the same rows, watermark and state but numInputRows 2 and 1: the pushed `1 > 1` stayed unfolded in a Filter above the scan.",
});
