import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Append window aggregation stopped after two input files and restarted on the same checkpoint: the first run ends with its trailing no-data batch, state survives, batch ids continue.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(5) }, { ts: t(12) }], [{ ts: t(25) }], [{ ts: t(14) }, { ts: t(27) }], [{ ts: t(50) }]],
  },
  restartAt: [2],
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
});
