import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "groupBy on the event-time column itself, append mode, delay 10 s: a row whose ts equals the late watermark to the microsecond is dropped (ts <= wm), one a microsecond later is kept (semantics 2).",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(30) }], [{ ts: t(30) }], [{ ts: t(20) }, { ts: t(20, 1) }, { ts: t(20, -1) }], [{ ts: t(45) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy("ts").count()`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").groupBy("ts").count(),
});
