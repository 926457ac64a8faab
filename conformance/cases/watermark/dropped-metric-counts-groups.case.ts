import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "numRowsDroppedByWatermark counts pre-aggregated groups, not input rows (semantics 2.1): three late rows of one window count as 1, plus 1 for a second late window.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(60) }], [{ ts: t(61) }], [{ ts: t(1) }, { ts: t(2) }, { ts: t(3) }, { ts: t(15) }, { ts: t(55) }]],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
});
