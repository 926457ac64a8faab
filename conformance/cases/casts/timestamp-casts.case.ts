import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Timestamp casts in UTC: to string (fraction trimmed), to BIGINT (whole seconds, floor for negatives), to DATE, to DOUBLE (seconds with fraction), and a string with a zone offset to TIMESTAMP.",
  input: {
    schema: "ts TIMESTAMP, s STRING",
    batches: [
      [
        { ts: t(1.5), s: "2024-01-01 10:00:00+02:00" },
        { ts: t(0, 123), s: "2024-01-01T00:00:00.000001Z" },
        { ts: "1969-12-31T23:59:59.500000Z", s: "2024-01-01" },
      ],
    ],
  },
  pyspark: `df.select(df.ts.cast("string").alias("ts_str"), df.ts.cast("bigint").alias("ts_long"),
    df.ts.cast("date").alias("ts_date"), df.ts.cast("double").alias("ts_double"), df.s.cast("timestamp").alias("s_ts"))`,
  arus: ({ df, F }) =>
    df.select(
      F.col("ts").cast("string").alias("ts_str"),
      F.col("ts").cast("bigint").alias("ts_long"),
      F.col("ts").cast("date").alias("ts_date"),
      F.col("ts").cast("double").alias("ts_double"),
      F.col("s").cast("timestamp").alias("s_ts"),
    ),
});
