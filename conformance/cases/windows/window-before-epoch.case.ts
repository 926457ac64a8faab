import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Windows over pre-1970 timestamps use floor alignment ([23:50, 00:00) for -300 s); the watermark never goes below 0 (epoch), so nothing before 1970 is evicted; update mode.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [
      [{ ts: "1969-12-31T23:55:00Z" }, { ts: "1969-12-31T23:59:59.999999Z" }],
      [{ ts: "1970-01-01T00:00:00Z" }, { ts: "1969-12-31T23:40:00Z" }],
    ],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "1 minute").groupBy(F.window("ts", "10 minutes")).count()`,
  arus: ({ df, F }) => df.withWatermark("ts", "1 minute").groupBy(F.window("ts", "10 minutes")).count(),
});
