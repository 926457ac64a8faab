import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Chained windowed aggregations (Spark's documented pattern): window_time(window) of a first 10-second count keeps the event-time marker, so a second groupBy(window(window_time(window), '20 seconds')) is allowed in append mode and closes by the propagated watermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(4) },
        { k: "b", ts: t(12) },
      ],
      [{ k: "a", ts: t(25) }],
      [{ k: "a", ts: t(41) }],
      [{ k: "a", ts: t(70) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds")).count().groupBy(F.window(F.window_time("window"), "20 seconds")).agg(F.sum("count").alias("n"), F.count("*").alias("windows"))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds"))
      .count()
      .groupBy(F.window(F.window_time("window"), "20 seconds"))
      .agg(F.sum("count").alias("n"), F.count("*").alias("windows")),
});
