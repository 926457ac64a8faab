import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    'withWatermark("TS") on a column named ts (names resolve case-insensitively): the aggregation counts as watermarked in append mode, and a filter on ts stays above the watermark, so the filtered-out row at :50 still moves it and [0,10) closes after batch 0.',
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(50) },
        { k: "x", ts: t(2) },
      ],
      [
        { k: "a", ts: t(3) },
        { k: "b", ts: t(12) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("TS", "5 seconds").filter((F.col("Ts") < F.lit("2024-01-01 00:00:40").cast("timestamp")) & (F.col("k") != "x")).groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) =>
    df
      .withWatermark("TS", "5 seconds")
      .filter(F.col("Ts").lt(F.lit("2024-01-01 00:00:40").cast("timestamp")).and(F.col("k").notEqual("x")))
      .groupBy(F.window("ts", "10 seconds"))
      .count(),
});
