import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Window late test uses window.end <= late watermark: with W = :20, a row at :15 (window [10,20), end = :20) is dropped and a row at :20 (window [20,30)) is kept; update mode.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(30) }], [{ ts: t(31) }], [{ ts: t(15) }, { ts: t(19.999999) }, { ts: t(20) }]],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count(),
});
