import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Update-mode groupBy(k) downstream of withWatermark (key without event time): no late filtering, no eviction, but the advancing watermark still causes a trailing no-data batch (semantics 1.5).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(50) }], [{ k: "a", ts: t(1) }], [{ k: "b", ts: t(60) }]],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy("k").count()`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").groupBy("k").count(),
});
