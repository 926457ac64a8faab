import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "dropDuplicates(['k']) downstream of withWatermark(ts): late rows are dropped (and counted) even though ts is not a key, but keys are never evicted (semantics 2.2).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "a", ts: t(1) }],
      [{ k: "b", ts: t(40) }],
      [
        { k: "c", ts: t(5) },
        { k: "d", ts: t(35) },
      ],
      [{ k: "a", ts: t(50) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").dropDuplicates(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").dropDuplicates(["k"]),
});
