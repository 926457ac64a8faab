import { defineCase } from "../../case.js";
import { lInput } from "./inputs.js";

export default defineCase({
  description:
    "dropDuplicates on (k, ts) with NULL event times: the first (n, NULL) passes, the second is a duplicate, and the key is never evicted.",
  inputs: [lInput()],
  outputMode: "append",
  pyspark: `def build(spark, l):
    return l.dropDuplicates(["k", "ts"])`,
  arus: ({ inputs }) => inputs.l.dropDuplicates(["k", "ts"]),
});
