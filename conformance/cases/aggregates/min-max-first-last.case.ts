import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "min/max on strings and timestamps, first/last (input order within local[1], one partition) and first(ignorenulls=True), update mode.",
  input: {
    schema: "k STRING, s STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", s: null, ts: "2024-01-01T00:00:03.000001Z" },
        { k: "a", s: "pear", ts: "2024-01-01T00:00:01Z" },
        { k: "a", s: "apple", ts: "2024-01-01T00:00:02Z" },
      ],
      [
        { k: "a", s: "zebra", ts: "2023-12-31T00:00:00Z" },
        { k: "b", s: null, ts: null },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.min("s").alias("min_s"), F.max("s").alias("max_s"), F.min("ts").alias("min_ts"),
    F.max("ts").alias("max_ts"), F.first("s").alias("first_s"), F.last("s").alias("last_s"),
    F.first("s", ignorenulls=True).alias("first_nn"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.min("s").alias("min_s"),
        F.max("s").alias("max_s"),
        F.min("ts").alias("min_ts"),
        F.max("ts").alias("max_ts"),
        F.first("s").alias("first_s"),
        F.last("s").alias("last_s"),
        F.first("s", true).alias("first_nn"),
      ),
});
