import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A filter written after withWatermark that does not read the event-time column is pushed below the watermark and into the JSON scan: the filtered-out row at :50 moves neither the watermark nor numInputRows, so the window [0,10) is still open in batch 1.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "x", ts: t(50) },
        { k: null, ts: t(51) },
      ],
      [
        { k: "a", ts: t(3) },
        { k: "b", ts: t(12) },
      ],
      [{ k: "a", ts: t(30) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").filter(F.col("k") != "x").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "5 seconds").filter(F.col("k").notEqual("x")).groupBy(F.window("ts", "10 seconds")).count(),
});
