import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A later row that overlaps two stored sessions of a key merges them into one (gap 5 s: [0,5) and [8,13) plus a row at :04 -> [0,13)); append mode, delay 5 s.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(0) },
        { k: "a", ts: t(8) },
      ],
      [{ k: "a", ts: t(4) }],
      [{ k: "a", ts: t(100) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", "5 seconds"), "k").agg(F.count("*").alias("n"), F.min("ts").alias("first"))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.session_window("ts", "5 seconds"), "k")
      .agg(F.count("*").alias("n"), F.min("ts").alias("first")),
});
