import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Complete mode with a watermark: no late filtering and no eviction (semantics 2.1), so a row far behind the watermark still updates its old window; numRowsDroppedByWatermark stays 0.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(5) }], [{ ts: t(100) }], [{ ts: t(6) }], [{ ts: t(7) }]],
  },
  outputMode: "complete",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
});
