import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "The foreachBatch upsert recipe: keep the newest row per key of each micro-batch with row_number() over (PARTITION BY id ORDER BY ts DESC), then filter rn = 1.",
  input: {
    schema: "id STRING, ts TIMESTAMP, status STRING",
    batches: [
      [
        { id: "o1", ts: "2024-01-01T00:00:01.000000Z", status: "new" },
        { id: "o2", ts: "2024-01-01T00:00:05.000000Z", status: "new" },
        { id: "o1", ts: "2024-01-01T00:00:03.000000Z", status: "paid" },
        { id: "o1", ts: "2024-01-01T00:00:02.000000Z", status: "packed" },
      ],
      [
        { id: "o2", ts: "2024-01-01T00:00:09.000000Z", status: "shipped" },
        { id: "o3", ts: "2024-01-01T00:00:07.000000Z", status: "new" },
        { id: "o2", ts: "2024-01-01T00:00:08.000000Z", status: "paid" },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    pyspark: `(df.withColumn("rn", F.row_number().over(Window.partitionBy("id").orderBy(F.col("ts").desc())))
      .where("rn = 1").drop("rn"))`,
    arus: ({ df, F, Window }) =>
      df
        .withColumn("rn", F.row_number().over(Window.partitionBy("id").orderBy(F.col("ts").desc())))
        .where("rn = 1")
        .drop("rn"),
  },
});
