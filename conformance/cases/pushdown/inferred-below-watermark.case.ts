import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "IsNotNull(k), inferred from `length(k) > 0` written after withWatermark, is pushed below the watermark into the scan: the NULL-key row at :50 neither counts as input nor moves the watermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: null, ts: t(50) },
      ],
      [
        { k: "a", ts: t(3) },
        { k: "b", ts: t(12) },
      ],
      [{ k: "a", ts: t(30) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").filter(F.length("k") > 0).groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "5 seconds").filter(F.length("k").gt(0)).groupBy(F.window("ts", "10 seconds")).count(),
});
