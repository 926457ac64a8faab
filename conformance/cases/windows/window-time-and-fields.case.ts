import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Selecting window.start / window.end and window_time(window) (= end - 1 microsecond) after a windowed aggregation, append mode.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(1) }, { ts: t(4) }], [{ ts: t(30) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "0 seconds").groupBy(F.window("ts", "5 seconds")).count().select(
    F.col("window.start").alias("start"), F.col("window.end").alias("end"), F.window_time("window").alias("wt"), "count")`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "0 seconds")
      .groupBy(F.window("ts", "5 seconds"))
      .count()
      .select(F.col("window.start").alias("start"), F.col("window.end").alias("end"), F.window_time("window").alias("wt"), "count"),
});
