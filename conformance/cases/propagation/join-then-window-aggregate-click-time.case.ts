import { defineCase, t } from "../../case.js";
import { impClkInputs } from "../impressions-clicks.js";

const CONDITION = "ad = cad AND ct >= it AND ct <= it + interval 10 seconds";

export default defineCase({
  description:
    "As join-then-window-aggregate, windows on the clicks' time ct: the join's output watermark (the minimum over both sides' state watermarks) still governs when the aggregation closes a window.",
  inputs: impClkInputs(
    [
      [
        { ad: 1, it: t(1) },
        { ad: 2, it: t(3) },
      ],
      [{ ad: 3, it: t(12) }],
      [{ ad: 4, it: t(30) }],
      [{ ad: 5, it: t(45) }],
      [{ ad: 6, it: t(70) }],
    ],
    [
      [{ cad: 1, ct: t(2) }],
      [
        { cad: 2, ct: t(9) },
        { cad: 3, ct: t(15) },
      ],
      [{ cad: 4, ct: t(31) }],
      [{ cad: 5, ct: t(46) }],
      [{ cad: 6, ct: t(71) }],
    ],
  ),
  outputMode: "append",
  pyspark: `def build(spark, imp, clk):
    return imp.join(clk, F.expr("${CONDITION}")).groupBy(F.window("ct", "10 seconds")).count()`,
  arus: ({ inputs, F }) => inputs.imp.join(inputs.clk, F.expr(CONDITION)).groupBy(F.window("ct", "10 seconds")).count(),
});
