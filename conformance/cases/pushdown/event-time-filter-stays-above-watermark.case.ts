import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A filter on the event-time column after withWatermark stays above the watermark (Spark does not push it through): the filtered-out row at :50 still moves the watermark and counts as input, so [0,10) closes after batch 0.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(50) },
      ],
      [
        { k: "a", ts: t(3) },
        { k: "b", ts: t(12) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").filter(F.col("ts") < F.lit("2024-01-01 00:00:40").cast("timestamp")).groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .filter(F.col("ts").lt(F.lit("2024-01-01 00:00:40").cast("timestamp")))
      .groupBy(F.window("ts", "10 seconds"))
      .count(),
});
