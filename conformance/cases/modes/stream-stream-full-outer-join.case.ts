import { defineCase, t } from "../../case.js";
import { impClkInputs, impClkJoin } from "../impressions-clicks.js";

export default defineCase({
  description:
    "Stream-stream full outer join with watermarks and a range condition: unmatched rows of both sides appear with NULLs once the watermark evicts them.",
  inputs: impClkInputs(
    // imp(ad, it)
    [
      [
        { ad: 1, it: t(0) },
        { ad: 2, it: t(1) },
      ],
      [{ ad: 3, it: t(20) }],
      [{ ad: 4, it: t(60) }],
    ],
    // clk(cad, ct)
    [
      [
        { cad: 1, ct: t(2) },
        { cad: 7, ct: t(3) },
      ],
      [],
      [{ cad: 9, ct: t(61) }],
    ],
  ),
  outputMode: "append",
  ...impClkJoin("full_outer"),
});
