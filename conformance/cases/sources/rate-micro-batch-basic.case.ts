import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "rate-micro-batch, 3 rows per batch, 1 partition, startTimestamp 1000, advance 500 ms: batch k has values [3k, 3k+3) all stamped start + k*advance (semantics 9.2). Default trigger, stopped after 3 batches.",
  input: {
    rateMicroBatch: { rowsPerBatch: 3, numPartitions: 1, startTimestamp: 1000, advanceMillisPerBatch: 500 },
    numBatches: 3,
  },
  outputMode: "append",
  pyspark: `df.select("timestamp", "value", (df.value % 2 == 0).alias("even"))`,
  arus: ({ df, F }) => df.select("timestamp", "value", F.col("value").mod(2).equalTo(0).alias("even")),
});
