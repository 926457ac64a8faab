import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Batch N drops late rows with W(N-1) but evicts with W(N) (semantics 1.4): a row older than W(N) arriving in batch N is still aggregated and, in append mode, emitted in that same batch; the same row one batch later is dropped.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(30) }], [{ ts: t(5) }], [{ ts: t(6) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
});
