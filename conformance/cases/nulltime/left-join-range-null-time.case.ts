import { defineCase } from "../../case.js";
import { lrInputs } from "./inputs.js";

export default defineCase({
  description:
    "The same range as a left outer join: only the right side is filtered (isnotnull inferred for the side that must match); the left NULL-time rows are stored and, never evicted, never emitted.",
  inputs: lrInputs(),
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.join(r, F.expr("k = rk AND rt >= ts AND rt <= ts + INTERVAL 5 SECONDS"), "left_outer")`,
  arus: ({ inputs, F }) => inputs.l.join(inputs.r, F.expr("k = rk AND rt >= ts AND rt <= ts + INTERVAL 5 SECONDS"), "left_outer"),
});
