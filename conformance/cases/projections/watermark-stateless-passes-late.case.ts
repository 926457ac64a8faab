import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "withWatermark alone filters nothing (semantics 1.1): a stateless query keeps rows far behind the watermark, and progress reports the watermark moving.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(100) }], [{ k: "late", ts: t(1) }], [{ k: "later", ts: t(0) }]],
  },
  pyspark: `df.withWatermark("ts", "5 seconds").select("k", "ts")`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").select("k", "ts"),
});
