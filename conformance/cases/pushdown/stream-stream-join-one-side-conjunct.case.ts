import { defineCase, t } from "../../case.js";
import { impClkInputs } from "../impressions-clicks.js";

const CONDITION = "ad = cad AND ct >= it AND ct <= it + interval 10 seconds AND ad < 10";

export default defineCase({
  description:
    "Stream-stream inner join whose ON clause has an impressions-only conjunct (ad < 10): Spark filters the impressions below the join, below the watermark and in the JSON scan, so ad 50 at :40 is neither numInputRows nor stored in the join state, nor does it move the watermark.",
  inputs: impClkInputs(
    [
      [
        { ad: 1, it: t(0) },
        { ad: 50, it: t(40) },
      ],
      [{ ad: 2, it: t(10) }],
      [{ ad: 3, it: t(20) }],
    ],
    [[{ cad: 1, ct: t(2) }], [{ cad: 2, ct: t(12) }], [{ cad: 50, ct: t(41) }]],
  ),
  outputMode: "append",
  pyspark: `def build(spark, imp, clk):
    return imp.join(clk, F.expr("${CONDITION}"))`,
  arus: ({ inputs, F }) => inputs.imp.join(inputs.clk, F.expr(CONDITION)),
});
