import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "year/month/dayofmonth/hour/minute/second, date_format, unix_timestamp (seconds, fraction dropped), timestamp_seconds and to_timestamp from a string, in session time zone UTC, with microsecond inputs.",
  input: {
    schema: "ts TIMESTAMP, s STRING, n BIGINT",
    batches: [
      [
        { ts: t(3723, 123456), s: "2024-02-29 12:34:56", n: 1700000000 },
        { ts: "1969-12-31T23:59:59.999999Z", s: "2024-13-01 00:00:00", n: -1 },
      ],
    ],
  },
  pyspark: `df.select("ts", F.year("ts").alias("y"), F.month("ts").alias("mo"), F.dayofmonth("ts").alias("d"),
    F.hour("ts").alias("h"), F.minute("ts").alias("mi"), F.second("ts").alias("sec"),
    F.date_format("ts", "yyyy-MM-dd HH:mm:ss.SSSSSS").alias("fmt"),
    F.unix_timestamp("ts").alias("unix"), F.timestamp_seconds("n").alias("from_n"),
    F.try_to_timestamp("s").alias("parsed"))`,
  arus: ({ df, F }) =>
    df.select(
      "ts",
      F.year("ts").alias("y"),
      F.month("ts").alias("mo"),
      F.dayofmonth("ts").alias("d"),
      F.hour("ts").alias("h"),
      F.minute("ts").alias("mi"),
      F.second("ts").alias("sec"),
      F.date_format("ts", "yyyy-MM-dd HH:mm:ss.SSSSSS").alias("fmt"),
      F.unix_timestamp("ts").alias("unix"),
      F.timestamp_seconds("n").alias("from_n"),
      F.try_to_timestamp("s").alias("parsed"),
    ),
  notes: "try_to_timestamp: an invalid date string gives NULL; plain to_timestamp raises under ANSI (see casts/).",
});
