import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "session_window(ts, '10 seconds') per key with delay 5 s, append mode: sessions close when end <= W(N); rows within the gap extend a session across batches.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(5) },
        { k: "b", ts: t(2) },
      ],
      [{ k: "a", ts: t(14) }],
      [{ k: "b", ts: t(40) }],
      [{ k: "a", ts: t(60) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", "10 seconds"), "k").count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", "10 seconds"), "k").count(),
});
