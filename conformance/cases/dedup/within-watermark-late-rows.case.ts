import { defineCase, t } from "../../case.js";

export default defineCase({
  description: "dropDuplicatesWithinWatermark drops late rows (ts <= W(N-1)) of new keys and counts them in numRowsDroppedByWatermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "a", ts: t(40) }],
      [{ k: "b", ts: t(41) }],
      [
        { k: "c", ts: t(30) },
        { k: "d", ts: t(30, 1) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"]),
});
