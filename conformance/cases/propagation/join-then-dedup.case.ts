import { defineCase, t } from "../../case.js";
import { impClkInputs } from "../impressions-clicks.js";

const CONDITION = "ad = cad AND ct >= it AND ct <= it + interval 10 seconds";

export default defineCase({
  description:
    "dropDuplicates(ad, it) over a time-range stream-stream join: the deduplication's state is evicted by the join's output watermark, not the global one (numRowsTotal / numRowsRemoved per batch).",
  inputs: impClkInputs(
    [
      [
        { ad: 1, it: t(1) },
        { ad: 2, it: t(3) },
      ],
      [{ ad: 3, it: t(12) }],
      [{ ad: 4, it: t(30) }],
      [{ ad: 5, it: t(45) }],
    ],
    [
      [
        { cad: 1, ct: t(2) },
        { cad: 1, ct: t(4) },
      ],
      [{ cad: 3, ct: t(15) }],
      [{ cad: 4, ct: t(31) }],
      [{ cad: 5, ct: t(46) }],
    ],
  ),
  outputMode: "append",
  pyspark: `def build(spark, imp, clk):
    return imp.join(clk, F.expr("${CONDITION}")).dropDuplicates(["ad", "it"]).select("ad", "it")`,
  arus: ({ inputs, F }) => inputs.imp.join(inputs.clk, F.expr(CONDITION)).dropDuplicates(["ad", "it"]).select("ad", "it"),
});
