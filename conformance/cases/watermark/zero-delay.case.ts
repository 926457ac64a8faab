import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Delay '0 seconds' (semantics 16: is it bumped to 1 ms in this Spark version?): after max ts :10, a new row at exactly :10 is late unless the delay is bumped.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "a", ts: t(10) }],
      [{ k: "b", ts: t(10) }],
      [
        { k: "c", ts: t(10) },
        { k: "d", ts: t(9.9995) },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "0 seconds").groupBy("ts").agg(F.collect_list("k").alias("ks"))`,
  arus: ({ df, F }) => df.withWatermark("ts", "0 seconds").groupBy("ts").agg(F.collect_list("k").alias("ks")),
});
