import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "dropDuplicatesWithinWatermark eviction is inclusive (W*1000 >= expiresAt): key first seen at :10 with delay 5 s expires at :15 and is gone once W reaches exactly :15.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(10) }], [{ k: "x", ts: t(20) }], [{ k: "a", ts: t(21) }], [{ k: "a", ts: t(22) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").dropDuplicatesWithinWatermark(["k"]),
});
