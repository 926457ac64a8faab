import { defineCase } from "../../case.js";
import { lInput } from "./inputs.js";

export default defineCase({
  description:
    "groupBy on a watermarked timestamp with NULLs, Update mode: a NULL event time is never late (Spark's ts <= watermark is NULL), its group is emitted and stays in state, never evicted.",
  inputs: [lInput()],
  outputMode: "update",
  pyspark: `def build(spark, l):
    return l.groupBy("ts").agg(F.sum("v").alias("s"))`,
  arus: ({ inputs, F }) => inputs.l.groupBy("ts").agg(F.sum("v").alias("s")),
});
