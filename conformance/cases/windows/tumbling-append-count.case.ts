import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Tumbling 10 s window count, watermark delay 10 s, append mode (semantics 1.6): a window is emitted in the first batch whose W(N) reaches its end.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "b", ts: t(12) },
      ],
      [{ k: "c", ts: t(25) }],
      [{ k: "d", ts: t(14) }],
      [{ k: "e", ts: t(41) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
  console: {},
});
