import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Console sink with truncate=false: window structs printed in full and cells left-aligned; timestamps with fractional seconds trimmed of trailing zeros.",
  input: {
    schema: "ts TIMESTAMP",
    batches: [[{ ts: t(1.5) }, { ts: t(2, 120) }], [{ ts: t(40) }]],
  },
  outputMode: "update",
  pyspark: `df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).agg(F.count("*").alias("n"), F.max("ts").alias("latest"))`,
  arus: ({ df, F }) =>
    df.withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).agg(F.count("*").alias("n"), F.max("ts").alias("latest")),
  console: { truncate: false },
});
