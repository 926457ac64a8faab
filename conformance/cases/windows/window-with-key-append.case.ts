import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "groupBy(window, key) with sum in append mode: each (window, key) group is emitted once when its window closes; includes the trailing no-data batch that closes the last windows.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(1) },
        { k: "b", v: 2, ts: t(2) },
        { k: "a", v: 3, ts: t(3) },
      ],
      [{ k: "a", v: 10, ts: t(11) }],
      [{ k: "b", v: 20, ts: t(25) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "2 seconds").groupBy(F.window("ts", "10 seconds"), "k").agg(F.sum("v").alias("total"))`,
  arus: ({ df, F }) => df.withWatermark("ts", "2 seconds").groupBy(F.window("ts", "10 seconds"), "k").agg(F.sum("v").alias("total")),
});
