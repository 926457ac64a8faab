import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "dropDuplicatesWithinWatermark(['k']), delay 10 s: the first row of a key is emitted, duplicates are dropped while the key is in state (expires at first ts + delay, evicted when W >= expiry); afterwards the key can pass again.",
  input: {
    schema: "k STRING, ts TIMESTAMP, v INT",
    batches: [
      [
        { k: "a", ts: t(0), v: 1 },
        { k: "a", ts: t(5), v: 2 },
      ],
      [
        { k: "a", ts: t(8), v: 3 },
        { k: "b", ts: t(30), v: 4 },
      ],
      [{ k: "a", ts: t(25), v: 5 }],
      [{ k: "a", ts: t(26), v: 6 }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"]),
});
