import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A generator under a stateful operator: tags exploded per event, then counted per 10-second window and tag with a watermark in append mode (the event-time column passes through Generate).",
  input: {
    schema: "ts TIMESTAMP, tags ARRAY<STRING>",
    batches: [
      [
        { ts: t(1), tags: ["a", "b"] },
        { ts: t(4), tags: ["a"] },
      ],
      [{ ts: t(12), tags: ["b", "b"] }],
      [{ ts: t(31), tags: [] }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").withColumn("tag", F.explode("tags")).groupBy(F.window("ts", "10 seconds"), "tag").count()`,
  arus: ({ df, F }) =>
    df.withWatermark("ts", "5 seconds").withColumn("tag", F.explode("tags")).groupBy(F.window("ts", "10 seconds"), "tag").count(),
});
