import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "rate-micro-batch driving a windowed count with watermark in update mode: W(k+1) = start + k*advance - delay, no no-data batches (every trigger has data).",
  input: {
    rateMicroBatch: { rowsPerBatch: 2, numPartitions: 1, startTimestamp: 0, advanceMillisPerBatch: 4000 },
    numBatches: 5,
  },
  outputMode: "update",
  pyspark: `df.withWatermark("timestamp", "3 seconds").groupBy(F.window("timestamp", "10 seconds")).agg(F.count("*").alias("n"), F.sum("value").alias("s"))`,
  arus: ({ df, F }) =>
    df
      .withWatermark("timestamp", "3 seconds")
      .groupBy(F.window("timestamp", "10 seconds"))
      .agg(F.count("*").alias("n"), F.sum("value").alias("s")),
});
