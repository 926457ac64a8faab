import { defineCase } from "../../case.js";
import { lInput } from "./inputs.js";

export default defineCase({
  description:
    "dropDuplicatesWithinWatermark on k with NULL event times: the first n passes, the second (batch 1) is a duplicate, and the key is evicted as if it expired at 0.",
  inputs: [lInput()],
  outputMode: "append",
  pyspark: `def build(spark, l):
    return l.dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ inputs }) => inputs.l.dropDuplicatesWithinWatermark(["k"]),
  notes:
    "Spark stores the NULL expiry (ts + delay) and reads it back as 0 (UnsafeRow.getLong), so the key of a NULL-time row goes at the first eviction with a watermark at or past 0; arus reads its NaN expiry as 0 there too.",
});
