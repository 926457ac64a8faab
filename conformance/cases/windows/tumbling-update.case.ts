import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Tumbling window count with watermark in update mode: changed windows are emitted every batch; windows whose end <= W(N-1) are late and dropped.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "b", ts: t(12) },
      ],
      [{ k: "c", ts: t(35) }],
      [
        { k: "d", ts: t(8) },
        { k: "e", ts: t(13) },
      ],
      [
        { k: "f", ts: t(9) },
        { k: "g", ts: t(22) },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
});
