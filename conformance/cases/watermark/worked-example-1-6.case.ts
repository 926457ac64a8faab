import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "The worked example of semantics 1.6 (window 10 s, delay 10 s, append) with the file source: data batches leave no gap for mid-stream no-data batches, so eviction happens in the next data batch and only a trailing no-data batch is added.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(5) }, { ts: t(12) }], [{ ts: t(25) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
  console: {},
});
