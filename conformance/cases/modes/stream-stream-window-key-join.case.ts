import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Stream-stream inner join on a window key (key predicate, semantics 12.3 case A): per-window counts of two streams joined on the window; state of both sides is evicted once window.end <= watermark.",
  inputs: [
    {
      name: "a",
      schema: "k INT, ts TIMESTAMP",
      watermark: { column: "ts", delay: "5 seconds" },
      batches: [
        [
          { k: 1, ts: t(1) },
          { k: 2, ts: t(3) },
        ],
        [{ k: 3, ts: t(12) }],
        [{ k: 4, ts: t(40) }],
      ],
    },
    {
      name: "b",
      schema: "j INT, tb TIMESTAMP",
      watermark: { column: "tb", delay: "5 seconds" },
      batches: [
        [{ j: 1, tb: t(2) }],
        [
          { j: 2, tb: t(13) },
          { j: 3, tb: t(4) },
        ],
        [{ j: 9, tb: t(41) }],
      ],
    },
  ],
  outputMode: "append",
  pyspark: `def build(spark, a, b):
    wa = a.select(F.window("ts", "10 seconds").alias("w"), "k")
    wb = b.select(F.window("tb", "10 seconds").alias("w"), "j")
    return wa.join(wb, "w").select(F.col("w.start").alias("start"), "k", "j")`,
  arus: ({ inputs, F }) => {
    const wa = inputs.a.select(F.window("ts", "10 seconds").alias("w"), "k");
    const wb = inputs.b.select(F.window("tb", "10 seconds").alias("w"), "j");
    return wa.join(wb, "w").select(F.col("w.start").alias("start"), "k", "j");
  },
});
