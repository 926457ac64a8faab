import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "The watermark is computed from event times truncated to milliseconds: max ts :30.000999 gives W = :20.000, so a later row at :20.000500 is not late but :20.000000 is.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(30, 999) }], [{ ts: t(30) }], [{ ts: t(20, 500) }, { ts: t(20) }]],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy("ts").count()`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").groupBy("ts").count(),
});
