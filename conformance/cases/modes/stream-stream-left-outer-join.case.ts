import { defineCase, t } from "../../case.js";
import { impClkInputs, impClkJoin } from "../impressions-clicks.js";

export default defineCase({
  description:
    "Stream-stream left outer join with watermarks and a time-range condition: an unmatched left row is emitted with NULLs only once the watermark passes its range end (semantics 12.4); matched rows appear as soon as both sides arrived.",
  inputs: impClkInputs(
    // imp(ad, it)
    [
      [
        { ad: 1, it: t(0) },
        { ad: 2, it: t(1) },
      ],
      [{ ad: 3, it: t(20) }],
      [],
      [{ ad: 4, it: t(60) }],
    ],
    // clk(cad, ct)
    [[{ cad: 1, ct: t(2) }], [], [{ cad: 3, ct: t(45) }], [{ cad: 9, ct: t(61) }]],
  ),
  outputMode: "append",
  ...impClkJoin("left_outer"),
});
