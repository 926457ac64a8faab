import { defineCase } from "../../case.js";
import { lInput } from "./inputs.js";

export default defineCase({
  description:
    "dropDuplicatesWithinWatermark on k with NULL event times: the first n passes, the second (batch 1) is a duplicate.",
  inputs: [lInput()],
  outputMode: "append",
  pyspark: `def build(spark, l):
    return l.dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ inputs }) => inputs.l.dropDuplicatesWithinWatermark(["k"]),
  notes:
    "Spark stores the NULL expiry (ts + delay) and reads it back as 0 (UnsafeRow.getLong), so the key of a NULL-time row is dropped at the second batch's eviction; arus never evicts it (a NULL time passes no watermark), so numRowsTotal stays one higher.",
});
