import { defineCase } from "../../case.js";
import { lrInputs } from "./inputs.js";

export default defineCase({
  description:
    "A stream-stream inner join on the key alone, NULL event times on both sides: the rows are not late, they match (n with n, in batches 0 and 1) and are never evicted.",
  inputs: lrInputs(),
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.join(r, F.expr("k = rk"))`,
  arus: ({ inputs, F }) => inputs.l.join(inputs.r, F.expr("k = rk")),
});
