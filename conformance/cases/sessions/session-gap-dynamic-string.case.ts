import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A dynamic session gap given as a string expression (CASE WHEN k = 'a' THEN '5 seconds' ELSE '20 seconds' END) is accepted and cast to an interval per row.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(8) },
        { k: "b", ts: t(2) },
        { k: "b", ts: t(15) },
      ],
      [{ k: "a", ts: t(60) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", F.expr("CASE WHEN k = 'a' THEN '5 seconds' ELSE '20 seconds' END")), "k").count()`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.session_window("ts", F.expr("CASE WHEN k = 'a' THEN '5 seconds' ELSE '20 seconds' END")), "k")
      .count(),
});
