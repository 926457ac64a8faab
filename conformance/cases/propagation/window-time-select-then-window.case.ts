import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "window_time(window) selected as a column (alias et) after a windowed count, then a second windowed aggregation on et: the alias keeps the event-time marker.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(1) }, { ts: t(12) }], [{ ts: t(31) }], [{ ts: t(65) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "0 seconds").groupBy(F.window("ts", "10 seconds")).count().select(F.window_time("window").alias("et"), "count").groupBy(F.window("et", "30 seconds")).agg(F.sum("count").alias("n"))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "0 seconds")
      .groupBy(F.window("ts", "10 seconds"))
      .count()
      .select(F.window_time("window").alias("et"), "count")
      .groupBy(F.window("et", "30 seconds"))
      .agg(F.sum("count").alias("n")),
});
