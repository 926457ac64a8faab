import { defineCase, t } from "../../case.js";

export default defineCase({
  description: "Rows with a NULL event time are dropped by window() and do not move the watermark; update mode with watermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "b", ts: null },
      ],
      [{ k: "c", ts: null }],
      [{ k: "d", ts: t(7) }],
    ],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).agg(F.count("*").alias("n"), F.collect_list("k").alias("ks"))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy(F.window("ts", "10 seconds"))
      .agg(F.count("*").alias("n"), F.collect_list("k").alias("ks")),
});
