import { defineCase, t } from "../../case.js";

const input = (name: string, delay: string, batches: { ts: string }[][]) => ({
  name,
  schema: "ts TIMESTAMP",
  watermark: { column: "ts", delay },
  batches,
});

export default defineCase({
  description:
    "Union of two watermarked streams: the global watermark is the min of the two (default policy); each trigger reads one file from each input.",
  inputs: [
    input("fast", "5 seconds", [[{ ts: t(100) }], [{ ts: t(200) }], [{ ts: t(40) }]]),
    input("slow", "5 seconds", [[{ ts: t(50) }], [{ ts: t(60) }], [{ ts: t(41) }]]),
  ],
  outputMode: "append",
  pyspark: `def build(spark, fast, slow):
    return fast.union(slow).groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ inputs, F }) => inputs.fast.union(inputs.slow).groupBy(F.window("ts", "10 seconds")).count(),
});
