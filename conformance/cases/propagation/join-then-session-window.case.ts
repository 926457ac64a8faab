import { defineCase, t } from "../../case.js";
import { impClkInputs } from "../impressions-clicks.js";

const CONDITION = "ad = cad AND ct >= it AND ct <= it + interval 10 seconds";

export default defineCase({
  description:
    "Session windows (gap 5 s, per ad % 2) over a time-range stream-stream join: the session operator closes sessions by the join's output watermark (global - 10 s - 1 ms), not by the global one.",
  inputs: impClkInputs(
    [
      [
        { ad: 1, it: t(1) },
        { ad: 3, it: t(3) },
      ],
      [{ ad: 5, it: t(12) }],
      [{ ad: 7, it: t(30) }],
      [{ ad: 9, it: t(45) }],
      [{ ad: 11, it: t(70) }],
    ],
    [
      [{ cad: 1, ct: t(2) }],
      [
        { cad: 3, ct: t(9) },
        { cad: 5, ct: t(15) },
      ],
      [{ cad: 7, ct: t(31) }],
      [{ cad: 9, ct: t(46) }],
      [{ cad: 11, ct: t(71) }],
    ],
  ),
  outputMode: "append",
  pyspark: `def build(spark, imp, clk):
    return imp.join(clk, F.expr("${CONDITION}")).withColumn("odd", F.col("ad") % 2).groupBy(F.session_window("it", "5 seconds"), "odd").count()`,
  arus: ({ inputs, F }) =>
    inputs.imp
      .join(inputs.clk, F.expr(CONDITION))
      .withColumn("odd", F.col("ad").mod(2))
      .groupBy(F.session_window("it", "5 seconds"), "odd")
      .count(),
});
