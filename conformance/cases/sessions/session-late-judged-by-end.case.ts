import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Session late test is on the session end (ts + gap), not ts (semantics 2.4): with W = :50 and gap 30 s, a row at :30 (end :60) is accepted while a row at :15 (end :45) is dropped.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "z", ts: t(60) }],
      [{ k: "z", ts: t(61) }],
      [
        { k: "a", ts: t(30) },
        { k: "b", ts: t(15) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.session_window("ts", "30 seconds"), "k").count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.session_window("ts", "30 seconds"), "k").count(),
});
