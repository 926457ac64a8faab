import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "dropDuplicates(['k', 'ts']) with a watermark on ts: state keys with ts <= W(N) are evicted (numRowsTotal shrinks), rows with ts <= W(N-1) are dropped as late and counted.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(1) },
        { k: "b", ts: t(2) },
      ],
      [{ k: "c", ts: t(30) }],
      [
        { k: "a", ts: t(1) },
        { k: "d", ts: t(25) },
      ],
      [{ k: "d", ts: t(25) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").dropDuplicates(["k", "ts"])`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").dropDuplicates(["k", "ts"]),
});
