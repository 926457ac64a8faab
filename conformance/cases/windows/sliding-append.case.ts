import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Sliding window 10 s / slide 5 s, delay 5 s, append mode: every row lands in two windows; each window is emitted once its end <= the eviction watermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(7) },
        { k: "b", ts: t(12) },
      ],
      [{ k: "c", ts: t(21) }],
      [{ k: "d", ts: t(33) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds", "5 seconds")).agg(F.count("*").alias("n"), F.collect_list("k").alias("ks"))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds", "5 seconds"))
      .agg(F.count("*").alias("n"), F.collect_list("k").alias("ks")),
});
