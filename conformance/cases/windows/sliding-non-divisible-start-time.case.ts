import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Window 12 s, slide 5 s, startTime 2 s (semantics 3.2): window does not divide by slide, so candidate windows not containing the row are filtered; complete mode, no watermark.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(5) }, { ts: t(7) }], [{ ts: t(16.5) }]],
  },
  outputMode: "complete",
  pyspark: `df.groupBy(F.window("ts", "12 seconds", "5 seconds", "2 seconds")).count()`,
  arus: ({ df, F }) => df.groupBy(F.window("ts", "12 seconds", "5 seconds", "2 seconds")).count(),
});
