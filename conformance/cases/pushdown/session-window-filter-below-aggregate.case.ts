import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Filters after a session-window aggregation: the one on the grouping key goes through the session projection and the watermark into the JSON scan, the one on session_window.start below the aggregate as a test of each row's own session (start = its time), above the watermark, before sessions merge (PySpark 4.3's optimized plan shows both there): the row at :2 is dropped before it could open the session the row at :8 joins.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(2) },
        { k: "a", v: 2, ts: t(8) },
        { k: "b", v: 3, ts: t(9) },
      ],
      [
        { k: "a", v: 4, ts: t(12) },
        { k: "b", v: 5, ts: t(40) },
      ],
      [{ k: "a", v: 6, ts: t(60) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", "6 seconds"), "k").agg(F.sum("v").alias("s")).filter((F.col("k") == "a") & (F.col("session_window.start") >= F.lit("2024-01-01 00:00:05").cast("timestamp")))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.session_window(F.col("ts"), "6 seconds"), F.col("k"))
      .agg(F.sum("v").alias("s"))
      .filter(
        F.col("k")
          .equalTo("a")
          .and(F.col("session_window.start").geq(F.lit("2024-01-01 00:00:05").cast("timestamp"))),
      ),
});
