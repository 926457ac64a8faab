import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Empty input files are data batches with 0 input rows that leave the watermark alone; watermark does not go backwards when a batch's max is older.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(50) }], [], [{ ts: t(10) }], [], [{ ts: t(70) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "20 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "20 seconds")).count(),
});
