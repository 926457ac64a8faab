import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "df.observe below a windowed count (append, delay 5 s): progress observedMetrics holds each batch's own count, max, sum, avg and decimal sum, in Spark's row JSON (timestamps as text); batches with no rows (an empty file, the watermark's no-data batch) show what Spark reports then.",
  input: {
    schema: "k STRING, v BIGINT, ts TIMESTAMP, d DOUBLE",
    batches: [
      [
        { k: "a", v: 1, ts: t(1), d: 1.5 },
        { k: "b", v: 4, ts: t(2.25), d: 2.25 },
      ],
      [],
      [{ k: "c", v: -3, ts: t(25), d: 0.5 }],
    ],
  },
  outputMode: "append",
  pyspark: `df.observe("m", F.count(F.lit(1)).alias("rows"), F.max("v").alias("maxV"), F.max("ts").alias("maxTs"), F.sum("v").alias("s"), F.avg("d").alias("avgD"), F.sum(F.col("d").cast("decimal(10,2)")).alias("dsum"), F.lit("x").alias("tag")).withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) =>
    df
      .observe(
        "m",
        F.count(F.lit(1)).alias("rows"),
        F.max("v").alias("maxV"),
        F.max("ts").alias("maxTs"),
        F.sum("v").alias("s"),
        F.avg("d").alias("avgD"),
        F.sum(F.col("d").cast("decimal(10,2)")).alias("dsum"),
        F.lit("x").alias("tag"),
      )
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds"))
      .count(),
});
