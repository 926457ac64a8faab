import { defineCase } from "../../case.js";
import { lrInputs } from "./inputs.js";

export default defineCase({
  description:
    "A stream-stream inner join with a time range over NULL event times: Spark infers isnotnull(ts) and isnotnull(rt) from the range and filters both sides before the join, so those rows are neither stored nor counted as late.",
  inputs: lrInputs(),
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.join(r, F.expr("k = rk AND rt >= ts AND rt <= ts + INTERVAL 5 SECONDS"))`,
  arus: ({ inputs, F }) => inputs.l.join(inputs.r, F.expr("k = rk AND rt >= ts AND rt <= ts + INTERVAL 5 SECONDS")),
});
