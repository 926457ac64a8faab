import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Touching sessions merge (next.start <= current.end, inclusive): with gap 10 s, events at :00 and :10 form one session [:00, :20); :20.000001 ... also in the same batch; complete mode.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(0) },
        { k: "a", ts: t(10) },
      ],
      [
        { k: "a", ts: t(20) },
        { k: "a", ts: t(30, 1) },
      ],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy(F.session_window("ts", "10 seconds"), "k").agg(F.count("*").alias("n"))`,
  arus: ({ df, F }) => df.groupBy(F.session_window("ts", "10 seconds"), "k").agg(F.count("*").alias("n")),
});
