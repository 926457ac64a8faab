import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Sliding windows judge each (row, window) pair: with W = :20, a row at :18 is dropped for [10,20) but kept for [15,25); update mode.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(30) }], [{ ts: t(30) }], [{ ts: t(18) }]],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds", "5 seconds")).count()`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy(F.window("ts", "10 seconds", "5 seconds"))
      .count(),
});
