import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Restarting with no new input files runs no batch at all (no previous plan, so no no-data batch), then a third run with data continues from the checkpoint.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(1) }], [{ k: "a", ts: t(30) }], [{ k: "b", ts: t(31) }]],
  },
  restartAt: [2, 2],
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy("k").count()`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").groupBy("k").count(),
});
