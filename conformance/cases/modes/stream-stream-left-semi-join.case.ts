import { defineCase, t } from "../../case.js";
import { impClkInputs, impClkJoin } from "../impressions-clicks.js";

export default defineCase({
  description:
    "Stream-stream left semi join with watermarks and a range condition: a left row is emitted once, on its first match (even when two right rows match it); unmatched left rows are dropped when evicted.",
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
      [{ cad: 1, ct: t(2) }],
      [
        { cad: 1, ct: t(3) },
        { cad: 3, ct: t(21) },
      ],
      [{ cad: 9, ct: t(61) }],
    ],
  ),
  outputMode: "append",
  ...impClkJoin("left_semi"),
});
