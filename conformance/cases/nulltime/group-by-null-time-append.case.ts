import { defineCase } from "../../case.js";
import { lInput } from "./inputs.js";

export default defineCase({
  description:
    "The same grouping in Append mode: the NULL group is never emitted (no watermark passes it) and stays in state.",
  inputs: [lInput()],
  outputMode: "append",
  pyspark: `def build(spark, l):
    return l.groupBy("ts").agg(F.sum("v").alias("s"))`,
  arus: ({ inputs, F }) => inputs.l.groupBy("ts").agg(F.sum("v").alias("s")),
});
