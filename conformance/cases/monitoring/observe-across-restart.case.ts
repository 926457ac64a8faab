import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "df.observe below a keyed count (update mode) across restarts from the checkpoint: each batch after a restart reports only its own rows (observed metrics are per batch, not state), and min/max of a string and a timestamp render as Spark's row JSON.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "b", v: 3, ts: t(10) },
        { k: "a", v: 5, ts: t(11.5) },
      ],
      [{ k: "c", v: 7, ts: t(20) }],
      [
        { k: "a", v: 1, ts: t(30) },
        { k: "a", v: 2, ts: t(31) },
        { k: "d", v: null, ts: t(5) },
      ],
    ],
  },
  outputMode: "update",
  restartAt: [1, 2],
  pyspark: `df.observe("seen", F.count(F.lit(1)).alias("rows"), F.count("v").alias("withV"), F.min("k").alias("firstKey"), F.max("ts").alias("latest"), F.sum("v").alias("total")).groupBy("k").count()`,
  arus: ({ df, F }) =>
    df
      .observe(
        "seen",
        F.count(F.lit(1)).alias("rows"),
        F.count("v").alias("withV"),
        F.min("k").alias("firstKey"),
        F.max("ts").alias("latest"),
        F.sum("v").alias("total"),
      )
      .groupBy("k")
      .count(),
});
